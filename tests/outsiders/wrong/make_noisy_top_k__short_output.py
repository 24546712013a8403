"""Noisy top-k that, like OpenDP 0.16, admits score vectors of any length (``VectorDomain`` without
the catalogue's ``min_size=k``) and returns fewer than ``k`` indices when there are fewer than
``k`` scores (``for _ in range(min(k, len(scores)))``); the output domain is still
``SizedDomain(..., k)``.

Wrong: the declared output domain is lists of exactly ``k`` indices. ``k = 3`` on the admitted
score vector ``[1.0, 2.0]`` returns a list of 2 indices, not a member of the output domain (and
a downstream post-processor typed for ``k`` entries breaks). The privacy of the release is not at
stake (the length depends only on ``len(scores)``, which neighbours share); the domain claim is.
Hole classes: 2 (a subclass overrides ``__call__``).
"""

import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.domains import VectorDomain  # noqa: E402
from mechanisms.make_noisy_top_k import NoisyTopK, build_noisy_top_k, make_noisy_top_k  # noqa: E402
from mechanisms.make_report_noisy_max import score_domain  # noqa: E402
from mechanisms.measures import MaxDivergence  # noqa: E402
from mechanisms.samplers import system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_noisy_top_k import noisy_top_k_obligations  # noqa: E402

CONSTRUCTOR = "make_noisy_top_k"
CLASSES = (2,)


@dataclass(frozen=True)
class TruncatingTopK(NoisyTopK):
    def __call__(self, scores, rng=None):
        rng = system_rng(rng)
        remaining = list(range(len(scores)))
        chosen = []
        for _ in range(min(self.k, len(scores))):
            position = self.selector([scores[i] for i in remaining], rng)
            chosen.append(remaining.pop(position))
        return chosen


def build(k, scale, optimize="max", measure=MaxDivergence(), monotonic=False, T=float):
    m = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    return replace(m, input_domain=VectorDomain(score_domain(T)),
                   function=TruncatingTopK(m.function.selector, m.function.k))


make_topk_short = make_noisy_top_k.variant("make_noisy_top_k_short_output", build)
MECHANISMS = [Entry("outsider_topk_short_output", make_topk_short,
                    noisy_top_k_obligations(make_topk_short, "outsider_topk_short_output"))]


def witness() -> str:
    m = make_topk_short(3, 1.0)
    v = [1.0, 2.0]
    assert m.input_domain.member(v)
    out = m(v, random.Random(0))
    assert not m.output_domain.member(out), out
    return f"k 3 on {v}: output {out} not in {m.output_domain}"
