"""``make_resized_noisy_sum(size, lower, upper, scale)``: a noisy sum over a public number of
rows ``size``, composed from catalogue constructors with the chain's own map.

``make_clamp(lower, upper) >> make_resize(size, lower, AtomDomain(int, bounds=(lower, upper)))
>> make_sized_bounded_int_sum(size, lower, upper) >> make_discrete_laplace(scale)``: input
``VectorDomain(AtomDomain(int))`` under ``SymmetricDistance``, output ``AtomDomain(int)`` under
``MaxDivergence``. Rows are clipped, the dataset is cut to its ``size`` least rows or padded with
``lower``, summed, and one discrete Laplace draw of ``scale`` is added. Map: the chain's,
``d_in -> (2 d_in // 2) (upper - lower) / scale = d_in (upper - lower) / scale`` rounded up
(resize is 2-stable; the sized sum pays ``upper - lower`` per substitution), which for bounds of
one sign is smaller than an unsized sum's ``max(|lower|, |upper|)``.

Preconditions: those of the constructors it calls (``lower <= upper``, ints; ``size >= 1``;
``scale`` a finite float ``>= 0``).
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms.arith import div_up
from mechanisms.core import Constructor, Measurement
from mechanisms.domains import AtomDomain
from mechanisms.make_clamp import make_clamp
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_resize import make_resize
from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum
from mechanisms.samplers import sample_discrete_laplace
from obligations.base import Entry, example


def build_resized_noisy_sum(size: int, lower: int, upper: int, scale: float) -> Measurement:
    return (make_clamp(lower, upper)
            >> make_resize(size, lower, AtomDomain(int, bounds=(lower, upper)))
            >> make_sized_bounded_int_sum(size, lower, upper)
            >> make_discrete_laplace(scale))


make_resized_noisy_sum = Constructor("make_resized_noisy_sum", build_resized_noisy_sum)

MECHANISMS = [Entry("make_resized_noisy_sum", make_resized_noisy_sum,
                    examples=(example("make_resized_noisy_sum(5, 100, 120, 4.0)",
                                      "from comp_fixed_size_sum import make_resized_noisy_sum"),))]


def check() -> str:
    compared = 0
    for size, lower, upper, scale in ((5, 100, 120, 4.0), (3, -4, 6, 1.0), (1, 0, 9, 0.5)):
        m = make_resized_noisy_sum(size, lower, upper, scale)
        data = random.Random(size)
        for seed in range(40):
            rows = [data.randint(lower - 10, upper + 10) for _ in range(data.randint(0, 9))]
            clipped = sorted(min(max(x, lower), upper) for x in rows)
            resized = clipped[:size] + [lower] * max(size - len(clipped), 0)
            z = sample_discrete_laplace(Fraction(scale), random.Random(seed))
            assert m(rows, random.Random(seed)) == sum(resized) + z
            compared += 1
        assert m.map(0) == 0
        for d_in in range(1, 12):
            assert m.map(d_in) == div_up(d_in * (upper - lower), scale), d_in
    return (f"make_resized_noisy_sum: sum of the clipped, resized rows + discrete Laplace on "
            f"{compared} seeded runs; map = d_in (U - L) / scale rounded up, d_in = 0..11")
