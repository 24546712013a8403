"""Wrong twins of ``make_sized_bounded_float_checked_sum``: each obligation has one the checker must
refute with a counterexample the real (wrong) code confirms."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms.core import Map
from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from mechanisms.make_sized_bounded_float_checked_sum import (
    build_sized_bounded_float_checked_sum, make_sized_bounded_float_checked_sum, sum_map)
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry
from obligations.make_sized_bounded_float_checked_sum import sized_float_sum_obligations


def build_naive_map(size: Any, lower: Any, upper: Any, summation: str = "pairwise"):
    """Wrong: the real-number map ``floor(d_in / 2)(U - L)``, no rounding error term; float sums of
    neighbours in ``[0, 1]`` can differ by ``1 + 2^-52``."""
    return replace(build_sized_bounded_float_checked_sum(size, lower, upper, summation),
                   stability_map=Map(rule=sum_map, params={"lower": lower, "upper": upper,
                                                           "relaxation": 0}))


def build_wide_domain(size: Any, lower: Any, upper: Any, summation: str = "pairwise"):
    """Wrong: rows are any non-NaN float (bounds dropped), so ``inf + -inf`` gives NaN."""
    return replace(build_sized_bounded_float_checked_sum(size, lower, upper, summation),
                   input_domain=SizedDomain(VectorDomain(AtomDomain(float)), size))


def build_symmetric_output(size: Any, lower: Any, upper: Any, summation: str = "pairwise"):
    """Wrong: symmetric distance is not defined on a float atom domain."""
    return replace(build_sized_bounded_float_checked_sum(size, lower, upper, summation),
                   output_metric=SymmetricDistance())


make_sized_float_sum_naive_map = make_sized_bounded_float_checked_sum.variant(
    "make_sized_float_sum_naive_map", build_naive_map)
make_sized_float_sum_wide_domain = make_sized_bounded_float_checked_sum.variant(
    "make_sized_float_sum_wide_domain", build_wide_domain)
make_sized_float_sum_symmetric_output = make_sized_bounded_float_checked_sum.variant(
    "make_sized_float_sum_symmetric_output", build_symmetric_output)

MECHANISMS = [
    Entry("make_sized_float_sum_naive_map", make_sized_float_sum_naive_map,
          sized_float_sum_obligations(make_sized_float_sum_naive_map, "sized_float_sum_naive_map")),
    Entry("make_sized_float_sum_wide_domain", make_sized_float_sum_wide_domain,
          sized_float_sum_obligations(make_sized_float_sum_wide_domain,
                                      "sized_float_sum_wide_domain")),
    Entry("make_sized_float_sum_symmetric_output", make_sized_float_sum_symmetric_output,
          sized_float_sum_obligations(make_sized_float_sum_symmetric_output,
                                      "sized_float_sum_symmetric_output")),
]

EXPECTED_REFUTATIONS = {
    "sized_float_sum_naive_map.stability",
    "sized_float_sum_wide_domain.output_domain",
    "sized_float_sum_symmetric_output.compatibility",
}

TWIN_OF = {
    "sized_bounded_float_checked_sum.stability": "sized_float_sum_naive_map.stability",
    "sized_bounded_float_checked_sum.output_domain": "sized_float_sum_wide_domain.output_domain",
    "sized_bounded_float_checked_sum.compatibility":
        "sized_float_sum_symmetric_output.compatibility",
}
