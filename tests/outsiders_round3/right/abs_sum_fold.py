"""``make_total_magnitude(lower, upper)``: the sum of the absolute values of bounded integer rows
(total movement, in either direction), as a ``Fold``.

A ``Transformation`` from ``VectorDomain(AtomDomain(int, bounds=(lower, upper)))`` under
``SymmetricDistance`` to ``AtomDomain(int)`` under ``AbsoluteDistance``. The function is
``mechanisms.core.Fold(step, finalize, 0)`` with ``step(total, x) = total + |x|``. One added or
removed row ``x`` moves the total by ``|x| <= max(|lower|, |upper|)``, and ``d_in`` rows by at
most ``d_in`` times that: linear map ``d_in -> d_in * max(|lower|, |upper|)``.

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


def add_magnitude(total, x):
    return total + ops.absolute(x)


def final_total(total):
    return total


def magnitude_bound(lower, upper):
    return ops.maximum(ops.absolute(lower), ops.absolute(upper))


def build_total_magnitude(lower: int, upper: int) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(AtomDomain(int, bounds=(lower, upper))),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_metric=AbsoluteDistance(),
        function=Fold(add_magnitude, final_total, 0),
        stability_map=Map(constant=magnitude_bound, params={"lower": lower, "upper": upper}),
    )


def validate(lower, upper):
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)


PRECONDITIONS = (
    Precondition("lower <= upper", lambda lower, upper: ops.le(lower, upper),
                 lambda lower, upper: BoundsOrderError(lower, upper)),
)

make_total_magnitude = Constructor("make_total_magnitude", build_total_magnitude,
                                   PRECONDITIONS, validate)

MECHANISMS = [Entry("make_total_magnitude", make_total_magnitude,
                    examples=(example("make_total_magnitude(-6, 4)",
                                      "from abs_sum_fold import make_total_magnitude"),))]


def check() -> str:
    from mechanisms.make_bounded_int_sum import make_bounded_int_sum

    pairs = 0
    for lower, upper in ((-6, 4), (-3, -1), (0, 5), (2, 2)):
        t = make_total_magnitude(lower, upper)
        c = max(abs(lower), abs(upper))
        catalogue = make_bounded_int_sum(0, c)
        values = list(range(lower, upper + 1))[:6]
        data = [list(d) for n in range(4) for d in combinations_with_replacement(values, n)]
        for v in data:
            out = t(v)
            assert out == catalogue([abs(x) for x in v]) == sum(abs(x) for x in v)
            assert all(t(list(p)) == out for p in permutations(v))
        for v in data:
            for w in data:
                d_in = t.input_metric.distance(v, w)
                assert t.output_metric.distance(t(v), t(w)) <= t.map(d_in)
                pairs += 1
        for d_in in range(12):
            assert t.map(d_in) == catalogue.map(d_in) == d_in * c
    return (f"make_total_magnitude: equal to make_bounded_int_sum(0, C) on |rows|, order-free, "
            f"and d_out <= map(d_in) on all {pairs} pairs of datasets of <= 3 rows (4 bounds)")
