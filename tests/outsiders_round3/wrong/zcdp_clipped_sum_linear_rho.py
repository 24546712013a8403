"""``make_zcdp_clipped_sum(lower, upper, sigma)``: a sum of rows clipped to ``[lower, upper]``,
with discrete Gaussian noise, under zero-concentrated DP.

Input domain ``VectorDomain(AtomDomain(int))`` (rows of any value) under ``SymmetricDistance``;
output ``AtomDomain(int)`` under ``ZeroConcentratedDivergence``. The function clips every row to
``[lower, upper]``, sums, and adds one draw of ``mechanisms.samplers.sample_discrete_gaussian`` of
parameter ``sigma``. One row moves the clipped sum by at most ``C = max(|lower|, |upper|)``.
Stated map ``d_in -> d_in * C^2 / (2 sigma^2)``, rounded up.

Preconditions: ``lower <= upper`` (ints), ``sigma`` a finite float ``> 0``.

MISTAKE: rho is computed with the wrong power of ``d_in``. The discrete Gaussian of parameter
``sigma`` is ``Delta^2 / (2 sigma^2)``-zCDP for a shift of ``Delta``, and ``d_in`` rows shift the
sum by up to ``d_in * C``, so rho is ``(d_in * C)^2 / (2 sigma^2)``; the code scales rho linearly
in ``d_in``, as one would an epsilon. It is right at ``d_in = 1`` only: at ``d_in = 2`` the true
rho is twice the stated one.
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


def clip(x, lower, upper):
    return ops.maximum(ops.minimum(x, upper), lower)


def rho_map(d_in, bound, sigma):
    """``d_in * bound^2 / (2 sigma^2)``, rounded up."""
    s = ops.exact(sigma)
    return div_up(ops.exact(d_in) * bound * bound, 2 * s * s)


def build_zcdp_clipped_sum(lower: int, upper: int, sigma: float) -> Measurement:
    def release(rows, rng=None):
        total = sum(clip(x, lower, upper) for x in rows)
        return total + sample_discrete_gaussian(Fraction(sigma), system_rng(rng))

    bound = ops.maximum(ops.absolute(lower), ops.absolute(upper))
    return Measurement(VectorDomain(AtomDomain(int)), AtomDomain(int), SymmetricDistance(),
                       ZeroConcentratedDivergence(), release,
                       Map(rule=rho_map, params={"bound": bound, "sigma": sigma}))


def validate(lower, upper, sigma):
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)
    if type(sigma) is not float:
        raise ScaleError(sigma)


PRECONDITIONS = (
    Precondition("lower <= upper", lambda lower, upper, **_: ops.le(lower, upper),
                 lambda lower, upper, **_: BoundsOrderError(lower, upper)),
    Precondition("sigma is finite", lambda sigma, **_: ops.is_finite(sigma),
                 lambda sigma, **_: ScaleError(sigma)),
    Precondition("sigma > 0", lambda sigma, **_: ops.lt(0, sigma),
                 lambda sigma, **_: ScaleError(sigma)),
)

make_zcdp_clipped_sum = Constructor("make_zcdp_clipped_sum", build_zcdp_clipped_sum,
                                    PRECONDITIONS, validate)

MECHANISMS = [Entry("make_zcdp_clipped_sum", make_zcdp_clipped_sum,
                    examples=(example("make_zcdp_clipped_sum(0, 5, 10.0)",
                                      "from zcdp_clipped_sum_linear_rho import "
                                      "make_zcdp_clipped_sum"),))]


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


def _exponent(z, centre, sigma):
    """``-(z - centre)^2 / (2 sigma^2)``: the discrete Gaussian's log-pmf at ``z`` up to the
    normaliser, which does not depend on an integer centre."""
    return -Fraction((z - centre) ** 2) / (2 * sigma * sigma)


def witness() -> str:
    m = make_zcdp_clipped_sum(0, 5, 10.0)
    v, w = [], [5, 5]
    d_in = SymmetricDistance().distance(v, w)
    assert d_in == 2
    (law, sigma), = _draws(m, v)
    assert law == "discrete Gaussian" and sigma == 10 and _draws(m, w) == [(law, sigma)]
    for rows, total in ((v, 0), (w, 10)):
        for seed in range(20):
            z = sample_discrete_gaussian(sigma, random.Random(seed))
            assert m(rows, random.Random(seed)) == total + z == _output_at(m, rows, z)
        for z in range(-60, 61):
            assert _output_at(m, rows, z) == total + z
    # M(w) = N_Z(10, sigma^2), M(v) = N_Z(0, sigma^2). The Renyi divergence of order 2 is
    # ln sum_y P(y)^2 / Q(y). Exponent by exponent (exact rationals), P(y)^2 / Q(y) equals
    # exp(delta^2 / sigma^2) times the pmf of N_Z(2*10 - 0, sigma^2) at y; an integer centre
    # keeps the same normaliser, so that pmf sums to 1 and D_2 = delta^2 / sigma^2 exactly.
    mu, nu, delta = 10, 0, 10
    for y in range(-200, 201):
        lhs = 2 * _exponent(y, mu, sigma) - _exponent(y, nu, sigma)
        assert lhs == Fraction(delta * delta) / (sigma * sigma) + _exponent(y, 2 * mu - nu, sigma)
    d2 = Fraction(delta * delta) / (sigma * sigma)
    rho_needed = d2 / 2  # rho-zCDP demands D_2 <= 2 rho
    claimed = m.map(d_in)
    assert rho_needed == Fraction(1, 2) and rho_needed > Fraction(claimed), (rho_needed, claimed)
    return (f"make_zcdp_clipped_sum(0, 5, 10.0): [] vs [5, 5] (d_in = 2); D_2 = {d2} exactly, "
            f"so rho >= {rho_needed} > map(2) = {claimed}")
