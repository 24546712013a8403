"""Wrong twins of ``make_drop_null``: one refuted per standard statement, and one more of its
stability."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import z3

from mechanisms import ops
from mechanisms.core import Map
from mechanisms.make_drop_null import Filter, build_drop_null, is_not_null, make_drop_null
from mechanisms.metrics import AbsoluteDistance
from obligations.base import Entry
from obligations.kernel.statements import Claim


def keep_all(x: Any) -> Any:
    """Wrong: keeps every row, NaN included."""
    return True


def keep_unless_negative_zero(x: Any) -> Any:
    """Wrong: also drops -0.0, which is the same multiset element as 0.0, so the filter can split
    two equal rows: d_sym([0.0], [-0.0]) = 0 but their filtrates are 1 apart."""
    negative_zero = (z3.And(z3.fpIsZero(x), z3.fpIsNegative(x)) if ops.is_z3(x)
                     else x == 0.0 and math.copysign(1.0, x) < 0)
    return ops.all_of(is_not_null(x), ops.negate(negative_zero))


def half(d_in: Any) -> Any:
    """Wrong: dropping nulls is 1-stable, not 1/2-stable."""
    return d_in / 2


def drop_nan_and_first_row(data: Any) -> list[Any]:
    """Not a filter: drops the NaN rows and, besides, the first row."""
    return [x for x in data[1:] if not math.isnan(x)]


def build_drop_null_not_a_filter(carrier: type = float):
    return replace(build_drop_null(carrier), function=drop_nan_and_first_row)


def build_drop_nothing(carrier: type = float):
    return replace(build_drop_null(carrier), function=Filter(keep_all))


def build_drop_negative_zero(carrier: type = float):
    return replace(build_drop_null(carrier), function=Filter(keep_unless_negative_zero))


def build_drop_null_absolute_output(carrier: type = float):
    """Wrong: absolute distance is not defined on vectors."""
    return replace(build_drop_null(carrier), output_metric=AbsoluteDistance())


def build_drop_null_half_map(carrier: type = float):
    return replace(build_drop_null(carrier), stability_map=Map(rule=half))


make_drop_nothing = make_drop_null.variant("make_drop_nothing", build_drop_nothing)
make_drop_negative_zero = make_drop_null.variant("make_drop_negative_zero",
                                                 build_drop_negative_zero)
make_drop_null_absolute_output = make_drop_null.variant("make_drop_null_absolute_output",
                                                        build_drop_null_absolute_output)
make_drop_null_not_a_filter = make_drop_null.variant("make_drop_null_not_a_filter",
                                                     build_drop_null_not_a_filter)
make_drop_null_half_map = make_drop_null.variant("make_drop_null_half_map",
                                                 build_drop_null_half_map)

MECHANISMS = [Entry("make_drop_nothing", make_drop_nothing),
              Entry("make_drop_negative_zero", make_drop_negative_zero),
              Entry("make_drop_null_absolute_output", make_drop_null_absolute_output),
              Entry("make_drop_null_half_map", make_drop_null_half_map)]

STATEMENT_TWIN_OF = {
    ("make_drop_null", Claim.OUTPUT_DOMAIN): ("make_drop_nothing", Claim.OUTPUT_DOMAIN),
    ("make_drop_null", Claim.COMPATIBILITY): ("make_drop_null_absolute_output",
                                              Claim.COMPATIBILITY),
    ("make_drop_null", Claim.STABILITY): ("make_drop_null_half_map", Claim.STABILITY),
}
REFUTED_STATEMENTS = {("make_drop_negative_zero", Claim.STABILITY)}
"""A predicate that splits one multiset element (0.0 and -0.0) breaks the filter's stability."""

UNSUPPORTED = [Entry("make_drop_null_not_a_filter", make_drop_null_not_a_filter)]
"""Outside the proof method (the function is not a Filter): never proved."""
