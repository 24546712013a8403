"""Wrong twins of ``make_sized_bounded_int_sum``, one refuted per standard statement, and two maps
rounded or wrapped past 2^53: each refuted with a counterexample the real code confirms."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms import ops
from mechanisms.core import Map
from mechanisms.domains import AtomDomain
from mechanisms.make_sized_bounded_int_sum import (build_sized_bounded_int_sum,
                                                   make_sized_bounded_int_sum)
from mechanisms.metrics import AbsoluteDistance
from obligations.kernel.statements import Claim
from tests.twins._statements import statement_twin_entries


def build_output_within_bounds(size: Any, lower: Any, upper: Any):
    """Wrong: promises the sum lies in [lower, upper], as a mean would (0 rows sum to 0, 2 to 2U)."""
    return replace(build_sized_bounded_int_sum(size, lower, upper),
                   output_domain=AtomDomain(int, bounds=(lower, upper)))


def build_absolute_input(size: Any, lower: Any, upper: Any):
    """Wrong: absolute distance is not defined on a vector domain."""
    return replace(build_sized_bounded_int_sum(size, lower, upper), input_metric=AbsoluteDistance())


def largest_magnitude_map(d_in: Any, lower: Any, upper: Any) -> Any:
    """Wrong: ``(d_in // 2) max(|L|, |U|)``; a substitution L -> U moves the sum by U - L, more."""
    return ops.floor_div(d_in, 2) * ops.maximum(ops.absolute(lower), ops.absolute(upper))


def build_largest_magnitude_map(size: Any, lower: Any, upper: Any):
    return replace(build_sized_bounded_int_sum(size, lower, upper),
                   stability_map=Map(rule=largest_magnitude_map,
                                     params={"lower": lower, "upper": upper}))


def true_division_map(d_in: Any, lower: Any, upper: Any) -> Any:
    """Wrong: ``d_in (U - L) / 2``, a true division rounded to nearest; with ``U - L = 2^53 + 1``
    it returns ``2^53`` at ``d_in = 2`` while one substitution moves the sum by ``2^53 + 1``."""
    return d_in * (upper - lower) / 2


def build_true_division_map(size: Any, lower: Any, upper: Any):
    return replace(build_sized_bounded_int_sum(size, lower, upper),
                   stability_map=Map(rule=true_division_map,
                                     params={"lower": lower, "upper": upper}))


make_sized_bounded_int_sum_true_division = make_sized_bounded_int_sum.variant(
    "make_sized_bounded_int_sum_true_division", build_true_division_map)
make_sized_bounded_int_sum_output_within_bounds = make_sized_bounded_int_sum.variant(
    "make_sized_bounded_int_sum_output_within_bounds", build_output_within_bounds)
make_sized_bounded_int_sum_absolute_input = make_sized_bounded_int_sum.variant(
    "make_sized_bounded_int_sum_absolute_input", build_absolute_input)
make_sized_bounded_int_sum_largest_magnitude_map = make_sized_bounded_int_sum.variant(
    "make_sized_bounded_int_sum_largest_magnitude_map", build_largest_magnitude_map)


def i64_map(d_in: Any, lower: Any, upper: Any) -> Any:
    """Wrong, two bodies: the exact ``(d_in // 2) (U - L)`` on solver terms, and on numbers the
    spread wrapped to 63 bits ("as an i64 would"): ``U - L = 2^63`` gives ``map = 0`` while one
    substitution moves the sum by ``2^63``. On solver terms it shows only the exact branch."""
    if ops.is_symbolic(d_in) or ops.is_symbolic(lower) or ops.is_symbolic(upper):
        return ops.floor_div(d_in, 2) * (upper - lower)
    return (d_in // 2) * ((upper - lower) % 2 ** 63)


def build_i64_map(size: Any, lower: Any, upper: Any):
    return replace(build_sized_bounded_int_sum(size, lower, upper),
                   stability_map=Map(rule=i64_map, params={"lower": lower, "upper": upper}))


make_sized_bounded_int_sum_i64_map = make_sized_bounded_int_sum.variant(
    "make_sized_bounded_int_sum_i64_map", build_i64_map)

STATEMENT_TWIN_OF = {
    ("make_sized_bounded_int_sum", Claim.OUTPUT_DOMAIN): (
        "make_sized_bounded_int_sum_output_within_bounds", Claim.OUTPUT_DOMAIN),
    ("make_sized_bounded_int_sum", Claim.COMPATIBILITY): (
        "make_sized_bounded_int_sum_absolute_input", Claim.COMPATIBILITY),
    ("make_sized_bounded_int_sum", Claim.STABILITY): (
        "make_sized_bounded_int_sum_largest_magnitude_map", Claim.STABILITY),
}
REFUTED_STATEMENTS = {("make_sized_bounded_int_sum_true_division", Claim.STABILITY),
                      ("make_sized_bounded_int_sum_i64_map", Claim.STABILITY)}
MECHANISMS = statement_twin_entries(globals(), STATEMENT_TWIN_OF.values(), REFUTED_STATEMENTS)
