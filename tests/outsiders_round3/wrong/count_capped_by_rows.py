"""``make_sane_noisy_count(scale)``: the number of rows with discrete Laplace noise, post-processed
into the range a count can take.

Input domain ``VectorDomain(AtomDomain(int))`` under ``SymmetricDistance``; output
``AtomDomain(int)`` under ``MaxDivergence``. The function draws ``Y`` from
``mechanisms.samplers.sample_discrete_laplace`` at ``scale`` and releases
``min(max(len(rows) + Y, 0), len(rows))``: "a count is never negative and never more than the
number of rows". Map ``d_in -> d_in / scale`` rounded up (the count's sensitivity is 1, and the
clamping is meant as post-processing).

Precondition: ``scale`` a finite float ``> 0``.

MISTAKE: the upper clamp reads the data (``len(rows)``), so it is not post-processing. On the
empty dataset the release is always 0, while on ``[1]`` it is 1 with probability
``Pr[Y >= 0] > 0``: the privacy loss at output 1 is infinite. (``max(., 0)`` alone would be
fine; an upper cap must be a public constant.)
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import ScaleError
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import draws_replaced, sample_discrete_laplace, system_rng
from obligations.base import Entry, example


def count_map(d_in, scale):
    return div_up(d_in, scale)


def build_sane_noisy_count(scale: float) -> Measurement:
    def release(rows, rng=None):
        n = len(rows)
        noisy = n + sample_discrete_laplace(Fraction(scale), system_rng(rng))
        return ops.minimum(ops.maximum(noisy, 0), n)

    return Measurement(VectorDomain(AtomDomain(int)), AtomDomain(int), SymmetricDistance(),
                       MaxDivergence(), release, Map(rule=count_map, params={"scale": scale}))


def validate(scale):
    if type(scale) is not float:
        raise ScaleError(scale)


PRECONDITIONS = (
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("scale > 0", lambda scale, **_: ops.lt(0, scale),
                 lambda scale, **_: ScaleError(scale)),
)

make_sane_noisy_count = Constructor("make_sane_noisy_count", build_sane_noisy_count,
                                    PRECONDITIONS, validate)

MECHANISMS = [Entry("make_sane_noisy_count", make_sane_noisy_count,
                    examples=(example("make_sane_noisy_count(1.0)",
                                      "from count_capped_by_rows import make_sane_noisy_count"),))]


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


def witness() -> str:
    m = make_sane_noisy_count(1.0)
    v, w = [], [1]
    d_in = SymmetricDistance().distance(v, w)
    assert d_in == 1
    (law, scale), = _draws(m, v)
    assert law == "discrete Laplace" and scale == 1 and _draws(m, w) == [(law, scale)]

    def h(n, z):  # the release as a function of the row count and the draw
        return min(max(n + z, 0), n)
    for rows in (v, w):
        for seed in range(25):
            z = sample_discrete_laplace(scale, random.Random(seed))
            assert m(rows, random.Random(seed)) == h(len(rows), z) == _output_at(m, rows, z)
        for z in range(-100, 101):
            assert _output_at(m, rows, z) == h(len(rows), z)
    # On []: h(0, z) = min(max(z, 0), 0) = 0 for every integer z, so Pr[M([]) = 1] = 0.
    # On [1]: h(1, z) = 1 exactly when z >= 0, so Pr[M([1]) = 1] = Pr[Y >= 0] >= Pr[Y = 0] > 0.
    assert all(_output_at(m, v, z) == 0 for z in range(-1000, 1001))
    assert _output_at(m, w, 0) == 1
    loss = math.inf  # ln(positive / 0)
    claimed = m.map(d_in)
    assert loss > claimed
    return (f"make_sane_noisy_count(1.0): [] vs [1] (d_in = 1); Pr[M([]) = 1] = 0 < "
            f"Pr[M([1]) = 1] = Pr[Y >= 0]: loss inf > map(1) = {claimed}")
