"""``make_approx_dp_sum(lower, upper, sigma, delta)``: a clipped integer sum with discrete
Gaussian noise, reported as (epsilon, delta)-DP, composed from catalogue constructors.

``make_zCDP_to_approxDP(make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper) >>
make_gaussian(sigma), delta)``: input ``VectorDomain(AtomDomain(int))`` under
``SymmetricDistance``, output ``AtomDomain(int)`` under ``FixedSmoothedMaxDivergence``; the
function is ``sum(clamp(x)) + Y``, ``Y`` discrete Gaussian of parameter ``sigma``. Map: the
conversion's, ``d_in -> (rho + 2 sqrt(rho ln(1/delta)), delta)`` with
``rho = (d_in C)^2 / (2 sigma^2)``, ``C = max(|lower|, |upper|)``, each step rounded up.

Preconditions: those of the constructors it calls (``lower <= upper``; ``sigma`` a finite float
``>= 0``; ``0 < delta < 1``).
"""

from __future__ import annotations

import random

from mechanisms.core import Constructor, Measurement
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_clamp import make_clamp
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_zCDP_to_approxDP import make_zCDP_to_approxDP
from obligations.base import Entry, example


def build_approx_dp_sum(lower: int, upper: int, sigma: float, delta: float) -> Measurement:
    return make_zCDP_to_approxDP(
        make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper) >> make_gaussian(sigma),
        delta)


make_approx_dp_sum = Constructor("make_approx_dp_sum", build_approx_dp_sum)

MECHANISMS = [Entry("make_approx_dp_sum", make_approx_dp_sum,
                    examples=(example("make_approx_dp_sum(0, 10, 20.0, 1e-06)",
                                      "from comp_gaussian_sum_approx import make_approx_dp_sum"),))]


def check() -> str:
    compared = 0
    for lower, upper, sigma, delta in ((0, 10, 20.0, 1e-6), (-3, 4, 2.5, 0.01), (1, 1, 0.5, 0.5)):
        m = make_approx_dp_sum(lower, upper, sigma, delta)
        noise = make_gaussian(sigma)
        reference = make_zCDP_to_approxDP(noise, delta)  # the same conversion on the noise alone
        c = max(abs(lower), abs(upper))
        data = random.Random(int(sigma * 10))
        for seed in range(30):
            rows = [data.randint(-15, 15) for _ in range(data.randint(0, 8))]
            total = sum(min(max(x, lower), upper) for x in rows)
            assert m(rows, random.Random(seed)) == noise(total, random.Random(seed))
            compared += 1
        for d_in in range(0, 10):
            assert m.map(d_in) == reference.map(d_in * c), d_in
    return (f"make_approx_dp_sum equals make_gaussian(sigma) on the clipped sum in {compared} "
            f"seeded runs; map equals "
            f"make_zCDP_to_approxDP(make_gaussian(sigma), delta).map(d_in C)")
