"""``make_noisy_clipped_sum(lower, upper, scale)``: the sum of integer rows, each clipped to
``[lower, upper]``, with discrete Laplace noise, written as one hand-made ``Measurement``.

Input domain ``VectorDomain(AtomDomain(int))`` (rows of any value) under ``SymmetricDistance``;
output ``AtomDomain(int)`` under ``MaxDivergence``. The function releases
``sum(clip(x) for x in rows) + Y``, ``clip(x) = max(min(x, upper), lower)`` and ``Y`` one draw of
``mechanisms.samplers.sample_discrete_laplace`` at ``scale``. One added or removed row moves the
clipped sum by ``|clip(x)| <= C = max(|lower|, |upper|)``, so ``d_in`` rows cost
``d_in * C / scale``: map ``d_in -> d_in * C / scale``, computed exactly and rounded up
(``div_up``).

Preconditions: ``lower <= upper`` (ints); ``scale`` a finite float ``> 0``.

It is the same mechanism as the catalogue chain ``make_clamp(lower, upper) >>
make_bounded_int_sum(lower, upper) >> make_discrete_laplace(scale)`` in one function.
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, IntBoundTypeError, ScaleError
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import draws_replaced, sample_discrete_laplace, system_rng
from obligations.base import Entry, example


def clipped_sum_map(d_in, bound, scale):
    """``d_in * bound / scale``, rounded up."""
    return div_up(d_in * bound, scale)


def build_noisy_clipped_sum(lower: int, upper: int, scale: float) -> Measurement:
    def release(rows, rng=None):
        total = sum(ops.maximum(ops.minimum(x, upper), lower) for x in rows)
        return total + sample_discrete_laplace(Fraction(scale), system_rng(rng))

    bound = ops.maximum(ops.absolute(lower), ops.absolute(upper))
    return Measurement(VectorDomain(AtomDomain(int)), AtomDomain(int), SymmetricDistance(),
                       MaxDivergence(), release,
                       Map(rule=clipped_sum_map, params={"bound": bound, "scale": scale}))


def validate(lower, upper, scale):
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)
    if type(scale) is not float:
        raise ScaleError(scale)


PRECONDITIONS = (
    Precondition("lower <= upper", lambda lower, upper, **_: ops.le(lower, upper),
                 lambda lower, upper, **_: BoundsOrderError(lower, upper)),
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("scale > 0", lambda scale, **_: ops.lt(0, scale),
                 lambda scale, **_: ScaleError(scale)),
)

make_noisy_clipped_sum = Constructor("make_noisy_clipped_sum", build_noisy_clipped_sum,
                                     PRECONDITIONS, validate)

MECHANISMS = [Entry("make_noisy_clipped_sum", make_noisy_clipped_sum,
                    examples=(example("make_noisy_clipped_sum(-4, 10, 3.0)",
                                      "from clipped_sum_noise import make_noisy_clipped_sum"),))]


def check() -> str:
    from mechanisms.make_bounded_int_sum import make_bounded_int_sum
    from mechanisms.make_clamp import make_clamp
    from mechanisms.make_discrete_laplace import make_discrete_laplace

    compared = 0
    for lower, upper, scale in ((-4, 10, 3.0), (0, 1, 0.5), (-7, -2, 2.5), (3, 3, 1.0)):
        m = make_noisy_clipped_sum(lower, upper, scale)
        chain = (make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper)
                 >> make_discrete_laplace(scale))
        data = random.Random(lower * 31 + upper)
        for seed in range(40):
            rows = [data.randint(-30, 30) for _ in range(data.randint(0, 8))]
            assert m(rows, random.Random(seed)) == chain(rows, random.Random(seed))
            compared += 1
        seen = []
        with draws_replaced(lambda law, p, rng: seen.append((law, p)) or 0):
            m.function([1, 2], None)
        assert seen == [("discrete Laplace", Fraction(scale))]
        for d_in in range(0, 12):
            assert m.map(d_in) == chain.map(d_in), (d_in, m.map(d_in), chain.map(d_in))
    return (f"make_noisy_clipped_sum equals make_clamp >> make_bounded_int_sum >> "
            f"make_discrete_laplace on {compared} seeded runs at 4 parameter sets; maps equal "
            f"at d_in = 0..11")
