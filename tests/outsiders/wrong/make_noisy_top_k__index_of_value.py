"""Noisy top-k that peels *scores* and recovers each index from its value: every round draws a
position among the remaining scores (the catalogue's exact exponential mechanism), pops that
score from a working copy, and releases ``scores.index(value)`` ("the index of the chosen
score"), the map and domains the catalogue's.

Wrong: with ties, ``list.index`` returns the first index holding the value, which may already
have been released. ``k = 2``, scale 1: ``[1.0, 1.0]`` releases ``[0, 0]`` with probability 1
(both rounds find value ``1.0`` at index 0), while ``[1.0, 1.5]`` (LInf distance 0.5) never
releases ``[0, 0]`` (it releases ``[0, 1]`` or ``[1, 0]``): an infinite loss, above
``map(0.5) = 2``. (Checked on 200 seeded runs of each: the first always ``[0, 0]``, the second
never.)
Hole classes: none listed (a kernel bug on some inputs: ties).
"""

import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.errors import TooFewCandidatesError  # noqa: E402
from mechanisms.make_noisy_top_k import NoisyTopK, build_noisy_top_k, make_noisy_top_k  # noqa: E402
from mechanisms.measures import MaxDivergence  # noqa: E402
from mechanisms.samplers import system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_noisy_top_k import noisy_top_k_obligations  # noqa: E402

CONSTRUCTOR = "make_noisy_top_k"
CLASSES = ()


@dataclass(frozen=True)
class ValuePeel(NoisyTopK):
    def __call__(self, scores, rng=None):
        if len(scores) < self.k:
            raise TooFewCandidatesError(scores, self.k)
        rng = system_rng(rng)
        left = list(scores)
        chosen = []
        for _ in range(self.k):
            value = left.pop(self.selector(left, rng))
            chosen.append(list(scores).index(value))
        return chosen


def build(k, scale, optimize="max", measure=MaxDivergence(), monotonic=False, T=float):
    m = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    return replace(m, function=ValuePeel(m.function.selector, m.function.k))


make_topk_value = make_noisy_top_k.variant("make_noisy_top_k_index_of_value", build)
MECHANISMS = [Entry("outsider_o2_topk_index_of_value", make_topk_value,
                    noisy_top_k_obligations(make_topk_value, "outsider_o2_topk_index_of_value"))]


def witness() -> str:
    m = make_topk_value(2, 1.0)
    x, y = [1.0, 1.0], [1.0, 1.5]
    assert m.input_domain.member(x) and m.input_domain.member(y)
    d = m.input_metric.distance(x, y)
    rx = {tuple(m(x, random.Random(s))) for s in range(200)}
    ry = {tuple(m(y, random.Random(s))) for s in range(200)}
    assert rx == {(0, 0)} and (0, 0) not in ry
    # Pr[[0, 0] | x] = 1 for every rng (both rounds see value 1.0 first at index 0);
    # Pr[[0, 0] | y] = 0 (distinct values: two distinct indices): infinite loss
    return f"{x} -> [0, 0] surely, {y} -> {sorted(ry)}: infinite loss, map({d}) = {m.map(d)}"
