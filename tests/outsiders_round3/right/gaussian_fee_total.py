"""``make_zcdp_fee_total(base, cap, sigma)``: the total billed to all rows, each row paying a fixed
``base`` fee plus its own amount clipped to ``[0, cap]``, with discrete Gaussian noise (zCDP).

Input domain ``VectorDomain(AtomDomain(int))`` (amounts of any value) under
``SymmetricDistance``; output ``AtomDomain(int)`` under ``ZeroConcentratedDivergence``. The
statistic is the linear combination ``base * len(rows) + sum(clip(x, 0, cap))``; every row
contributes between ``base`` and ``base + cap``, so one added or removed row moves it by at most
``Delta = base + cap`` (a sensitivity other than a plain sum's). The release is
``statistic + Y`` with ``Y`` one draw of ``mechanisms.samplers.sample_discrete_gaussian`` of
parameter ``sigma``; the discrete Gaussian is ``(shift)^2 / (2 sigma^2)``-zCDP (CKS 2020,
Theorem 4): map ``d_in -> (d_in * Delta)^2 / (2 sigma^2)``, computed exactly and rounded up.

Preconditions: ``base >= 0``, ``cap >= 0`` (ints); ``sigma`` a finite float ``> 0``.
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import ConstructorError, ScaleError
from mechanisms.measures import ZeroConcentratedDivergence
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import draws_replaced, sample_discrete_gaussian, system_rng
from obligations.base import Entry, example


def fee_rho(d_in, delta, sigma):
    """``(d_in * delta)^2 / (2 sigma^2)``, rounded up."""
    shift = ops.exact(d_in) * delta
    s = ops.exact(sigma)
    return div_up(shift * shift, 2 * s * s)


def build_zcdp_fee_total(base: int, cap: int, sigma: float) -> Measurement:
    def release(rows, rng=None):
        amounts = sum(ops.maximum(ops.minimum(x, cap), 0) for x in rows)
        statistic = base * len(rows) + amounts
        return statistic + sample_discrete_gaussian(Fraction(sigma), system_rng(rng))

    return Measurement(VectorDomain(AtomDomain(int)), AtomDomain(int), SymmetricDistance(),
                       ZeroConcentratedDivergence(), release,
                       Map(rule=fee_rho, params={"delta": base + cap, "sigma": sigma}))


def validate(base, cap, sigma):
    if type(base) is not int or type(cap) is not int:
        raise ConstructorError(f"base and cap must be ints, got {base!r} and {cap!r}",
                               base=base, cap=cap)
    if type(sigma) is not float:
        raise ScaleError(sigma)


PRECONDITIONS = (
    Precondition("base >= 0", lambda base, **_: ops.le(0, base),
                 lambda base, **_: ConstructorError(f"base must be >= 0, got {base!r}",
                                                    base=base)),
    Precondition("cap >= 0", lambda cap, **_: ops.le(0, cap),
                 lambda cap, **_: ConstructorError(f"cap must be >= 0, got {cap!r}", cap=cap)),
    Precondition("sigma is finite", lambda sigma, **_: ops.is_finite(sigma),
                 lambda sigma, **_: ScaleError(sigma)),
    Precondition("sigma > 0", lambda sigma, **_: ops.lt(0, sigma),
                 lambda sigma, **_: ScaleError(sigma)),
)

make_zcdp_fee_total = Constructor("make_zcdp_fee_total", build_zcdp_fee_total, PRECONDITIONS,
                                  validate)

MECHANISMS = [Entry("make_zcdp_fee_total", make_zcdp_fee_total,
                    examples=(example("make_zcdp_fee_total(3, 20, 12.0)",
                                      "from gaussian_fee_total import make_zcdp_fee_total"),))]


def check() -> str:
    from mechanisms.make_gaussian import make_gaussian

    compared = 0
    for base, cap, sigma in ((3, 20, 12.0), (0, 5, 2.5), (4, 0, 1.0)):
        m = make_zcdp_fee_total(base, cap, sigma)
        noise = make_gaussian(sigma)
        data = random.Random(base * 100 + cap)
        for seed in range(30):
            rows = [data.randint(-15, 40) for _ in range(data.randint(0, 7))]
            statistic = sum(base + min(max(x, 0), cap) for x in rows)
            assert m(rows, random.Random(seed)) == noise(statistic, random.Random(seed))
            compared += 1
        seen = []
        with draws_replaced(lambda law, p, rng: seen.append((law, p)) or 0):
            m.function([1], None)
        assert seen == [("discrete Gaussian", Fraction(sigma))]
        # per-row contribution is in [base, base + cap]: shift d_in * (base + cap)
        for d_in in range(0, 10):
            assert m.map(d_in) == noise.map(d_in * (base + cap)), d_in
    return (f"make_zcdp_fee_total equals make_gaussian(sigma) on the statistic in {compared} "
            f"seeded runs; map equals make_gaussian(sigma).map(d_in * (base + cap)), d_in = 0..9")
