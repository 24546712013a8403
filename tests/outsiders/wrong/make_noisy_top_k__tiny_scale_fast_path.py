"""Noisy top-k with a "fast path" for tiny scales: below ``scale = 2^-30`` the exponential
mechanism is "essentially deterministic" (and the rejection sampler slow), so the release is the
exact top-k by sorting (ties broken by index); otherwise the catalogue's peeling. Map and
domains the catalogue's.

Wrong: at a tiny but positive scale the map is large but finite (``k 2 d_in / scale``), while a
deterministic release has infinite loss: ``k = 1``, ``scale = 2^-31``: ``[0.0, 1.0]`` releases
``[1]`` with probability 1 and ``[1.0, 0.0]`` (LInf distance 1) never does:
``ln(1 / 0) = inf > map(1) = 2^32``.
Hole classes: 10 (shows only for ``scale < 2^-30``).
"""

import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.make_noisy_top_k import NoisyTopK, build_noisy_top_k, make_noisy_top_k  # noqa: E402
from mechanisms.measures import MaxDivergence  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_noisy_top_k import noisy_top_k_obligations  # noqa: E402

CONSTRUCTOR = "make_noisy_top_k"
CLASSES = (10,)

TINY = 2.0 ** -30


@dataclass(frozen=True)
class FastTopK(NoisyTopK):
    def __call__(self, scores, rng=None):
        if self.selector.scale < TINY and len(scores) >= self.k:
            order = sorted(range(len(scores)), key=lambda i: (-self.selector.sign * scores[i], i))
            return order[:self.k]
        return NoisyTopK.__call__(self, scores, rng)


def build(k, scale, optimize="max", measure=MaxDivergence(), monotonic=False, T=float):
    m = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    return replace(m, function=FastTopK(m.function.selector, m.function.k))


make_topk_fast = make_noisy_top_k.variant("make_noisy_top_k_tiny_scale_fast_path", build)
MECHANISMS = [Entry("outsider_o2_topk_tiny_scale_fast_path", make_topk_fast,
                    noisy_top_k_obligations(make_topk_fast, "outsider_o2_topk_tiny_scale_fast_path"))]


def witness() -> str:
    m = make_topk_fast(1, 2.0 ** -31)
    x, y = [0.0, 1.0], [1.0, 0.0]
    assert m.input_metric.distance(x, y) == 1
    rx = {tuple(m(x, random.Random(s))) for s in range(50)}
    ry = {tuple(m(y, random.Random(s))) for s in range(50)}
    # the fast path never draws: the release is a function of the data
    assert rx == {(1,)} and ry == {(0,)}
    return f"scale 2^-31: {x} -> [1] surely, {y} -> [0] surely: infinite loss > map(1) = {m.map(1)}"
