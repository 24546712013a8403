"""Wrong twins of ``make_sized_bounded_int_sum``: each obligation has one the checker must refute
with a counterexample the real (wrong) code confirms."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms import ops
from mechanisms.core import Map
from mechanisms.domains import AtomDomain
from mechanisms.make_sized_bounded_int_sum import (build_sized_bounded_int_sum,
                                                   make_sized_bounded_int_sum)
from mechanisms.metrics import AbsoluteDistance
from obligations.base import Entry
from obligations.make_sized_bounded_int_sum import sized_bounded_int_sum_obligations


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

MECHANISMS = [
    Entry("make_sized_bounded_int_sum_output_within_bounds",
          make_sized_bounded_int_sum_output_within_bounds,
          sized_bounded_int_sum_obligations(make_sized_bounded_int_sum_output_within_bounds,
                                            "sized_int_sum_output_within_bounds")),
    Entry("make_sized_bounded_int_sum_absolute_input", make_sized_bounded_int_sum_absolute_input,
          sized_bounded_int_sum_obligations(make_sized_bounded_int_sum_absolute_input,
                                            "sized_int_sum_absolute_input")),
    Entry("make_sized_bounded_int_sum_largest_magnitude_map",
          make_sized_bounded_int_sum_largest_magnitude_map,
          sized_bounded_int_sum_obligations(make_sized_bounded_int_sum_largest_magnitude_map,
                                            "sized_int_sum_largest_magnitude_map")),
    Entry("make_sized_bounded_int_sum_true_division", make_sized_bounded_int_sum_true_division,
          sized_bounded_int_sum_obligations(make_sized_bounded_int_sum_true_division,
                                            "sized_int_sum_true_division")),
]

EXPECTED_REFUTATIONS = {
    "sized_int_sum_output_within_bounds.output_domain",
    "sized_int_sum_absolute_input.compatibility",
    "sized_int_sum_largest_magnitude_map.stability",
    "sized_int_sum_true_division.map_rounding",
}

TWIN_OF = {
    "sized_bounded_int_sum.output_domain": "sized_int_sum_output_within_bounds.output_domain",
    "sized_bounded_int_sum.compatibility": "sized_int_sum_absolute_input.compatibility",
    "sized_bounded_int_sum.stability": "sized_int_sum_largest_magnitude_map.stability",
    "sized_bounded_int_sum.map_rounding": "sized_int_sum_true_division.map_rounding",
}


def i64_map(d_in: Any, lower: Any, upper: Any) -> Any:
    """Wrong, two bodies: the exact ``(d_in // 2) (U - L)`` on solver terms, and on numbers the
    spread wrapped to 63 bits ("as an i64 would"): ``U - L = 2^63`` gives ``map = 0`` while one
    substitution moves the sum by ``2^63``. The symbolic goals see only the exact branch."""
    if ops.is_symbolic(d_in) or ops.is_symbolic(lower) or ops.is_symbolic(upper):
        return ops.floor_div(d_in, 2) * (upper - lower)
    return (d_in // 2) * ((upper - lower) % 2 ** 63)


def build_i64_map(size: Any, lower: Any, upper: Any):
    return replace(build_sized_bounded_int_sum(size, lower, upper),
                   stability_map=Map(rule=i64_map, params={"lower": lower, "upper": upper}))


make_sized_bounded_int_sum_i64_map = make_sized_bounded_int_sum.variant(
    "make_sized_bounded_int_sum_i64_map", build_i64_map)
MECHANISMS.append(Entry("make_sized_bounded_int_sum_i64_map", make_sized_bounded_int_sum_i64_map,
                        sized_bounded_int_sum_obligations(make_sized_bounded_int_sum_i64_map,
                                                          "sized_int_sum_i64_map")))
EXPECTED_REFUTATIONS.add("sized_int_sum_i64_map.map_rounding")
