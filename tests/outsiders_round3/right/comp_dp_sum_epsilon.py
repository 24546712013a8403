"""``make_dp_clipped_sum(lower, upper, epsilon)``: an epsilon-DP sum of integer rows clipped to
``[lower, upper]``, composed from catalogue constructors and calibrated from a budget.

``make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper) >>
make_discrete_laplace(float(max(|lower|, |upper|)) / epsilon)``: input
``VectorDomain(AtomDomain(int))`` under ``SymmetricDistance``, output ``AtomDomain(int)`` under
``MaxDivergence``; the function is ``sum(clamp(x)) + Y``, ``Y`` discrete Laplace of scale
``C / epsilon`` with ``C = max(|lower|, |upper|)``. The privacy map is the chain's own,
``d_in -> d_in * C / scale`` rounded up, which is ``d_in * epsilon`` up to the rounding of the
scale (it is not replaced by a claim of the author's). The build is straight-line: it passes its
arguments through ``abs``, ``max``, ``float`` and ``/`` into the constructors and ``>>``.

Preconditions: those of the constructors it calls, and ``epsilon`` a finite float ``> 0``.
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Measurement, Precondition
from mechanisms.errors import ScaleError
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_clamp import make_clamp
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.samplers import sample_discrete_laplace
from obligations.base import Entry, example


def build_dp_clipped_sum(lower: int, upper: int, epsilon: float) -> Measurement:
    return (make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper)
            >> make_discrete_laplace(float(max(abs(lower), abs(upper))) / epsilon))


def validate(lower, upper, epsilon):
    if type(epsilon) is not float:
        raise ScaleError(epsilon)


PRECONDITIONS = (
    Precondition("epsilon is finite", lambda epsilon, **_: ops.is_finite(epsilon),
                 lambda epsilon, **_: ScaleError(epsilon)),
    Precondition("epsilon > 0", lambda epsilon, **_: ops.lt(0, epsilon),
                 lambda epsilon, **_: ScaleError(epsilon)),
)

make_dp_clipped_sum = Constructor("make_dp_clipped_sum", build_dp_clipped_sum, PRECONDITIONS,
                                  validate)

MECHANISMS = [Entry("make_dp_clipped_sum", make_dp_clipped_sum,
                    examples=(example("make_dp_clipped_sum(2, 10, 1.0)",
                                      "from comp_dp_sum_epsilon import make_dp_clipped_sum"),))]


def check() -> str:
    compared = 0
    for lower, upper, epsilon in ((2, 10, 1.0), (-5, 3, 0.1), (0, 1, 2.0), (-8, -8, 0.5)):
        m = make_dp_clipped_sum(lower, upper, epsilon)
        c = max(abs(lower), abs(upper))
        scale = c / epsilon
        data = random.Random(upper)
        for seed in range(40):
            rows = [data.randint(-20, 20) for _ in range(data.randint(0, 8))]
            total = sum(min(max(x, lower), upper) for x in rows)
            z = sample_discrete_laplace(Fraction(scale), random.Random(seed))
            assert m(rows, random.Random(seed)) == total + z
            compared += 1
        assert m.map(0) == 0
        for d_in in range(1, 12):
            assert m.map(d_in) == div_up(d_in * c, scale)
            assert abs(Fraction(m.map(d_in)) - d_in * Fraction(epsilon)) <= \
                Fraction(d_in * epsilon) * Fraction(1, 2 ** 50)
    return (f"make_dp_clipped_sum: sum(clamp) + discrete Laplace(C / epsilon) on {compared} "
            f"seeded runs; map = d_in * C / scale rounded up, within 2^-50 of d_in * epsilon")
