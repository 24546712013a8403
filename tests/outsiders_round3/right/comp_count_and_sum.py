"""``make_noisy_count_and_sum(lower, upper, count_scale, sum_scale)``: a noisy row count and a
noisy clipped sum of the same rows, released together, composed from catalogue constructors.

``make_basic_composition([make_count(int) >> make_discrete_laplace(count_scale),
make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper) >>
make_discrete_laplace(sum_scale)])``: input ``VectorDomain(AtomDomain(int))`` under
``SymmetricDistance``, output a pair of ints (``ProductDomain``) under ``MaxDivergence``; the
function is ``(len(rows) + Y1, sum(clamp(x)) + Y2)`` with independent discrete Laplace draws
taken in that order from one random source. Map: the composition's, the sum of the two maps,
``d_in / count_scale + d_in C / sum_scale`` (``C = max(|lower|, |upper|)``), each step rounded
up: both queries read every row, so their losses add.

Preconditions: those of the constructors it calls.
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.make_basic_composition import make_basic_composition
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_clamp import make_clamp
from mechanisms.make_count import make_count
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.samplers import sample_discrete_laplace
from obligations.base import Entry, example


def build_noisy_count_and_sum(lower: int, upper: int, count_scale: float,
                              sum_scale: float) -> Measurement:
    return make_basic_composition([
        make_count(int) >> make_discrete_laplace(count_scale),
        make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper)
        >> make_discrete_laplace(sum_scale),
    ])


make_noisy_count_and_sum = Constructor("make_noisy_count_and_sum", build_noisy_count_and_sum)

MECHANISMS = [Entry("make_noisy_count_and_sum", make_noisy_count_and_sum,
                    examples=(example("make_noisy_count_and_sum(0, 10, 2.0, 20.0)",
                                      "from comp_count_and_sum import make_noisy_count_and_sum"),))]


def check() -> str:
    compared = 0
    for lower, upper, s1, s2 in ((0, 10, 2.0, 20.0), (-6, 2, 1.0, 3.0), (5, 9, 0.5, 0.25)):
        m = make_noisy_count_and_sum(lower, upper, s1, s2)
        c = max(abs(lower), abs(upper))
        count_noise, sum_noise = make_discrete_laplace(s1), make_discrete_laplace(s2)
        data = random.Random(upper * 7)
        for seed in range(40):
            rows = [data.randint(-20, 20) for _ in range(data.randint(0, 8))]
            rng = random.Random(seed)
            z1 = sample_discrete_laplace(Fraction(s1), rng)
            z2 = sample_discrete_laplace(Fraction(s2), rng)
            total = sum(min(max(x, lower), upper) for x in rows)
            assert m(rows, random.Random(seed)) == (len(rows) + z1, total + z2)
            compared += 1
        for d_in in range(0, 12):
            assert m.map(d_in) == ops.add_up(count_noise.map(d_in), sum_noise.map(d_in * c))
    return (f"make_noisy_count_and_sum: (count + Y1, clipped sum + Y2) from one seeded source on "
            f"{compared} runs; map = count map + sum map (rounded up) at d_in = 0..11")
