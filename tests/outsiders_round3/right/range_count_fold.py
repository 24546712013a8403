"""``make_range_count(low, high)``: how many integer rows lie in ``[low, high]``, as a ``Fold``
with a step closed over the range.

A ``Transformation`` from ``VectorDomain(AtomDomain(int))`` under ``SymmetricDistance`` to
``AtomDomain(int)`` under ``AbsoluteDistance``. The function is
``mechanisms.core.Fold(step, finalize, 0)``, ``step(count, x) = count + [low <= x <= high]``
(``ops.bool_as`` of the test). One added or removed row moves the count by 0 or 1: linear map
``d_in -> d_in``. (With ``low > high`` the range is empty and the count always 0, still
1-stable, so no precondition is needed beyond the types.)
"""

from __future__ import annotations

from itertools import combinations_with_replacement, permutations

from mechanisms import ops
from mechanisms.core import Constructor, Fold, Map, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import IntBoundTypeError
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import Entry, example


def finished(count):
    return count


def one():
    return 1


def build_range_count(low: int, high: int) -> Transformation:
    def count_if_inside(count, x):
        inside = ops.all_of(ops.le(low, x), ops.le(x, high))
        return count + ops.bool_as(inside, int)

    return Transformation(
        input_domain=VectorDomain(AtomDomain(int)),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_metric=AbsoluteDistance(),
        function=Fold(count_if_inside, finished, 0),
        stability_map=Map(constant=one),
    )


def validate(low, high):
    if type(low) is not int or type(high) is not int:
        raise IntBoundTypeError(low, high)


make_range_count = Constructor("make_range_count", build_range_count, (), validate)

MECHANISMS = [Entry("make_range_count", make_range_count,
                    examples=(example("make_range_count(30, 39)",
                                      "from range_count_fold import make_range_count"),))]


def check() -> str:
    from mechanisms.make_count import make_count

    pairs = 0
    count = make_count(int)
    for low, high in ((30, 39), (0, 0), (5, 2), (-2, 1)):
        t = make_range_count(low, high)
        values = [low - 1, low, high, high + 1, (low + high) // 2]
        data = [list(d) for n in range(4) for d in combinations_with_replacement(values, n)]
        for v in data:
            out = t(v)
            assert out == count([x for x in v if low <= x <= high])
            assert all(t(list(p)) == out for p in permutations(v))
        for v in data:
            for w in data:
                d_in = t.input_metric.distance(v, w)
                assert t.output_metric.distance(t(v), t(w)) <= t.map(d_in)
                pairs += 1
        for d_in in range(12):
            assert t.map(d_in) == count.map(d_in) == d_in
    return (f"make_range_count: equal to make_count(int) on the rows in range, order-free, "
            f"d_out <= map(d_in) on all {pairs} pairs of datasets of <= 3 rows (4 ranges)")
