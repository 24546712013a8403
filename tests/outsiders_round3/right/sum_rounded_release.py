"""``make_noisy_sum_rounded(lower, upper, scale, granularity)``: a noisy sum of bounded integer
rows, published rounded to the nearest multiple of ``granularity`` (a "round numbers" report).

Input domain ``VectorDomain(AtomDomain(int, bounds=(lower, upper)))`` under
``SymmetricDistance``; output ``AtomDomain(int)`` under ``MaxDivergence``. The function draws
``Y`` from ``mechanisms.samplers.sample_discrete_laplace`` at ``scale`` and releases
``round_to(sum(rows) + Y)``, ``round_to(y) = ((y + g // 2) // g) * g``. The rounding reads only
the noisy value (post-processing), so the map is the noisy sum's:
``d_in -> d_in * max(|lower|, |upper|) / scale``, rounded up.

Preconditions: ``lower <= upper``, ``granularity >= 1`` (ints); ``scale`` a finite float
``> 0``.
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, ConstructorError, IntBoundTypeError, ScaleError
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import draws_replaced, sample_discrete_laplace, system_rng
from obligations.base import Entry, example


def round_to(y, granularity):
    return ops.floor_div(y + ops.floor_div(granularity, 2), granularity) * granularity


def sum_map(d_in, lower, upper, scale):
    return div_up(d_in * ops.maximum(ops.absolute(lower), ops.absolute(upper)), scale)


def build_noisy_sum_rounded(lower: int, upper: int, scale: float,
                            granularity: int) -> Measurement:
    def release(rows, rng=None):
        noisy = sum(rows) + sample_discrete_laplace(Fraction(scale), system_rng(rng))
        return round_to(noisy, granularity)

    return Measurement(VectorDomain(AtomDomain(int, bounds=(lower, upper))), AtomDomain(int),
                       SymmetricDistance(), MaxDivergence(), release,
                       Map(rule=sum_map, params={"lower": lower, "upper": upper, "scale": scale}))


def validate(lower, upper, scale, granularity):
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)
    if type(scale) is not float:
        raise ScaleError(scale)
    if type(granularity) is not int:
        raise ConstructorError(f"granularity must be an int, got {granularity!r}",
                               granularity=granularity)


PRECONDITIONS = (
    Precondition("lower <= upper", lambda lower, upper, **_: ops.le(lower, upper),
                 lambda lower, upper, **_: BoundsOrderError(lower, upper)),
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("scale > 0", lambda scale, **_: ops.lt(0, scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("granularity >= 1", lambda granularity, **_: ops.le(1, granularity),
                 lambda granularity, **_: ConstructorError(
                     f"granularity must be >= 1, got {granularity!r}", granularity=granularity)),
)

make_noisy_sum_rounded = Constructor("make_noisy_sum_rounded", build_noisy_sum_rounded,
                                     PRECONDITIONS, validate)

MECHANISMS = [Entry("make_noisy_sum_rounded", make_noisy_sum_rounded,
                    examples=(example("make_noisy_sum_rounded(0, 50, 20.0, 10)",
                                      "from sum_rounded_release import make_noisy_sum_rounded"),))]


def check() -> str:
    from mechanisms.make_bounded_int_sum import make_bounded_int_sum
    from mechanisms.make_discrete_laplace import make_discrete_laplace

    compared = 0
    for lower, upper, scale, g in ((0, 50, 20.0, 10), (-6, 3, 1.5, 4), (-2, 2, 0.75, 1)):
        m = make_noisy_sum_rounded(lower, upper, scale, g)
        chain = make_bounded_int_sum(lower, upper) >> make_discrete_laplace(scale)
        data = random.Random(upper - lower)
        for seed in range(40):
            rows = [data.randint(lower, upper) for _ in range(data.randint(0, 8))]
            y = chain(rows, random.Random(seed))
            assert m(rows, random.Random(seed)) == ((y + g // 2) // g) * g
            compared += 1
        seen = []
        with draws_replaced(lambda law, p, rng: seen.append((law, p)) or 0):
            m.function([lower], None)
        assert seen == [("discrete Laplace", Fraction(scale))]
        for d_in in range(0, 12):
            assert m.map(d_in) == chain.map(d_in), d_in
    return (f"make_noisy_sum_rounded equals (make_bounded_int_sum >> make_discrete_laplace) "
            f"then rounding, on {compared} seeded runs; maps equal the chain's at d_in = 0..11")
