"""make_dp_sum_and_count(lower, upper, sum_scale, count_scale): a DP mean's two parts, released
together with ``make_basic_composition``: a noisy clamped int sum and a noisy count of the same
int vector (the analyst divides them afterwards, post-processing).

Built only from catalogue constructors (clamp >> bounded int sum >> discrete Laplace, and
count >> discrete Laplace), composed by ``make_basic_composition``; the privacy map is the
composition's (the rounded-up sum of both maps). README's composition-of-proved-constructors case:
a straight-line build with a list literal.
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms.arith import add_up, div_up
from mechanisms.core import Constructor
from mechanisms.make_basic_composition import make_basic_composition
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_clamp import make_clamp
from mechanisms.make_count import make_count
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.samplers import sample_discrete_laplace
from obligations.base import Entry


def build_dp_sum_and_count(lower, upper, sum_scale, count_scale):
    """(noisy sum of the rows clamped to [lower, upper], noisy number of rows)."""
    noisy_sum = (make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper)
                 >> make_discrete_laplace(sum_scale))
    noisy_count = make_count(int) >> make_discrete_laplace(count_scale)
    return make_basic_composition([noisy_sum, noisy_count])


make_dp_sum_and_count = Constructor("make_dp_sum_and_count", build_dp_sum_and_count)
MECHANISMS = [Entry("make_dp_sum_and_count", make_dp_sum_and_count)]


def check() -> str:
    m = make_dp_sum_and_count(0, 50, 20.0, 2.0)
    data = [3, 77, -5, 12, 50, 49]
    true_sum, true_count = 3 + 50 + 0 + 12 + 50 + 49, 6
    for seed in range(200):
        out = m(data, random.Random(seed))
        rng = random.Random(seed)  # the components draw in order from the shared source
        expected = (true_sum + sample_discrete_laplace(Fraction(20.0), rng),
                    true_count + sample_discrete_laplace(Fraction(2.0), rng))
        assert out == expected, (seed, out, expected)
    for d in (1, 2, 5):
        expected_map = add_up(div_up(d * 50, 20.0), div_up(d, 2.0))
        assert m.map(d) == expected_map, (d, m.map(d), expected_map)
    assert m.map(0) == 0
    return ("200 seeded runs equal (clamped sum + DL(20), count + DL(2)) drawn in order; "
            "map(d) = add_up(d*50/20, d/2) for d in {1,2,5}, map(0) = 0")
