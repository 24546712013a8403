"""``make_clipped_total(lower, upper)``: the total of integer rows, with each person's influence
clipped to ``[lower, upper]``.

A ``Transformation`` from ``VectorDomain(AtomDomain(int))`` (rows of any value) under
``SymmetricDistance`` to ``AtomDomain(int)`` under ``AbsoluteDistance``, whose function is a
``mechanisms.core.Fold``: ``step(total, x) = total + x`` from ``0``, then ``finalize`` clips.
Stability map ``d_in -> d_in * max(|lower|, |upper|)`` (a linear ``Map``), the map of
``make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper)``.

Precondition: ``lower <= upper`` (ints).

MISTAKE: the clip is applied once, to the total, in ``finalize``, instead of to each row before
it is added. The clipped total lies in ``[lower, upper]``, so one added row can move it from one
end of the interval to the other: with ``[-5, 5]``, ``[-100]`` gives ``-5`` and
``[-100, 200]`` gives ``5``, 10 apart at ``d_in = 1`` where the map allows 5.
"""

from __future__ import annotations

from mechanisms import ops
from mechanisms.core import Constructor, Fold, Map, Precondition, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, IntBoundTypeError
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import Entry, example


def add_row(total, x):
    return total + x


def clip_total(total, lower, upper):
    return ops.maximum(ops.minimum(total, upper), lower)


def largest_magnitude(lower, upper):
    return ops.maximum(ops.absolute(lower), ops.absolute(upper))


def build_clipped_total(lower: int, upper: int) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(AtomDomain(int)),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_metric=AbsoluteDistance(),
        function=Fold(add_row, clip_total, 0, {"lower": lower, "upper": upper}),
        stability_map=Map(constant=largest_magnitude, params={"lower": lower, "upper": upper}),
    )


def validate(lower, upper):
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)


PRECONDITIONS = (
    Precondition("lower <= upper", lambda lower, upper: ops.le(lower, upper),
                 lambda lower, upper: BoundsOrderError(lower, upper)),
)

make_clipped_total = Constructor("make_clipped_total", build_clipped_total, PRECONDITIONS,
                                 validate)

MECHANISMS = [Entry("make_clipped_total", make_clipped_total,
                    examples=(example("make_clipped_total(-5, 5)",
                                      "from clamped_total_fold import make_clipped_total"),))]


def witness() -> str:
    t = make_clipped_total(-5, 5)
    v, w = [-100], [-100, 200]
    d_in = t.input_metric.distance(v, w)
    assert d_in == 1
    a, b = t(v), t(w)
    assert (a, b) == (-5, 5)
    d_out = t.output_metric.distance(a, b)
    claimed = t.map(d_in)
    assert d_out == 10 and d_out > claimed, (d_out, claimed)
    return (f"make_clipped_total(-5, 5): [-100] vs [-100, 200] (d_in = 1) give {a} and {b}, "
            f"d_out = {d_out} > map(1) = {claimed}")
