"""Noisy top-k whose peeling keeps two parallel lists, the remaining indices and their scores,
and pops the drawn position from both (instead of rebuilding ``[scores[i] for i in remaining]``
every round); the selector, map and domains are the catalogue's.

Right: before each round the score list is exactly ``[scores[i] for i in remaining]`` (true at
the start; popping the same position from both keeps it), so every round calls the same
selector on the same list with the same random source: the same release, draw for draw, hence
the same law. Checked: on 600 seeded runs over random score vectors, ``k`` and both optimize
directions, the release equals the catalogue's under the same seed.
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
class ParallelPop(NoisyTopK):
    def __call__(self, scores, rng=None):
        if len(scores) < self.k:
            raise TooFewCandidatesError(scores, self.k)
        rng = system_rng(rng)
        indices, values = list(range(len(scores))), list(scores)
        chosen = []
        for _ in range(self.k):
            position = self.selector(values, rng)
            values.pop(position)
            chosen.append(indices.pop(position))
        return chosen


def build(k, scale, optimize="max", measure=MaxDivergence(), monotonic=False, T=float):
    m = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    return replace(m, function=ParallelPop(m.function.selector, m.function.k))


make_topk_pop = make_noisy_top_k.variant("make_noisy_top_k_parallel_pop", build)
MECHANISMS = [Entry("outsider_o2_right_topk_parallel_pop", make_topk_pop,
                    noisy_top_k_obligations(make_topk_pop, "outsider_o2_right_topk_parallel_pop"))]


def check() -> str:
    rng = random.Random(4)
    n = 0
    for _ in range(600):
        size = rng.randint(1, 7)
        k = rng.randint(1, size)
        scores = [rng.choice([0.0, 1.0, 2.5, -3.0, rng.uniform(-4, 4)]) for _ in range(size)]
        optimize = rng.choice(["max", "min"])
        scale = rng.choice([0.5, 1.0, 2.0])
        seed = rng.randrange(2 ** 32)
        ours = make_topk_pop(k, scale, optimize)(scores, random.Random(seed))
        theirs = make_noisy_top_k(k, scale, optimize)(scores, random.Random(seed))
        assert ours == theirs, (scores, k, ours, theirs)
        n += 1
    return f"same release as the catalogue under the same seed on {n} runs"
