"""Laplace threshold whose map does not use the metric's facts: ``epsilon = l1 / scale`` and the
tail at ``threshold - linf`` with ``l1, linf`` as given (no ``min(l1, l0 linf)``, no
``min(linf, l1)``).

Correct: the facts only tighten: ``l1 >= min(l1, l0 linf)`` gives a larger (still valid)
epsilon, and ``linf >= min(linf, l1')`` gives a smaller gap, hence a larger tail and delta (the
tail bound decreases in the gap, and ``gap <= 0`` gives 1). So this map is never below the
catalogue's at any ``d_in``. Checked: componentwise ``>=`` the catalogue's map on every
``d_in`` with entries up to 6 for several (scale, threshold).
"""

import itertools
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_laplace_threshold import (build_laplace_threshold, exp_lower,  # noqa: E402
                                               laplace_tail_denominator, make_laplace_threshold)
from obligations.base import Entry  # noqa: E402
from obligations.make_laplace_threshold import laplace_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_laplace_threshold"


def untightened_map(d_in, scale, threshold, exp_lower):
    l0, l1, linf = d_in
    epsilon = div_up(l1, scale)
    gap = threshold - linf
    tail_bound = div_up(l0, laplace_tail_denominator(gap, scale, exp_lower))
    delta = ops.where(ops.eq(l0, 0), 0.0,
                      ops.where(ops.le(gap, 0), 1.0, ops.minimum(1.0, tail_bound)))
    return epsilon, delta


def build(carrier, scale, threshold):
    return replace(build_laplace_threshold(carrier, scale, threshold),
                   privacy_map=Map(rule=untightened_map, params={
                       "scale": scale, "threshold": threshold, "exp_lower": exp_lower}))


make_lt_untight = make_laplace_threshold.variant("make_laplace_threshold_untightened_map", build)
MECHANISMS = [Entry("outsider_right_laplace_threshold_untightened_map", make_lt_untight,
                    laplace_threshold_obligations(make_lt_untight,
                                                  "outsider_right_laplace_threshold_untightened_map"))]


def check() -> str:
    n = 0
    for scale, threshold in [(1.0, 5), (0.3, 2), (4.0, 20), (1.0, 0)]:
        ours, theirs = make_lt_untight(str, scale, threshold), make_laplace_threshold(str, scale, threshold)
        for d in itertools.product(range(7), repeat=3):
            (e1, d1), (e2, d2) = ours.map(d), theirs.map(d)
            assert e1 >= e2 and d1 >= d2, (scale, threshold, d, ours.map(d), theirs.map(d))
            n += 1
    return f"map >= the catalogue's componentwise on {n} (parameters, d_in)"
