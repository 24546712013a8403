"""``make_count_and_sum(lower, upper, count_scale, sum_scale)``: a noisy row count and a noisy
clipped sum of the same rows, released together (for a mean computed afterwards).

``make_basic_composition([make_count(int) >> make_discrete_laplace(count_scale),
make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper) >>
make_discrete_laplace(sum_scale)])``: input ``VectorDomain(AtomDomain(int))`` under
``SymmetricDistance``, output a pair of ints (``ProductDomain``) under ``MaxDivergence``; the
function is the composition's, ``(len(rows) + Y1, sum(clamp(x)) + Y2)`` with independent
discrete Laplace draws. The author replaces the composition's map (``dataclasses.replace``) by
``d_in -> max(count_map(d_in), sum_map(d_in))``, reasoning that "each person is one row and each
query already protects that row".

Preconditions: ``lower <= upper`` (ints); both scales finite floats ``> 0``.

MISTAKE: taking the larger of the two losses is parallel composition, which holds for queries
on *disjoint* parts of the data. Both queries read every row, so their losses add (sequential
composition, the composition's own map): with scales ``1`` and ``10`` over ``[0, 10]`` one row
of 10 costs ``1 + 1 = 2``, and the map says 1.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.errors import BoundsOrderError, IntBoundTypeError, ScaleError
from mechanisms.make_basic_composition import make_basic_composition
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_clamp import make_clamp
from mechanisms.make_count import make_count
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import draws_replaced, sample_discrete_laplace
from obligations.base import Entry, example


def larger_loss(d_in, first, second):
    return ops.maximum(first(d_in), second(d_in))


def build_count_and_sum(lower: int, upper: int, count_scale: float,
                        sum_scale: float) -> Measurement:
    noisy_count = make_count(int) >> make_discrete_laplace(count_scale)
    noisy_sum = (make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper)
                 >> make_discrete_laplace(sum_scale))
    both = make_basic_composition([noisy_count, noisy_sum])
    return replace(both, privacy_map=Map(rule=larger_loss, params={
        "first": noisy_count.privacy_map, "second": noisy_sum.privacy_map}))


def validate(lower, upper, count_scale, sum_scale):
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)
    for scale in (count_scale, sum_scale):
        if type(scale) is not float:
            raise ScaleError(scale)


def positive_finite(name):
    return Precondition(f"{name} is a finite float > 0",
                        lambda **a: ops.all_of(ops.is_finite(a[name]), ops.lt(0, a[name])),
                        lambda **a: ScaleError(a[name]))


PRECONDITIONS = (
    Precondition("lower <= upper", lambda lower, upper, **_: ops.le(lower, upper),
                 lambda lower, upper, **_: BoundsOrderError(lower, upper)),
    positive_finite("count_scale"),
    positive_finite("sum_scale"),
)

make_count_and_sum = Constructor("make_count_and_sum", build_count_and_sum, PRECONDITIONS,
                                 validate)

MECHANISMS = [Entry("make_count_and_sum", make_count_and_sum,
                    examples=(example("make_count_and_sum(0, 10, 1.0, 10.0)",
                                      "from comp_count_and_sum_max import make_count_and_sum"),))]


def _draws(m, rows):
    seen = []

    def record(law, parameter, rng):
        seen.append((law, parameter))
        return 0
    with draws_replaced(record):
        m.function(rows, None)
    return seen


def _output_at(m, rows, zs):
    it = iter(zs)
    with draws_replaced(lambda law, parameter, rng: next(it)):
        return m.function(rows, None)


def witness() -> str:
    m = make_count_and_sum(0, 10, 1.0, 10.0)
    v, w = [], [10]
    d_in = SymmetricDistance().distance(v, w)
    assert d_in == 1
    draws = _draws(m, v)
    assert draws == [("discrete Laplace", 1), ("discrete Laplace", 10)] == _draws(m, w)
    (_, s1), (_, s2) = draws
    for rows, (n, total) in ((v, (0, 0)), (w, (1, 10))):
        for seed in range(25):
            rng = random.Random(seed)
            z1 = sample_discrete_laplace(s1, rng)
            z2 = sample_discrete_laplace(s2, rng)
            assert m(rows, random.Random(seed)) == (n + z1, total + z2) == \
                _output_at(m, rows, (z1, z2))
    # the output (y1, y2) = (n + Y1, sum + Y2) is reached by exactly one pair of draws; Y1, Y2
    # independent with Pr[Y = z] ~ exp(-|z| / s): the log-ratio at (1, 10) is exact
    y1, y2 = 1, 10
    loss = (Fraction(abs(y1 - 0) - abs(y1 - 1)) / s1 + Fraction(abs(y2 - 0) - abs(y2 - 10)) / s2)
    claimed = m.map(d_in)
    assert loss == 2 and loss > Fraction(claimed), (loss, claimed)
    return (f"make_count_and_sum(0, 10, 1.0, 10.0): [] vs [10] (d_in = 1); "
            f"ln(Pr[M([10]) = (1, 10)] / Pr[M([]) = (1, 10)]) = {loss} > map(1) = {claimed}")
