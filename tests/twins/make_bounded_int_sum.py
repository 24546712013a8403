"""Wrong twins of ``make_bounded_int_sum``: each standard statement has one whose same statement
the kernel refutes, confirmed on the real (wrong) code, and a map rounded to nearest is refuted
as its stability."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms.core import Fold, Map
from mechanisms.make_bounded_int_sum import (build_bounded_int_sum, int_sum_constant,
                                             make_bounded_int_sum, sum_finalize, sum_step)
from mechanisms.make_sized_bounded_int_sum import sized_int_sum_map
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry
from obligations.kernel.statements import Claim


def build_float_init(lower: Any, upper: Any):
    """Wrong: the fold starts from ``0.0``, so the sum of int rows is a float."""
    return replace(build_bounded_int_sum(lower, upper), function=Fold(sum_step, sum_finalize, 0.0))


def build_symmetric_output(lower: Any, upper: Any):
    """Wrong: symmetric distance is not defined on an int atom domain."""
    return replace(build_bounded_int_sum(lower, upper), output_metric=SymmetricDistance())


def build_sized_map(lower: Any, upper: Any):
    """Wrong: the sized map ``(d_in // 2) (U - L)`` on unknown size; one insertion costs 0."""
    return replace(build_bounded_int_sum(lower, upper),
                   stability_map=Map(rule=sized_int_sum_map, params={"lower": lower, "upper": upper}))


def true_division_map(d_in: Any, lower: Any, upper: Any) -> Any:
    """Wrong: ``d_in * M / 1``, a true division: a float rounded to nearest, below the exact
    ``d_in M`` once ``M`` passes ``2^53`` (the exact model calls it correct)."""
    return d_in * int_sum_constant(lower, upper) / 1


def build_true_division_map(lower: Any, upper: Any):
    return replace(build_bounded_int_sum(lower, upper),
                   stability_map=Map(rule=true_division_map, params={"lower": lower, "upper": upper}))


make_bounded_int_sum_float_init = make_bounded_int_sum.variant(
    "make_bounded_int_sum_float_init", build_float_init)
make_bounded_int_sum_symmetric_output = make_bounded_int_sum.variant(
    "make_bounded_int_sum_symmetric_output", build_symmetric_output)
make_bounded_int_sum_sized_map = make_bounded_int_sum.variant(
    "make_bounded_int_sum_sized_map", build_sized_map)
make_bounded_int_sum_true_division = make_bounded_int_sum.variant(
    "make_bounded_int_sum_true_division", build_true_division_map)

MECHANISMS = [Entry("make_bounded_int_sum_float_init", make_bounded_int_sum_float_init),
              Entry("make_bounded_int_sum_symmetric_output", make_bounded_int_sum_symmetric_output),
              Entry("make_bounded_int_sum_sized_map", make_bounded_int_sum_sized_map),
              Entry("make_bounded_int_sum_true_division", make_bounded_int_sum_true_division)]

STATEMENT_TWIN_OF = {
    ("make_bounded_int_sum", Claim.OUTPUT_DOMAIN): ("make_bounded_int_sum_float_init",
                                                    Claim.OUTPUT_DOMAIN),
    ("make_bounded_int_sum", Claim.COMPATIBILITY): ("make_bounded_int_sum_symmetric_output",
                                                    Claim.COMPATIBILITY),
    ("make_bounded_int_sum", Claim.STABILITY): ("make_bounded_int_sum_sized_map", Claim.STABILITY),
}
REFUTED_STATEMENTS = {("make_bounded_int_sum_true_division", Claim.STABILITY)}
"""A map that rounds ``d_in * M`` to nearest, below the exact sensitivity once ``M`` passes
``2^53``."""
