"""make_nonneg_noisy_count(scale): the number of rows plus discrete Laplace noise, floored at 0
(a count is never negative; the floor is post-processing), as one hand-written Measurement.

``VectorDomain(AtomDomain(int))``, symmetric distance -> ``AtomDomain(int)`` (no upper bound
is expressible, so the output domain is every int though outputs are ``>= 0``),
``MaxDivergence``; map ``0`` at ``d_in = 0``, else ``d_in / scale`` rounded up (the count is
1-stable; ``max(0, .)`` after the noise cannot increase the divergence). Preconditions: the
catalogue's ``SCALE_PRECONDITIONS``. No proof module named by README for a new measurement:
no obligations, one example.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_count import make_count
from mechanisms.make_discrete_laplace import (SCALE_PRECONDITIONS, make_discrete_laplace,
                                               validate_scale)
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import sample_discrete_laplace, system_rng
from obligations.base import Entry, example


@dataclass(frozen=True)
class NonNegativeNoisyCount:
    scale: Any
    sampler: Callable[[Any, Any], int]

    def __call__(self, arg, rng=None):
        scale = Fraction(self.scale)
        noise = self.sampler(scale, system_rng(rng)) if scale > 0 else 0
        return ops.maximum(len(arg) + noise, 0)


def count_map(d_in, scale):
    return ops.where(ops.eq(d_in, 0), 0, div_up(d_in, scale))


def build_nonneg_noisy_count(scale):
    return Measurement(
        input_domain=VectorDomain(AtomDomain(int)),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_measure=MaxDivergence(),
        function=NonNegativeNoisyCount(scale, sample_discrete_laplace),
        privacy_map=Map(rule=count_map, params={"scale": scale}),
    )


make_nonneg_noisy_count = Constructor("make_nonneg_noisy_count", build_nonneg_noisy_count,
                                      SCALE_PRECONDITIONS, validate_scale)
MECHANISMS = [Entry("make_nonneg_noisy_count", make_nonneg_noisy_count,
                    examples=(example("make_nonneg_noisy_count(2.0)",
                                      "from nonneg_noisy_count import make_nonneg_noisy_count"),))]


def check() -> str:
    for scale in (0.5, 2.0, 7.0):
        mine = make_nonneg_noisy_count(scale)
        chain = make_count(int) >> make_discrete_laplace(scale)
        rng = random.Random(int(scale * 10))
        for seed in range(200):
            v = [rng.randint(-5, 5) for _ in range(rng.randint(0, 4))]
            assert mine(v, random.Random(seed)) == max(0, chain(v, random.Random(seed)))
        for d in (0, 1, 3):
            assert mine.map(d) == chain.map(d)
    return ("600 seeded runs equal max(0, count >> discrete_laplace) with the same draws; maps equal "
            "the catalogue chain's at d in {0,1,3}")
