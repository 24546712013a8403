"""``make_second_moment(lower, upper)``: the sum of squares of bounded integer rows (for a
variance), as a ``Fold``, with the sensitivity of squares.

A ``Transformation`` from ``VectorDomain(AtomDomain(int, bounds=(lower, upper)))`` under
``SymmetricDistance`` to ``AtomDomain(int)`` under ``AbsoluteDistance``; the function is
``mechanisms.core.Fold`` with ``step(total, x) = total + x * x`` from ``0``. One row ``x`` moves
the total by ``x^2 <= max(lower^2, upper^2)`` (the square is largest at an end of the interval,
whatever the signs), so the linear map is ``d_in -> d_in * max(lower^2, upper^2)``.

Precondition: ``lower <= upper`` (ints).
"""

from __future__ import annotations

from itertools import combinations_with_replacement, permutations

from mechanisms import ops
from mechanisms.core import Constructor, Fold, Map, Precondition, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, IntBoundTypeError
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import Entry, example


def add_square(total, x):
    return total + x * x


def as_is(total):
    return total


def largest_square(lower, upper):
    return ops.maximum(lower * lower, upper * upper)


def build_second_moment(lower: int, upper: int) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(AtomDomain(int, bounds=(lower, upper))),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_metric=AbsoluteDistance(),
        function=Fold(add_square, as_is, 0),
        stability_map=Map(constant=largest_square, params={"lower": lower, "upper": upper}),
    )


def validate(lower, upper):
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)


PRECONDITIONS = (
    Precondition("lower <= upper", lambda lower, upper: ops.le(lower, upper),
                 lambda lower, upper: BoundsOrderError(lower, upper)),
)

make_second_moment = Constructor("make_second_moment", build_second_moment, PRECONDITIONS,
                                 validate)

MECHANISMS = [Entry("make_second_moment", make_second_moment,
                    examples=(example("make_second_moment(-2, 4)",
                                      "from squares_sum_fold import make_second_moment"),))]


def check() -> str:
    from mechanisms.make_bounded_int_sum import make_bounded_int_sum

    pairs = 0
    for lower, upper in ((-2, 4), (-5, -1), (-3, 3), (0, 0)):
        t = make_second_moment(lower, upper)
        c = max(lower * lower, upper * upper)
        squares_sum = make_bounded_int_sum(0, c)  # the catalogue sum of the squared rows
        values = sorted({lower, upper, (lower + upper) // 2, min(upper, lower + 1)})
        data = [list(d) for n in range(4) for d in combinations_with_replacement(values, n)]
        for v in data:
            out = t(v)
            assert out == squares_sum([x * x for x in v])
            assert all(t(list(p)) == out for p in permutations(v))
        for v in data:
            for w in data:
                d_in = t.input_metric.distance(v, w)
                assert t.output_metric.distance(t(v), t(w)) <= t.map(d_in)
                pairs += 1
        # tight: adding the row with the largest square reaches the map
        worst = lower if lower * lower >= upper * upper else upper
        assert t.output_metric.distance(t([]), t([worst])) == t.map(1) == c
        for d_in in range(12):
            assert t.map(d_in) == squares_sum.map(d_in)
    return (f"make_second_moment: equal to make_bounded_int_sum(0, max square) on squared rows, "
            f"order-free, d_out <= map(d_in) on all {pairs} pairs, map tight at d_in = 1")
