"""``make_dp_sum(lower, upper, epsilon)``: an epsilon-DP sum of integer rows clipped to
``[lower, upper]``, composed from catalogue constructors.

``make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper) >>
make_discrete_laplace(scale)``: input ``VectorDomain(AtomDomain(int))`` under
``SymmetricDistance``, output ``AtomDomain(int)`` under ``MaxDivergence``; the function is the
chain's, ``sum(clamp(x)) + Y`` with ``Y`` discrete Laplace of ``scale``. The author calibrates
``scale = (upper - lower) / epsilon`` and, so that users read their budget back directly,
replaces the chain's map by ``d_in -> d_in * epsilon`` (``dataclasses.replace``).

Preconditions: ``lower < upper`` (ints, a non-empty range, so the scale is positive) and
``epsilon`` a finite float ``> 0``, besides those of the composed constructors.

MISTAKE: ``upper - lower`` is the sensitivity of a sum over a dataset of *known size*
(one row replaced by another); under ``SymmetricDistance`` one row is added or removed and the
unsized sum moves by up to ``max(|lower|, |upper|)``, which is larger whenever both bounds have
the same sign. With ``[2, 10]`` and ``epsilon = 1`` the noise scale is 8 and one row of 10 costs
``10/8``, above the stated 1. The chain's own map would have said so.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from mechanisms import ops
from mechanisms.arith import mul_up
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.errors import BoundsOrderError, IntBoundTypeError, ScaleError
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_clamp import make_clamp
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import draws_replaced, sample_discrete_laplace
from obligations.base import Entry, example


def budget_map(d_in, epsilon):
    """``d_in * epsilon``, rounded up."""
    return mul_up(d_in, epsilon)


def build_dp_sum(lower: int, upper: int, epsilon: float) -> Measurement:
    chain = (make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper)
             >> make_discrete_laplace(float(upper - lower) / epsilon))
    return replace(chain, privacy_map=Map(rule=budget_map, params={"epsilon": epsilon}))


def validate(lower, upper, epsilon):
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)
    if type(epsilon) is not float:
        raise ScaleError(epsilon)


PRECONDITIONS = (
    Precondition("lower < upper", lambda lower, upper, **_: ops.lt(lower, upper),
                 lambda lower, upper, **_: BoundsOrderError(lower, upper)),
    Precondition("epsilon is finite", lambda epsilon, **_: ops.is_finite(epsilon),
                 lambda epsilon, **_: ScaleError(epsilon)),
    Precondition("epsilon > 0", lambda epsilon, **_: ops.lt(0, epsilon),
                 lambda epsilon, **_: ScaleError(epsilon)),
)

make_dp_sum = Constructor("make_dp_sum", build_dp_sum, PRECONDITIONS, validate)

MECHANISMS = [Entry("make_dp_sum", make_dp_sum,
                    examples=(example("make_dp_sum(0, 100, 1.0)",
                                      "from comp_sum_range_sensitivity import make_dp_sum"),))]


def _draws(m, rows):
    seen = []

    def record(law, parameter, rng):
        seen.append((law, parameter))
        return 0
    with draws_replaced(record):
        m.function(rows, None)
    return seen


def _output_at(m, rows, z):
    with draws_replaced(lambda law, parameter, rng: z):
        return m.function(rows, None)


def _reaching(m, rows, y, window=200):
    hits = [z for z in range(-window, window + 1) if _output_at(m, rows, z) == y]
    assert len(hits) == 1, hits
    return hits[0]


def witness() -> str:
    m = make_dp_sum(2, 10, 1.0)
    v, w = [], [10]
    d_in = SymmetricDistance().distance(v, w)
    assert d_in == 1
    (law, scale), = _draws(m, v)
    assert law == "discrete Laplace" and scale == 8 and _draws(m, w) == [(law, scale)]
    for rows, total in ((v, 0), (w, 10)):
        for seed in range(25):
            z = sample_discrete_laplace(scale, random.Random(seed))
            assert m(rows, random.Random(seed)) == total + z == _output_at(m, rows, z)
    y = 10
    z_v, z_w = _reaching(m, v, y), _reaching(m, w, y)
    loss = Fraction(abs(z_v) - abs(z_w)) / scale  # Pr[Y = z] ~ exp(-|z| / scale)
    claimed = m.map(d_in)
    assert loss == Fraction(5, 4) and loss > Fraction(claimed), (loss, claimed)
    return (f"make_dp_sum(2, 10, 1.0): [] vs [10] (d_in = 1), noise scale {scale}; "
            f"ln(Pr[M([10]) = 10] / Pr[M([]) = 10]) = {loss} > map(1) = {claimed}")
