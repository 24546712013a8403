"""``make_truncated_noisy_sum(max_rows, upper, scale)``: a noisy sum over at most ``max_rows``
rows of values in ``[0, upper]``, for bounded running time on large inputs.

Input domain ``VectorDomain(AtomDomain(int, bounds=(0, upper)))`` under ``SymmetricDistance``;
output ``AtomDomain(int)`` under ``MaxDivergence``. The function sums the first ``max_rows``
rows, ``sum(rows[:max_rows])``, and adds one draw of
``mechanisms.samplers.sample_discrete_laplace`` at ``scale``. One added or removed row changes
which rows are kept by at most one, and a kept row weighs at most ``upper``: map
``d_in -> d_in * upper / scale``, rounded up.

Preconditions: ``max_rows >= 1``, ``upper >= 0`` (ints); ``scale`` a finite float ``> 0``.

MISTAKE: the statistic depends on the order of the rows. Symmetric distance sees a dataset as a
multiset, so ``[0, 7]`` and ``[7, 0]`` are the same dataset (``d_in = 0``), yet with
``max_rows = 1`` their truncated sums are ``0`` and ``7``; the map promises a loss of 0 there.
(The truncation should keep a canonical subset, e.g. the least rows as ``make_resize`` does.)
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import ConstructorError, ScaleError, SizeError
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import draws_replaced, sample_discrete_laplace, system_rng
from obligations.base import Entry, example


def truncated_map(d_in, upper, scale):
    return div_up(d_in * upper, scale)


def build_truncated_noisy_sum(max_rows: int, upper: int, scale: float) -> Measurement:
    def release(rows, rng=None):
        kept = rows[:max_rows]
        return sum(kept) + sample_discrete_laplace(Fraction(scale), system_rng(rng))

    return Measurement(VectorDomain(AtomDomain(int, bounds=(0, upper))), AtomDomain(int),
                       SymmetricDistance(), MaxDivergence(), release,
                       Map(rule=truncated_map, params={"upper": upper, "scale": scale}))


def validate(max_rows, upper, scale):
    if type(max_rows) is not int:
        raise SizeError(max_rows)
    if type(upper) is not int:
        raise ConstructorError(f"upper must be an int, got {upper!r}", upper=upper)
    if type(scale) is not float:
        raise ScaleError(scale)


PRECONDITIONS = (
    Precondition("max_rows >= 1", lambda max_rows, **_: ops.le(1, max_rows),
                 lambda max_rows, **_: SizeError(max_rows)),
    Precondition("upper >= 0", lambda upper, **_: ops.le(0, upper),
                 lambda upper, **_: ConstructorError(f"upper must be >= 0, got {upper!r}",
                                                     upper=upper)),
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("scale > 0", lambda scale, **_: ops.lt(0, scale),
                 lambda scale, **_: ScaleError(scale)),
)

make_truncated_noisy_sum = Constructor("make_truncated_noisy_sum", build_truncated_noisy_sum,
                                       PRECONDITIONS, validate)

MECHANISMS = [Entry("make_truncated_noisy_sum", make_truncated_noisy_sum,
                    examples=(example("make_truncated_noisy_sum(100, 7, 2.0)",
                                      "from first_rows_sum import make_truncated_noisy_sum"),))]


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
    m = make_truncated_noisy_sum(1, 7, 2.0)
    v, w = [0, 7], [7, 0]
    d_in = SymmetricDistance().distance(v, w)
    assert d_in == 0
    (law, scale), = _draws(m, v)
    assert law == "discrete Laplace" and scale == 2 and _draws(m, w) == [(law, scale)]
    for rows, statistic in ((v, 0), (w, 7)):
        for seed in range(25):
            z = sample_discrete_laplace(scale, random.Random(seed))
            assert m(rows, random.Random(seed)) == statistic + z == _output_at(m, rows, z)
    y = 7
    z_v, z_w = _reaching(m, v, y), _reaching(m, w, y)
    loss = Fraction(abs(z_v) - abs(z_w)) / scale  # Pr[Y = z] ~ exp(-|z| / scale)
    claimed = m.map(d_in)
    assert loss == Fraction(7, 2) and loss > Fraction(claimed), (loss, claimed)
    return (f"make_truncated_noisy_sum(1, 7, 2.0): [0, 7] vs [7, 0] (d_in = 0, one multiset); "
            f"ln(Pr[M([7, 0]) = 7] / Pr[M([0, 7]) = 7]) = {loss} > map(0) = {claimed}")
