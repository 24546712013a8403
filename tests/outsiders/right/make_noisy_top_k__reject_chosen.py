"""Noisy top-k that never builds the list of remaining scores: each round runs the catalogue's
report-noisy-max selector on *all* ``n`` scores and redraws while the index is already chosen.

Correct: one call of the selector returns ``i`` with probability ``w_i / W``,
``w_i = exp(o s_i / scale)``, ``W = sum_j w_j``; redrawing until ``i`` lies in ``R`` (the
candidates not chosen yet, non-empty since ``n >= k``) returns ``i in R`` with probability
``(w_i / W) / sum_{j in R} (w_j / W) = w_i / sum_{j in R} w_j`` (a geometric series), exactly
the catalogue's round on the remaining scores: the same law of ``(i_1, ..., i_k)``. Checked
exactly: for each round the full-vector exponents (``selector.gammas`` on all scores) differ on
``R`` as the catalogue's exponents on the remaining scores (Fractions), so the restricted
weights are proportional; and seeded runs return ``k`` distinct indices in ``[0, n)``.
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


@dataclass(frozen=True)
class RejectChosenTopK(NoisyTopK):
    def __call__(self, scores, rng=None):
        if len(scores) < self.k:
            raise TooFewCandidatesError(scores, self.k)
        rng = system_rng(rng)
        chosen = []
        while len(chosen) < self.k:
            index = self.selector(scores, rng)
            if index not in chosen:
                chosen.append(index)
        return chosen


def build(k, scale, optimize="max", measure=MaxDivergence(), monotonic=False, T=float):
    m = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    return replace(m, function=RejectChosenTopK(m.function.selector, m.function.k))


make_topk_reject = make_noisy_top_k.variant("make_noisy_top_k_reject_chosen", build)
MECHANISMS = [Entry("outsider_right_topk_reject_chosen", make_topk_reject,
                    noisy_top_k_obligations(make_topk_reject, "outsider_right_topk_reject_chosen"))]


def check() -> str:
    rng = random.Random(11)
    cases = 0
    for scale in (0.5, 1.0, 3):
        for optimize in ("max", "min"):
            for k in (1, 2, 3):
                ours = make_topk_reject(k, scale, optimize).function
                for _ in range(15):
                    n = rng.randint(k, 6)
                    scores = [rng.choice([0.0, 1.0, -2.5, rng.uniform(-4, 4)]) for _ in range(n)]
                    full = ours.selector.gammas(scores)
                    # every possible set of already-chosen indices of size < k
                    for size in range(k):
                        chosen = rng.sample(range(n), size)
                        remaining = [i for i in range(n) if i not in chosen]
                        peeled = ours.selector.gammas([scores[i] for i in remaining])
                        base = remaining[0]
                        for pos, i in enumerate(remaining):
                            assert full[i] - full[base] == peeled[pos] - peeled[0]
                    out = ours(scores, random.Random(cases))
                    assert len(out) == k == len(set(out)) and all(0 <= i < n for i in out)
                    assert all(type(i) is int for i in out)
                    cases += 1
    return (f"{cases} score vectors: restricted full-vector exponents differ as the peeled ones "
            "(same round law); outputs k distinct indices")
