"""``make_noisy_amount_total(lower, upper, scale)``: the total of non-negative amounts (donations,
minutes, items bought) with discrete Laplace noise.

Input domain ``VectorDomain(AtomDomain(int, bounds=(lower, upper)))`` under
``SymmetricDistance``; output ``AtomDomain(int)`` under ``MaxDivergence``. The function releases
``sum(rows) + Y``, ``Y`` one draw of ``mechanisms.samplers.sample_discrete_laplace`` at ``scale``.
Amounts are non-negative, so one row moves the total by at most ``upper``: map
``d_in -> d_in * upper / scale``, rounded up.

Preconditions as written: ``lower <= upper`` (ints), ``scale`` a finite float ``> 0``.

MISTAKE: the map assumes every row is ``>= 0`` but no precondition asks ``0 <= lower``: the
constructor admits ``lower = -50, upper = 10``, where one row of ``-50`` moves the total by 50
and the map charges only for 10.
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, IntBoundTypeError, ScaleError
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import draws_replaced, sample_discrete_laplace, system_rng
from obligations.base import Entry, example


def amount_map(d_in, upper, scale):
    """``d_in * upper / scale``: every amount lies in ``[0, upper]``."""
    return div_up(d_in * upper, scale)


def build_noisy_amount_total(lower: int, upper: int, scale: float) -> Measurement:
    def release(rows, rng=None):
        total = 0
        for amount in rows:
            total = total + amount
        return total + sample_discrete_laplace(Fraction(scale), system_rng(rng))

    return Measurement(VectorDomain(AtomDomain(int, bounds=(lower, upper))), AtomDomain(int),
                       SymmetricDistance(), MaxDivergence(), release,
                       Map(rule=amount_map, params={"upper": upper, "scale": scale}))


def validate(lower, upper, scale):
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)
    if type(scale) is not float:
        raise ScaleError(scale)


PRECONDITIONS = (
    Precondition("lower <= upper", lambda lower, upper, **_: ops.le(lower, upper),
                 lambda lower, upper, **_: BoundsOrderError(lower, upper)),
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("scale > 0", lambda scale, **_: ops.lt(0, scale),
                 lambda scale, **_: ScaleError(scale)),
)

make_noisy_amount_total = Constructor("make_noisy_amount_total", build_noisy_amount_total,
                                      PRECONDITIONS, validate)

MECHANISMS = [Entry("make_noisy_amount_total", make_noisy_amount_total,
                    examples=(example("make_noisy_amount_total(0, 10, 5.0)",
                                      "from nonneg_sum_lower_unchecked import "
                                      "make_noisy_amount_total"),))]


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


def _reaching(m, rows, y, window=300):
    hits = [z for z in range(-window, window + 1) if _output_at(m, rows, z) == y]
    assert len(hits) == 1, hits  # total + z is strictly increasing in z
    return hits[0]


def witness() -> str:
    m = make_noisy_amount_total(-50, 10, 5.0)  # admitted: only lower <= upper is asked
    v, w = [], [-50]
    d_in = SymmetricDistance().distance(v, w)
    assert d_in == 1
    (law, scale), = _draws(m, v)
    assert law == "discrete Laplace" and scale == 5 and _draws(m, w) == [(law, scale)]
    for rows, total in ((v, 0), (w, -50)):
        for seed in range(25):
            z = sample_discrete_laplace(scale, random.Random(seed))
            assert m(rows, random.Random(seed)) == total + z == _output_at(m, rows, z)
    y = -50
    z_v, z_w = _reaching(m, v, y), _reaching(m, w, y)
    loss = Fraction(abs(z_v) - abs(z_w)) / scale  # Pr[Y = z] ~ exp(-|z| / scale)
    claimed = m.map(d_in)
    assert loss == 10 and loss > Fraction(claimed), (loss, claimed)
    return (f"make_noisy_amount_total(-50, 10, 5.0): [] vs [-50] (d_in = 1); "
            f"ln(Pr[M([-50]) = -50] / Pr[M([]) = -50]) = {loss} > map(1) = {claimed}")
