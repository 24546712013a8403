"""``make_adult_count(threshold, scale)``: how many rows are at least ``threshold`` (ages 18 and
over, say), with discrete Laplace noise, floored at zero.

Input domain ``VectorDomain(AtomDomain(int))`` under ``SymmetricDistance``; output
``AtomDomain(int)`` under ``MaxDivergence`` (the release is never negative, but a domain with
only a lower bound cannot be written, so the output domain is all ints). The function
releases ``max(count + Y, 0)`` with ``count = #{x in rows : x >= threshold}`` and ``Y`` one draw
of ``mechanisms.samplers.sample_discrete_laplace`` at ``scale``. The count moves by at most 1
per added or removed row, and ``max(., 0)`` reads no data (post-processing): map
``d_in -> d_in / scale``, rounded up.

Preconditions: ``threshold`` an ``int``; ``scale`` a finite float ``> 0``.
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import ConstructorError, ScaleError
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import draws_replaced, sample_discrete_laplace, system_rng
from obligations.base import Entry, example


def counts(x, threshold):
    """1 when the row is at least the threshold, else 0."""
    return ops.bool_as(ops.le(threshold, x), int)


def unit_map(d_in, scale):
    return div_up(d_in, scale)


def build_adult_count(threshold: int, scale: float) -> Measurement:
    def release(rows, rng=None):
        count = 0
        for x in rows:
            count = count + counts(x, threshold)
        noisy = count + sample_discrete_laplace(Fraction(scale), system_rng(rng))
        return ops.maximum(noisy, 0)

    return Measurement(VectorDomain(AtomDomain(int)), AtomDomain(int), SymmetricDistance(),
                       MaxDivergence(), release, Map(rule=unit_map, params={"scale": scale}))


def validate(threshold, scale):
    if type(threshold) is not int:
        raise ConstructorError(f"threshold must be an int, got {threshold!r}",
                               threshold=threshold)
    if type(scale) is not float:
        raise ScaleError(scale)


PRECONDITIONS = (
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("scale > 0", lambda scale, **_: ops.lt(0, scale),
                 lambda scale, **_: ScaleError(scale)),
)

make_adult_count = Constructor("make_adult_count", build_adult_count, PRECONDITIONS, validate)

MECHANISMS = [Entry("make_adult_count", make_adult_count,
                    examples=(example("make_adult_count(18, 1.5)",
                                      "from count_at_least_floor_zero import make_adult_count"),))]


def check() -> str:
    from mechanisms.make_discrete_laplace import make_discrete_laplace

    compared = 0
    for threshold, scale in ((18, 1.5), (0, 0.25), (-3, 7.0)):
        m = make_adult_count(threshold, scale)
        noise = make_discrete_laplace(scale)
        data = random.Random(threshold)
        for seed in range(50):
            rows = [data.randint(-10, 40) for _ in range(data.randint(0, 9))]
            count = len([x for x in rows if x >= threshold])
            expected = max(noise(count, random.Random(seed)), 0)
            assert m(rows, random.Random(seed)) == expected
            compared += 1
        seen = []
        with draws_replaced(lambda law, p, rng: seen.append((law, p)) or 0):
            m.function([threshold], None)
        assert seen == [("discrete Laplace", Fraction(scale))]
        for d_in in range(0, 12):
            assert m.map(d_in) == noise.map(d_in)  # sensitivity 1
    return (f"make_adult_count equals max(make_discrete_laplace(scale)(count), 0) on {compared} "
            f"seeded runs; map equals make_discrete_laplace(scale).map at d_in = 0..11")
