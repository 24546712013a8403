"""``make_noisy_excess_sum(lower, upper, scale)``: the total excess of bounded integer rows over
``lower`` (minutes beyond a free allowance, say), with discrete Laplace noise.

Input domain ``VectorDomain(AtomDomain(int, bounds=(lower, upper)))`` under
``SymmetricDistance``; output ``AtomDomain(int)`` under ``MaxDivergence``. The statistic is
``sum(x - lower for x in rows)``: every row contributes ``x - lower`` in ``[0, upper - lower]``,
so one added or removed row moves it by at most ``upper - lower``, which is less than
``max(|lower|, |upper|)`` when both bounds have one sign (``[100, 120]``: 20, not 120). The
release is ``statistic + Y``, ``Y`` one draw of ``mechanisms.samplers.sample_discrete_laplace`` at
``scale``: map ``d_in -> d_in * (upper - lower) / scale``, rounded up.

Preconditions: ``lower <= upper`` (ints); ``scale`` a finite float ``> 0``.
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


def excess_map(d_in, width, scale):
    return div_up(d_in * width, scale)


def build_noisy_excess_sum(lower: int, upper: int, scale: float) -> Measurement:
    def release(rows, rng=None):
        excess = sum(x - lower for x in rows)
        return excess + sample_discrete_laplace(Fraction(scale), system_rng(rng))

    return Measurement(VectorDomain(AtomDomain(int, bounds=(lower, upper))), AtomDomain(int),
                       SymmetricDistance(), MaxDivergence(), release,
                       Map(rule=excess_map, params={"width": upper - lower, "scale": scale}))


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

make_noisy_excess_sum = Constructor("make_noisy_excess_sum", build_noisy_excess_sum,
                                    PRECONDITIONS, validate)

MECHANISMS = [Entry("make_noisy_excess_sum", make_noisy_excess_sum,
                    examples=(example("make_noisy_excess_sum(100, 120, 4.0)",
                                      "from shifted_sum_noise import make_noisy_excess_sum"),))]


def check() -> str:
    from mechanisms.make_bounded_int_sum import make_bounded_int_sum
    from mechanisms.make_discrete_laplace import make_discrete_laplace

    compared = 0
    for lower, upper, scale in ((100, 120, 4.0), (-9, -1, 0.5), (-3, 5, 2.0), (7, 7, 1.0)):
        m = make_noisy_excess_sum(lower, upper, scale)
        # the catalogue chain on the shifted rows, which lie in [0, upper - lower]
        chain = make_bounded_int_sum(0, upper - lower) >> make_discrete_laplace(scale)
        data = random.Random(lower)
        for seed in range(40):
            rows = [data.randint(lower, upper) for _ in range(data.randint(0, 8))]
            shifted = [x - lower for x in rows]
            assert m(rows, random.Random(seed)) == chain(shifted, random.Random(seed))
            compared += 1
        seen = []
        with draws_replaced(lambda law, p, rng: seen.append((law, p)) or 0):
            m.function([upper], None)
        assert seen == [("discrete Laplace", Fraction(scale))]
        for d_in in range(0, 12):
            assert m.map(d_in) == chain.map(d_in), d_in
    return (f"make_noisy_excess_sum equals make_bounded_int_sum(0, U - L) >> "
            f"make_discrete_laplace on the shifted rows in {compared} seeded runs; maps equal at "
            f"d_in = 0..11")
