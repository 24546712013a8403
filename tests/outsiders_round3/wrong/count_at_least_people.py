"""``make_noisy_count_at_least(threshold, scale)``: how many rows are at least ``threshold``, with
discrete Laplace noise.

Input domain ``VectorDomain(AtomDomain(int))`` under ``SymmetricDistance``; output
``AtomDomain(int)`` under ``MaxDivergence``. The function releases
``#{x in rows : x >= threshold} + Y``, ``Y`` one draw of
``mechanisms.samplers.sample_discrete_laplace`` at ``scale``. Privacy map: the author counts
people rather than rows, ``d_in -> ceil(d_in / 2) / scale`` rounded up, reasoning that "one person
changing their row is two rows of symmetric distance, one out and one in, and moves the count
by at most 1".

Preconditions: ``threshold`` an ``int``; ``scale`` a finite float ``> 0``.

MISTAKE: symmetric distance ``d_in`` also covers ``d_in`` rows *added* (or removed), and each of
those moves the count by 1, so the map must be ``d_in / scale``. Halving the number of rows moved
is only right for replacement of one row by another; at ``d_in = 2`` two added rows at the
threshold cost ``2 / scale`` where the map claims ``1 / scale``.
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


def people_map(d_in, scale):
    """``ceil(d_in / 2) / scale`` rounded up: each person accounts for two rows of distance."""
    people = ops.floor_div(d_in + 1, 2)
    return div_up(people, scale)


def build_noisy_count_at_least(threshold: int, scale: float) -> Measurement:
    def release(rows, rng=None):
        count = sum(ops.bool_as(ops.le(threshold, x), int) for x in rows)
        return count + sample_discrete_laplace(Fraction(scale), system_rng(rng))

    return Measurement(VectorDomain(AtomDomain(int)), AtomDomain(int), SymmetricDistance(),
                       MaxDivergence(), release, Map(rule=people_map, params={"scale": scale}))


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

make_noisy_count_at_least = Constructor("make_noisy_count_at_least",
                                        build_noisy_count_at_least, PRECONDITIONS, validate)

MECHANISMS = [Entry("make_noisy_count_at_least", make_noisy_count_at_least,
                    examples=(example("make_noisy_count_at_least(18, 2.0)",
                                      "from count_at_least_people import "
                                      "make_noisy_count_at_least"),))]


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


def _reaching(m, rows, y, window=200):
    hits = [z for z in range(-window, window + 1) if _output_at(m, rows, z) == y]
    assert len(hits) == 1, hits  # count + z is strictly increasing in z
    return hits[0]


def witness() -> str:
    m = make_noisy_count_at_least(18, 2.0)
    v, w = [], [18, 18]
    d_in = SymmetricDistance().distance(v, w)
    assert d_in == 2
    (law, scale), = _draws(m, v)
    assert law == "discrete Laplace" and scale == 2 and _draws(m, w) == [(law, scale)]
    for rows, count in ((v, 0), (w, 2)):
        for seed in range(25):
            z = sample_discrete_laplace(scale, random.Random(seed))
            assert m(rows, random.Random(seed)) == count + z == _output_at(m, rows, z)
    y = 2
    z_v, z_w = _reaching(m, v, y), _reaching(m, w, y)
    loss = Fraction(abs(z_v) - abs(z_w)) / scale  # Pr[Y = z] ~ exp(-|z| / scale)
    claimed = m.map(d_in)
    assert loss == 1 and loss > Fraction(claimed), (loss, claimed)
    return (f"make_noisy_count_at_least(18, 2.0): [] vs [18, 18] (d_in = 2); "
            f"ln(Pr[M(w) = 2] / Pr[M([]) = 2]) = {loss} > map(2) = {claimed}")
