"""``make_bounded_noisy_count(scale, max_count)``: the number of rows with discrete Laplace noise,
released within ``[0, max_count]``, composed from catalogue constructors.

``make_count(int) >> make_geometric(scale, (0, max_count))``: input
``VectorDomain(AtomDomain(int))`` under ``SymmetricDistance``, output
``AtomDomain(int, bounds=(0, max_count))`` under ``MaxDivergence``; the function is
``clamp(clamp(len(rows)) + Y)`` to ``[0, max_count]`` with ``Y`` discrete Laplace of ``scale``.
The cap is a public constant, so the clamps are a 1-Lipschitz input map and a post-processing;
map: the chain's, ``d_in -> d_in / scale`` rounded up.

Preconditions: those of the constructors it calls (``scale`` a finite float ``>= 0``;
``0 <= max_count``, an int, by ``make_geometric``'s ``lower <= upper``).
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms.core import Constructor, Measurement
from mechanisms.make_count import make_count
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_geometric import make_geometric
from mechanisms.samplers import sample_discrete_laplace
from obligations.base import Entry, example


def build_bounded_noisy_count(scale: float, max_count: int) -> Measurement:
    return make_count(int) >> make_geometric(scale, (0, max_count))


make_bounded_noisy_count = Constructor("make_bounded_noisy_count", build_bounded_noisy_count)

MECHANISMS = [Entry("make_bounded_noisy_count", make_bounded_noisy_count,
                    examples=(example("make_bounded_noisy_count(2.0, 1000)",
                                      "from comp_bounded_noisy_count import "
                                      "make_bounded_noisy_count"),))]


def check() -> str:
    compared = 0
    for scale, cap in ((2.0, 1000), (1.0, 3), (0.5, 0)):
        m = make_bounded_noisy_count(scale, cap)
        data = random.Random(cap)
        for seed in range(50):
            rows = [data.randint(-5, 5) for _ in range(data.randint(0, 7))]
            z = sample_discrete_laplace(Fraction(scale), random.Random(seed))
            inner = min(max(len(rows), 0), cap)
            out = m(rows, random.Random(seed))
            assert out == min(max(inner + z, 0), cap)
            assert m.output_domain.member(out)
            compared += 1
        for d_in in range(0, 12):
            assert m.map(d_in) == make_discrete_laplace(scale).map(d_in)
    return (f"make_bounded_noisy_count: clamp(clamp(n) + Y) within [0, cap] on {compared} seeded "
            f"runs; map equals make_discrete_laplace(scale).map at d_in = 0..11")
