"""``make_zcdp_range_count(low, high, sigma)``: how many rows fall in ``[low, high]``, with
discrete Gaussian noise (zCDP), written with a plain loop and helper functions.

Input domain ``VectorDomain(AtomDomain(int))`` under ``SymmetricDistance``; output
``AtomDomain(int)`` under ``ZeroConcentratedDivergence``. The function counts, in a ``for`` loop,
the rows with ``low <= x <= high`` and adds one draw of
``mechanisms.samplers.sample_discrete_gaussian`` of parameter ``sigma``. The count has
sensitivity 1, so the map is the discrete Gaussian's at a shift of ``d_in``:
``d_in -> d_in^2 / (2 sigma^2)``, computed exactly and rounded up (helper ``half_square_ratio``).

Preconditions: ``low <= high`` (ints); ``sigma`` a finite float ``> 0``.
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, IntBoundTypeError, ScaleError
from mechanisms.measures import ZeroConcentratedDivergence
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import draws_replaced, sample_discrete_gaussian, system_rng
from obligations.base import Entry, example


def in_range(x, low, high):
    """1 if ``low <= x <= high``, else 0."""
    return ops.bool_as(ops.all_of(ops.le(low, x), ops.le(x, high)), int)


def half_square_ratio(d_in, sigma):
    """``d_in^2 / (2 sigma^2)``, rounded up: rho of a shift of ``d_in``."""
    d, s = ops.exact(d_in), ops.exact(sigma)
    return div_up(d * d, 2 * s * s)


def build_zcdp_range_count(low: int, high: int, sigma: float) -> Measurement:
    def release(rows, rng=None):
        count = 0
        for x in rows:
            count += in_range(x, low, high)
        noise = sample_discrete_gaussian(Fraction(sigma), system_rng(rng))
        return count + noise

    return Measurement(VectorDomain(AtomDomain(int)), AtomDomain(int), SymmetricDistance(),
                       ZeroConcentratedDivergence(), release,
                       Map(rule=half_square_ratio, params={"sigma": sigma}))


def validate(low, high, sigma):
    if type(low) is not int or type(high) is not int:
        raise IntBoundTypeError(low, high)
    if type(sigma) is not float:
        raise ScaleError(sigma)


PRECONDITIONS = (
    Precondition("low <= high", lambda low, high, **_: ops.le(low, high),
                 lambda low, high, **_: BoundsOrderError(low, high)),
    Precondition("sigma is finite", lambda sigma, **_: ops.is_finite(sigma),
                 lambda sigma, **_: ScaleError(sigma)),
    Precondition("sigma > 0", lambda sigma, **_: ops.lt(0, sigma),
                 lambda sigma, **_: ScaleError(sigma)),
)

make_zcdp_range_count = Constructor("make_zcdp_range_count", build_zcdp_range_count,
                                    PRECONDITIONS, validate)

MECHANISMS = [Entry("make_zcdp_range_count", make_zcdp_range_count,
                    examples=(example("make_zcdp_range_count(20, 29, 3.0)",
                                      "from gaussian_range_count_loop import "
                                      "make_zcdp_range_count"),))]


def check() -> str:
    from mechanisms.make_gaussian import make_gaussian

    compared = 0
    for low, high, sigma in ((20, 29, 3.0), (0, 0, 0.5), (-5, 5, 10.0)):
        m = make_zcdp_range_count(low, high, sigma)
        noise = make_gaussian(sigma)
        data = random.Random(low + 1000)
        for seed in range(30):
            rows = [data.randint(-10, 40) for _ in range(data.randint(0, 9))]
            count = sum(1 for x in rows if low <= x <= high)
            assert m(rows, random.Random(seed)) == noise(count, random.Random(seed))
            compared += 1
        seen = []
        with draws_replaced(lambda law, p, rng: seen.append((law, p)) or 0):
            m.function([low], None)
        assert seen == [("discrete Gaussian", Fraction(sigma))]
        for d_in in range(0, 12):
            assert m.map(d_in) == noise.map(d_in), d_in
    return (f"make_zcdp_range_count equals make_gaussian(sigma) on the range count in "
            f"{compared} seeded runs; map equals make_gaussian(sigma).map at d_in = 0..11")
