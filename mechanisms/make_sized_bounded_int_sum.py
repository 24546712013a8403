"""``make_sized_bounded_int_sum(size, lower, upper)``: the sum of exactly ``size`` ints in ``[lower, upper]``.

``function(v) = sum(v)`` (the fold of :mod:`mechanisms.make_bounded_int_sum`), from
``SizedDomain(VectorDomain(AtomDomain(int, bounds=(lower, upper))), size)`` under symmetric
distance to ``AtomDomain(int)`` under absolute distance, with OpenDP's stability map
``d_in -> (d_in // 2) * (upper - lower)``: two vectors of one size at symmetric distance ``d`` are
``d / 2`` substitutions apart (``d`` is even), and one substitution moves the sum by at most
``upper - lower``. Preconditions: ``lower <= upper``, both ``int``; ``size`` an ``int >= 0``
(OpenDP admits ``size = 0`` too).

Differences from OpenDP: OpenDP's ``make_sum`` on a sized int vector domain picks
``make_sized_bounded_int_checked_sum`` (refusing ``size * bounds`` that overflow) or one of the
monotonic / ordered / split variants, which differ only in how they handle fixed-width overflow.
Python ints do not overflow, so the exact sum is computed, no size/bounds combination is refused
for overflow, and all of them collapse into this one constructor, with the same map.
"""

from __future__ import annotations

from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Fold, Map, Precondition, Transformation, declares
from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from mechanisms.errors import DatasetSizeError
from mechanisms.make_bounded_int_sum import (INT_SUM_PRECONDITIONS, sum_finalize, sum_step,
                                              validate_int_bounds)
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance


def sized_int_sum_map(d_in: Any, lower: Any, upper: Any) -> Any:
    """``(d_in // 2) * (upper - lower)``: ``d_in // 2`` substitutions, each worth ``U - L``."""
    return ops.floor_div(d_in, 2) * (upper - lower)


@declares({"size": int, "lower": int, "upper": int})
def validate_sized_int_sum(size: Any, lower: Any, upper: Any) -> None:
    """``size`` is an ``int`` (not ``bool``); both bounds are ``int``."""
    if type(size) is not int:
        raise DatasetSizeError(size)
    validate_int_bounds(lower, upper)


SIZED_INT_SUM_PRECONDITIONS = (
    Precondition("size >= 0", lambda size, **_: ops.le(0, size),
                 lambda size, **_: DatasetSizeError(size)),
) + INT_SUM_PRECONDITIONS


def build_sized_bounded_int_sum(size: Any, lower: Any, upper: Any) -> Transformation:
    return Transformation(
        input_domain=SizedDomain(VectorDomain(AtomDomain(int, bounds=(lower, upper))), size),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_metric=AbsoluteDistance(),
        function=Fold(sum_step, sum_finalize, 0),
        stability_map=Map(rule=sized_int_sum_map, params={"lower": lower, "upper": upper}),
    )


make_sized_bounded_int_sum = Constructor("make_sized_bounded_int_sum",
                                         build_sized_bounded_int_sum,
                                         SIZED_INT_SUM_PRECONDITIONS, validate_sized_int_sum)
