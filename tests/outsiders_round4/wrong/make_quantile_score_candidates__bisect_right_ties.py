"""make_quantile_score_candidates refactored with sort + bisect, counting "below" with
``bisect_right``. WRONG.

The refactor (a ``CandidateScores`` subclass with a replaced ``__call__``, as OpenDP's
sort-and-bisect): ``below = bisect_right(sorted_rows, c)``, ``equal = bisect_right - bisect_left``,
score ``|den * below - num * (n - equal)|``.

The bug: ``bisect_right`` counts the rows ``<= c``, not ``< c``, so a row equal to a candidate is
counted both as "below" and as "equal". Adding such a row then moves the inner difference by
``den`` (instead of ``0``), more than the ``max(num, den - num)`` the map allows whenever
``0 < num``. With no row exactly equal to a candidate (continuous data, candidates on a grid the
data misses) every score equals the catalogue's.

Standard statement broken: **stability**. ``make([0], 0.5)`` (``num/den = 1/2``, map
``d_in * 1``): ``[]`` and ``[0]`` at symmetric distance 1 give scores ``[0]`` and ``[2]``, at
L-infinity distance 2 > ``map(1) = 1``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bisect import bisect_left, bisect_right
from dataclasses import replace

from mechanisms.core import Map
from mechanisms.make_quantile_score_candidates import (CandidateScores, alpha_fraction,
                                                       build_quantile_score_candidates,
                                                       make_quantile_score_candidates,
                                                       score_constant)
from obligations.base import Entry

CONSTRUCTOR = "make_quantile_score_candidates"


class RightBisectScores(CandidateScores):
    def __call__(self, data):
        ordered = sorted(data)
        n = len(ordered)
        out = []
        for c in self.candidates:
            below = bisect_right(ordered, c)
            equal = below - bisect_left(ordered, c)
            out.append(abs(self.den * below - self.num * (n - equal)))
        return out


def build_scores_right_bisect(candidates, alpha, atom_domain=None):
    num, den = alpha_fraction(alpha)
    scores = RightBisectScores(tuple(candidates), num, den)
    return replace(build_quantile_score_candidates(candidates, alpha, atom_domain),
                   function=scores,
                   stability_map=Map(constant=score_constant, params={"scores": scores}))


make_scores_right_bisect = make_quantile_score_candidates.variant("make_scores_right_bisect",
                                                                  build_scores_right_bisect)
MECHANISMS = [Entry("make_scores_right_bisect", make_scores_right_bisect)]


def check() -> str:
    cands = [0.5, 1.5, 2.5]
    t, ref = make_scores_right_bisect(cands, 0.25), make_quantile_score_candidates(cands, 0.25)
    for v in ([], [0.0, 1.0, 2.0, 3.0], [1.0] * 7 + [-3.0, 9.0]):
        assert t(v) == ref(v)
    t = make_scores_right_bisect([0], 0.5)
    v, w = [], [0]
    d_in = t.input_metric.distance(v, w)
    out_v, out_w = t(v), t(w)
    d_out = t.output_metric.distance(out_v, out_w)
    assert d_in == 1 and out_v == [0] and out_w == [2] and d_out == 2
    assert d_out > t.map(d_in)
    assert make_quantile_score_candidates([0], 0.5)(w) == [0]
    return (f"stability broken: make([0], 0.5): [] and [0] at d_in=1; scores {out_v} and "
            f"{out_w} at {d_out} > map(1) = {t.map(1)}")
