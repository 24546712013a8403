"""Vector Laplace whose function object (a subclass of ``VectorNoise``) draws one discrete
Laplace value and adds it to every coordinate ("vectorised: ``v + sample()`` broadcasts").

Wrong: the noise no longer hides differences between coordinates. ``[0, 0]`` and ``[1, -1]`` are
at L1 distance 2, but every output of the first has equal coordinates and no output of the
second does (``[z, z]`` vs ``[1 + z, -1 + z]``), so the supports are disjoint: an infinite
privacy loss against ``map(2) = 2 / scale``. Run on the real function with a seeded generator.
Hole classes: 2 (a subclass overrides the method that runs).
"""

import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402
import random  # noqa: E402

from mechanisms.make_vector_laplace import (VectorNoise, build_vector_laplace,  # noqa: E402
                                            make_vector_laplace)
from mechanisms.samplers import system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_vector_laplace"
CLASSES = (2,)


@dataclass(frozen=True)
class BroadcastNoise(VectorNoise):
    def __call__(self, arg, rng=None):
        scale = Fraction(self.scale)
        if scale <= 0:
            return [self.shift(x, 0) for x in arg]
        noise = self.sampler(scale, system_rng(rng))
        return [self.shift(x, noise) for x in arg]


def build(scale):
    m = build_vector_laplace(scale)
    return replace(m, function=BroadcastNoise(m.function.scale, m.function.sampler))


make_vl_shared = make_vector_laplace.variant("make_vector_laplace_shared_draw", build)
MECHANISMS = [Entry("outsider_vl_shared_draw", make_vl_shared)]


def witness() -> str:
    m = make_vl_shared(1.0)
    v, w = [0, 0], [1, -1]
    d_in = m.input_metric.distance(v, w)
    rng = random.Random(0)
    outs_v = [m(v, rng) for _ in range(200)]
    outs_w = [m(w, rng) for _ in range(200)]
    assert all(a == b for a, b in outs_v)
    assert all(a - b == 2 for a, b in outs_w)
    claimed = m.map(d_in)
    assert claimed < math.inf
    return (f"scale 1: outputs of {v} always have equal coordinates, of {w} differ by 2 "
            f"(200 runs each; disjoint supports, infinite loss) vs map({d_in}) = {claimed}")
