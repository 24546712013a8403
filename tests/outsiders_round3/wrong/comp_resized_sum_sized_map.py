"""``make_fixed_size_sum(size, lower, upper, scale)``: a noisy sum over exactly ``size`` rows,
composed from catalogue constructors and wrapped with its own privacy map.

The function is that of ``make_clamp(lower, upper) >> make_resize(size, lower,
AtomDomain(int, bounds=(lower, upper))) >> make_sized_bounded_int_sum(size, lower, upper) >>
make_discrete_laplace(scale)``: rows clipped to ``[lower, upper]``, the dataset resized to
``size`` rows (padded with ``lower``), summed, plus one discrete Laplace draw of ``scale``.
Input ``VectorDomain(AtomDomain(int))`` under ``SymmetricDistance``, output ``AtomDomain(int)``
under ``MaxDivergence``. The author wraps the chain's function in a new ``Measurement`` with the
map of the sized sum behind the noise, ``d_in -> (d_in // 2) * (upper - lower) / scale`` rounded
up, because "after the resize the data has a known size".

Preconditions: ``size >= 1``, ``lower <= upper`` (ints), ``scale`` a finite float ``> 0``.

MISTAKE: the map forgets the resize in front of the sized sum. ``make_resize`` is 2-stable: one
row added to the raw data changes up to two rows of the resized data, so ``d_in`` raw rows are
``2 d_in`` resized rows and ``d_in`` substitutions, not ``d_in // 2``. At ``d_in = 1`` the stated
map is 0, yet adding one row of ``upper`` moves the sum by ``upper - lower``.
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain
from mechanisms.errors import BoundsOrderError, IntBoundTypeError, ScaleError, SizeError
from mechanisms.make_clamp import make_clamp
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_resize import make_resize
from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import draws_replaced, sample_discrete_laplace
from obligations.base import Entry, example


def sized_sum_map(d_in, lower, upper, scale):
    """``(d_in // 2) * (upper - lower) / scale``, rounded up."""
    return div_up(ops.floor_div(d_in, 2) * (upper - lower), scale)


def build_fixed_size_sum(size: int, lower: int, upper: int, scale: float) -> Measurement:
    chain = (make_clamp(lower, upper)
             >> make_resize(size, lower, AtomDomain(int, bounds=(lower, upper)))
             >> make_sized_bounded_int_sum(size, lower, upper)
             >> make_discrete_laplace(scale))
    return Measurement(chain.input_domain, chain.output_domain, chain.input_metric,
                       chain.output_measure, chain.function,
                       Map(rule=sized_sum_map,
                           params={"lower": lower, "upper": upper, "scale": scale}))


def validate(size, lower, upper, scale):
    if type(size) is not int:
        raise SizeError(size)
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)
    if type(scale) is not float:
        raise ScaleError(scale)


PRECONDITIONS = (
    Precondition("size >= 1", lambda size, **_: ops.le(1, size),
                 lambda size, **_: SizeError(size)),
    Precondition("lower <= upper", lambda lower, upper, **_: ops.le(lower, upper),
                 lambda lower, upper, **_: BoundsOrderError(lower, upper)),
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("scale > 0", lambda scale, **_: ops.lt(0, scale),
                 lambda scale, **_: ScaleError(scale)),
)

make_fixed_size_sum = Constructor("make_fixed_size_sum", build_fixed_size_sum, PRECONDITIONS,
                                  validate)

MECHANISMS = [Entry("make_fixed_size_sum", make_fixed_size_sum,
                    examples=(example("make_fixed_size_sum(3, 0, 10, 2.0)",
                                      "from comp_resized_sum_sized_map import "
                                      "make_fixed_size_sum"),))]


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
    m = make_fixed_size_sum(3, 0, 10, 2.0)
    v, w = [], [10]
    d_in = SymmetricDistance().distance(v, w)
    assert d_in == 1
    (law, scale), = _draws(m, v)
    assert law == "discrete Laplace" and scale == 2 and _draws(m, w) == [(law, scale)]
    # resized: [] -> [0, 0, 0] (sum 0), [10] -> [10, 0, 0] (sum 10)
    for rows, total in ((v, 0), (w, 10)):
        for seed in range(25):
            z = sample_discrete_laplace(scale, random.Random(seed))
            assert m(rows, random.Random(seed)) == total + z == _output_at(m, rows, z)
    y = 10
    z_v, z_w = _reaching(m, v, y), _reaching(m, w, y)
    loss = Fraction(abs(z_v) - abs(z_w)) / scale  # Pr[Y = z] ~ exp(-|z| / scale)
    claimed = m.map(d_in)
    assert loss == 5 and loss > Fraction(claimed), (loss, claimed)
    return (f"make_fixed_size_sum(3, 0, 10, 2.0): [] vs [10] (d_in = 1) resized to sums 0 and "
            f"10; ln(Pr[M([10]) = 10] / Pr[M([]) = 10]) = {loss} > map(1) = {claimed}")
