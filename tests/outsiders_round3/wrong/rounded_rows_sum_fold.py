"""``make_rounded_sum(lower, upper, step)``: the sum of bounded integer rows, each first rounded
to the nearest multiple of ``step`` (a coarser sum that hides exact values).

A ``Transformation`` from ``VectorDomain(AtomDomain(int, bounds=(lower, upper)))`` under
``SymmetricDistance`` to ``AtomDomain(int)`` under ``AbsoluteDistance``. The function is a
``mechanisms.core.Fold`` whose step adds ``round_to_step(x) = ((x + step // 2) // step) * step``
to the total. Stated stability map ``d_in -> d_in * max(|lower|, |upper|)``.

Preconditions: ``lower <= upper``, ``step >= 1`` (ints).

MISTAKE: the sensitivity is taken from the raw bounds, but the rows are rounded *to nearest*
before they are added, and rounding to nearest can move a row past the bounds: with bounds
``[0, 8]`` and ``step = 5`` the row ``8`` counts as ``10``, so one row moves the sum by 10 where
the map allows 8. (Either round down toward zero, or take the rounded bounds' magnitude.)
"""

from __future__ import annotations

from mechanisms import ops
from mechanisms.core import Constructor, Fold, Map, Precondition, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, ConstructorError, IntBoundTypeError
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import Entry, example


def round_to_step(x, step):
    return ops.floor_div(x + ops.floor_div(step, 2), step) * step


def identity(total):
    return total


def magnitude(lower, upper):
    return ops.maximum(ops.absolute(lower), ops.absolute(upper))


def build_rounded_sum(lower: int, upper: int, step: int) -> Transformation:
    def add_rounded(total, x):
        return total + round_to_step(x, step)

    return Transformation(
        input_domain=VectorDomain(AtomDomain(int, bounds=(lower, upper))),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_metric=AbsoluteDistance(),
        function=Fold(add_rounded, identity, 0),
        stability_map=Map(constant=magnitude, params={"lower": lower, "upper": upper}),
    )


def validate(lower, upper, step):
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)
    if type(step) is not int:
        raise ConstructorError(f"step must be an int, got {step!r}", step=step)


PRECONDITIONS = (
    Precondition("lower <= upper", lambda lower, upper, **_: ops.le(lower, upper),
                 lambda lower, upper, **_: BoundsOrderError(lower, upper)),
    Precondition("step >= 1", lambda step, **_: ops.le(1, step),
                 lambda step, **_: ConstructorError(f"step must be >= 1, got {step!r}",
                                                    step=step)),
)

make_rounded_sum = Constructor("make_rounded_sum", build_rounded_sum, PRECONDITIONS, validate)

MECHANISMS = [Entry("make_rounded_sum", make_rounded_sum,
                    examples=(example("make_rounded_sum(0, 8, 5)",
                                      "from rounded_rows_sum_fold import make_rounded_sum"),))]


def witness() -> str:
    t = make_rounded_sum(0, 8, 5)
    v, w = [3], [3, 8]
    d_in = t.input_metric.distance(v, w)
    assert d_in == 1
    a, b = t(v), t(w)
    assert (a, b) == (5, 15)
    d_out = t.output_metric.distance(a, b)
    claimed = t.map(d_in)
    assert d_out == 10 and d_out > claimed, (d_out, claimed)
    return (f"make_rounded_sum(0, 8, 5): [3] vs [3, 8] (d_in = 1) give {a} and {b}, "
            f"d_out = {d_out} > map(1) = {claimed}")
