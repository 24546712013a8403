"""``make_weighted_count(threshold, scale)``: a weighted row count, rows at or above ``threshold``
counting twice, with discrete Laplace noise.

Input domain ``VectorDomain(AtomDomain(int))`` under ``SymmetricDistance``; output
``AtomDomain(int)`` under ``MaxDivergence``. The statistic is the linear combination
``2 * #{x >= threshold} + #{x < threshold}`` (every row weighs 1 or 2), released as
``statistic + Y`` with ``Y`` one draw of ``mechanisms.samplers.sample_discrete_laplace`` at
``scale``. One row moves the statistic by at most 2: map ``d_in -> 2 d_in / scale``.

Preconditions: ``threshold`` an ``int``; ``scale`` a finite float ``> 0``.

MISTAKE: the map is computed as ``d_in * 2 / scale`` in plain floating point, which rounds to
nearest; the privacy map has to be an upper bound, so it must round up (``div_up``). At
``scale = 3.0`` it returns ``0.6666666666666666``, below the exact loss ``2/3`` of one row at
the threshold.
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import ConstructorError, ScaleError
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import draws_replaced, sample_discrete_laplace, system_rng
from obligations.base import Entry, example


def weight(x, threshold):
    """2 for a row at or above the threshold, else 1."""
    return 1 + ops.bool_as(ops.le(threshold, x), int)


def weighted_map(d_in, scale):
    return d_in * 2 / scale


def build_weighted_count(threshold: int, scale: float) -> Measurement:
    def release(rows, rng=None):
        statistic = sum(weight(x, threshold) for x in rows)
        return statistic + sample_discrete_laplace(Fraction(scale), system_rng(rng))

    return Measurement(VectorDomain(AtomDomain(int)), AtomDomain(int), SymmetricDistance(),
                       MaxDivergence(), release, Map(rule=weighted_map, params={"scale": scale}))


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

make_weighted_count = Constructor("make_weighted_count", build_weighted_count, PRECONDITIONS,
                                  validate)

MECHANISMS = [Entry("make_weighted_count", make_weighted_count,
                    examples=(example("make_weighted_count(65, 3.0)",
                                      "from weighted_count_float_map import "
                                      "make_weighted_count"),))]


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
    assert len(hits) == 1, hits
    return hits[0]


def witness() -> str:
    m = make_weighted_count(65, 3.0)
    v, w = [], [65]
    d_in = SymmetricDistance().distance(v, w)
    assert d_in == 1
    (law, scale), = _draws(m, v)
    assert law == "discrete Laplace" and scale == 3 and _draws(m, w) == [(law, scale)]
    for rows, statistic in ((v, 0), (w, 2)):
        for seed in range(25):
            z = sample_discrete_laplace(scale, random.Random(seed))
            assert m(rows, random.Random(seed)) == statistic + z == _output_at(m, rows, z)
    y = 2
    z_v, z_w = _reaching(m, v, y), _reaching(m, w, y)
    loss = Fraction(abs(z_v) - abs(z_w)) / scale  # Pr[Y = z] ~ exp(-|z| / scale)
    claimed = m.map(d_in)
    assert loss == Fraction(2, 3) and Fraction(claimed) < loss, (loss, claimed)
    return (f"make_weighted_count(65, 3.0): [] vs [65] (d_in = 1); exact loss {loss} > "
            f"map(1) = {claimed!r} = {Fraction(claimed)} (rounded to nearest, below 2/3)")
