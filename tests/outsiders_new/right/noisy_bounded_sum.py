"""make_noisy_bounded_sum(lower, upper, scale): a bounded int sum with discrete Laplace noise, as
ONE hand-written Measurement (a new noise mechanism, not a chain): the function sums the rows and
adds one exact draw of ``sample_discrete_laplace(scale)`` (no noise when ``scale = 0``).

``VectorDomain(AtomDomain(int, bounds=(lower, upper)))``, symmetric distance -> ``AtomDomain(int)``,
``MaxDivergence``. Map ``d_in -> d_in * max(|lower|, |upper|) / scale`` rounded up (``div_up``),
``0`` at ``d_in = 0``: one added or removed row moves the sum by at most ``max(|L|, |U|)`` and the
discrete Laplace of scale ``s`` has point ratios at most ``exp(|shift| / s)``.

Preconditions (written with ``ops`` as README says): ``scale`` finite and ``>= 0`` (the
catalogue's ``SCALE_PRECONDITIONS``), ``lower <= upper`` (``INT_SUM_PRECONDITIONS``); validation:
int bounds, float scale. README gives no proof module for a new measurement and says an
obligation of mine proves no standard statement, so the entry lists no obligations; it has an
example (README: the kind of object is read from the first example).
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
from mechanisms.make_bounded_int_sum import (INT_SUM_PRECONDITIONS, int_sum_constant,
                                              make_bounded_int_sum, validate_int_bounds)
from mechanisms.make_discrete_laplace import (SCALE_PRECONDITIONS, make_discrete_laplace,
                                               validate_scale)
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import sample_discrete_laplace, system_rng
from obligations.base import Entry, example


@dataclass(frozen=True)
class NoisySum:
    """``v -> sum(v) + Y``, ``Y ~ sampler(scale)``; no noise when ``scale = 0``."""

    scale: Any
    sampler: Callable[[Any, Any], int]

    def __call__(self, arg, rng=None):
        total = 0
        for x in arg:
            total = total + x
        scale = Fraction(self.scale)
        noise = self.sampler(scale, system_rng(rng)) if scale > 0 else 0
        return total + noise


def noisy_sum_map(d_in, lower, upper, scale):
    """``0`` at ``d_in = 0``, else ``d_in * max(|L|, |U|) / scale`` rounded up."""
    return ops.where(ops.eq(d_in, 0), 0, div_up(d_in * int_sum_constant(lower, upper), scale))


def validate_noisy_sum(lower, upper, scale):
    validate_int_bounds(lower, upper)
    validate_scale(scale)


def build_noisy_bounded_sum(lower, upper, scale):
    return Measurement(
        input_domain=VectorDomain(AtomDomain(int, bounds=(lower, upper))),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_measure=MaxDivergence(),
        function=NoisySum(scale, sample_discrete_laplace),
        privacy_map=Map(rule=noisy_sum_map,
                        params={"lower": lower, "upper": upper, "scale": scale}),
    )


make_noisy_bounded_sum = Constructor("make_noisy_bounded_sum", build_noisy_bounded_sum,
                                     (*SCALE_PRECONDITIONS, *INT_SUM_PRECONDITIONS),
                                     validate_noisy_sum)
MECHANISMS = [Entry("make_noisy_bounded_sum", make_noisy_bounded_sum,
                    examples=(example("make_noisy_bounded_sum(-3, 5, 2.0)",
                                      "from noisy_bounded_sum import make_noisy_bounded_sum"),))]


def check() -> str:
    cases = [(-3, 5, 2.0), (0, 100, 10.0), (-7, -2, 0.5), (1, 1, 1.0)]
    for lower, upper, scale in cases:
        mine = make_noisy_bounded_sum(lower, upper, scale)
        chain = make_bounded_int_sum(lower, upper) >> make_discrete_laplace(scale)
        rng = random.Random(lower * 31 + upper)
        for seed in range(100):
            v = [rng.randint(lower, upper) for _ in range(rng.randint(0, 6))]
            assert mine(v, random.Random(seed)) == chain(v, random.Random(seed))
        for d in (0, 1, 2, 9):
            assert mine.map(d) == chain.map(d), (lower, upper, scale, d, mine.map(d), chain.map(d))
    zero = make_noisy_bounded_sum(0, 3, 0.0)
    assert zero([1, 2], random.Random(0)) == 3 and zero.map(0) == 0 and zero.map(1) == float("inf")
    return ("equal to the catalogue chain bounded_int_sum >> discrete_laplace on 400 seeded runs "
            "(same draws) and equal maps at d in {0,1,2,9} for 4 parameter sets; scale 0: no noise, map inf")
