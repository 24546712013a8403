"""make_dp_sum_count_approx(lower, upper, sigma, delta, count_scale): an (epsilon, delta) release
of a Gaussian-noised clamped int sum (zCDP, converted with ``make_zCDP_to_approxDP``) together
with a Laplace-noised count (pure DP, converted with ``make_pureDP_to_approxDP``), composed with
``make_approxDP_composition``. Only catalogue constructors; the map is the composition's.
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms.arith import add_up, div_up
from mechanisms.core import Constructor
from mechanisms.make_approxDP_composition import make_approxDP_composition
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_clamp import make_clamp
from mechanisms.make_count import make_count
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP
from mechanisms.make_zCDP_to_approxDP import approx_epsilon, make_zCDP_to_approxDP
from mechanisms.samplers import sample_discrete_gaussian, sample_discrete_laplace
from obligations.base import Entry


def build_dp_sum_count_approx(lower, upper, sigma, delta, count_scale):
    """((sum + discrete Gaussian) as (eps, delta), (count + discrete Laplace) as (eps, 0))."""
    gaussian_sum = make_zCDP_to_approxDP(
        make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper) >> make_gaussian(sigma),
        delta)
    laplace_count = make_pureDP_to_approxDP(make_count(int) >> make_discrete_laplace(count_scale))
    return make_approxDP_composition([gaussian_sum, laplace_count])


make_dp_sum_count_approx = Constructor("make_dp_sum_count_approx", build_dp_sum_count_approx)
MECHANISMS = [Entry("make_dp_sum_count_approx", make_dp_sum_count_approx)]


def check() -> str:
    m = make_dp_sum_count_approx(0, 10, 30.0, 1e-6, 4.0)
    data = [1, 2, 30, -4, 7]
    true_sum, true_count = 1 + 2 + 10 + 0 + 7, 5
    for seed in range(100):
        out = m(data, random.Random(seed))
        rng = random.Random(seed)
        expected = (true_sum + sample_discrete_gaussian(Fraction(30.0), rng),
                    true_count + sample_discrete_laplace(Fraction(4.0), rng))
        assert out == expected, (seed, out, expected)
    for d in (1, 3):
        rho = div_up(Fraction(d * 10) ** 2, 2 * Fraction(30.0) ** 2)
        eps_sum = approx_epsilon(rho, 1e-6)
        expected = (add_up(eps_sum, div_up(d, 4.0)), add_up(1e-6, 0))
        assert m.map(d) == expected, (d, m.map(d), expected)
    return ("100 seeded runs equal (sum + DG(30), count + DL(4)); map(d) = (eps_zCDP(rho) + d/4, "
            "1e-6) with rho = (10d)^2/(2*30^2), rounded up as the catalogue does, d in {1,3}")
