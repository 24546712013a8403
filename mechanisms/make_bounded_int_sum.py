"""``make_bounded_int_sum(lower, upper)``: the sum of a vector of any length of ints in ``[lower, upper]``.

``function(v) = sum(v)`` (a fold of ``total + x`` from ``0``), from
``VectorDomain(AtomDomain(int, bounds=(lower, upper)))`` under symmetric distance to
``AtomDomain(int)`` under absolute distance, with stability map
``d_in -> d_in * max(|lower|, |upper|)``: one insertion or deletion of a row ``x`` moves the sum by
``|x| <= max(|lower|, |upper|)``, and ``d_in`` in symmetric distance is ``d_in`` such moves.
Precondition: ``lower <= upper``, both ``int``.

Differences from OpenDP: OpenDP's ``make_sum`` on an unsized int vector domain picks one of
``make_bounded_int_monotonic_sum`` / ``_ordered_sum`` / ``_split_sum``, which differ only in how
they avoid or bound the overflow of a fixed-width integer (saturation, ordering, splitting by
sign). Python ints do not overflow, so the exact sum is computed and all of them collapse into
this one constructor, with the same map ``d_in * max(|L|, |U|)``.
"""

from __future__ import annotations

from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Fold, Map, Precondition, Transformation, declares
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, IntBoundTypeError
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance


def sum_step(total: Any, x: Any) -> Any:
    """``total + x``: exact on Python ints."""
    return total + x


def sum_finalize(total: Any) -> Any:
    """The sum is the final total."""
    return total


def int_sum_constant(lower: Any, upper: Any) -> Any:
    """``max(|lower|, |upper|)``: the most one inserted or deleted row moves the sum."""
    return ops.maximum(ops.absolute(lower), ops.absolute(upper))


@declares({"lower": int, "upper": int})
def validate_int_bounds(lower: Any, upper: Any) -> None:
    """Both bounds are ``int`` (``bool`` and ``float`` are refused)."""
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)


INT_SUM_PRECONDITIONS = (
    Precondition("lower <= upper", lambda lower, upper, **_: ops.le(lower, upper),
                 lambda lower, upper, **_: BoundsOrderError(lower, upper)),
)
"""Int bounds cannot be NaN, so of the interval checks only the order remains."""


def build_bounded_int_sum(lower: Any, upper: Any) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(AtomDomain(int, bounds=(lower, upper))),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_metric=AbsoluteDistance(),
        function=Fold(sum_step, sum_finalize, 0),
        stability_map=Map(constant=int_sum_constant, params={"lower": lower, "upper": upper}),
    )


make_bounded_int_sum = Constructor("make_bounded_int_sum", build_bounded_int_sum,
                                   INT_SUM_PRECONDITIONS, validate_int_bounds)
