"""make_quantile_score_candidates with its map written from the float alpha:
``d_in * den * max(alpha, 1 - alpha)``. WRONG.

The refactor replaces ``score_constant`` (``max(num, den - num)`` of the running fraction) by
"the same thing in closed form", ``d_in * den * max(alpha, 1 - alpha)``, computed in floats.

The bug: when ``alpha``'s exact denominator is ``>= 10_000``, the scores use ``den = 10_000``
and ``num = floor(alpha * 10_000)``: the numerator is rounded *down*, so ``den - num`` can exceed
``den * (1 - alpha)`` by up to 1; and the float products ``d_in * den * 0.7`` can round below
the integer. For ``alpha`` in ``0.5``, ``0.25``, ``0.1``, ``0.2``, ``0.9``... the map is the
catalogue's (checked for every ``d_in < 10^5``); with a fifth decimal it is too small by a
fraction of a unit at ``d_in = 1``, and at ``alpha = 0.3`` it is one ulp too small from
``d_in = 9`` on (``9 * 10000 * 0.7 = 62999.99999999999 < 63000``).

Standard statement broken: **stability**. ``make([0], 0.12345)``: ``num = 1234``, ``den =
10000``; ``[]`` and ``[-1]`` at symmetric distance 1 give scores ``[0]`` and ``[8766]``, at
distance 8766 > ``map(1) = 10000 * 0.87655 = 8765.5``. Also ``make([0], 0.3)``: ``[]`` and
``[-1] * 9`` at distance 9 give ``[0]`` and ``[63000]``, 63000 > ``map(9) = 62999.99999999999``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from dataclasses import replace

from mechanisms import ops
from mechanisms.core import Map
from mechanisms.make_quantile_score_candidates import (alpha_fraction,
                                                       build_quantile_score_candidates,
                                                       make_quantile_score_candidates)
from obligations.base import Entry

CONSTRUCTOR = "make_quantile_score_candidates"


def closed_form_map(d_in, alpha, den):
    return d_in * den * ops.maximum(alpha, 1 - alpha)


def build_scores_closed_form(candidates, alpha, atom_domain=None):
    _, den = alpha_fraction(alpha)
    return replace(build_quantile_score_candidates(candidates, alpha, atom_domain),
                   stability_map=Map(rule=closed_form_map, params={"alpha": alpha, "den": den}))


make_scores_closed_form = make_quantile_score_candidates.variant("make_scores_closed_form",
                                                                 build_scores_closed_form)
MECHANISMS = [Entry("make_scores_closed_form", make_scores_closed_form)]


def check() -> str:
    for alpha in (0.5, 0.25, 0.1, 0.2, 0.9, 0.0, 1.0, 0.1234):
        t, ref = make_scores_closed_form([0, 1], alpha), make_quantile_score_candidates([0, 1], alpha)
        assert all(t.map(d) >= ref.map(d) for d in range(20)), alpha
    alpha = 0.12345
    assert alpha_fraction(alpha) == (1234, 10000)
    t = make_scores_closed_form([0], alpha)
    v, w = [], [-1]
    d_in = t.input_metric.distance(v, w)
    out_v, out_w = t(v), t(w)
    d_out = t.output_metric.distance(out_v, out_w)
    assert d_in == 1 and out_v == [0] and out_w == [8766]
    assert t.map(1) == 8765.5 and d_out > t.map(d_in)
    assert d_out <= make_quantile_score_candidates([0], alpha).map(1) == 8766
    t3 = make_scores_closed_form([0], 0.3)
    w3 = [-1] * 9
    assert t3.input_metric.distance([], w3) == 9 and t3(w3) == [63000] and t3([]) == [0]
    assert t3.output_metric.distance([0], [63000]) > t3.map(9) == 62999.99999999999
    return (f"stability broken: make([0], 0.12345): [] and [-1] at d_in=1; scores {out_v} and "
            f"{out_w} at {d_out} > map(1) = {t.map(1)}; make([0], 0.3): 63000 > map(9) = {t3.map(9)}")
