"""Wrong twins of ``make_sized_bounded_float_checked_sum``: each obligation has one the checker must
refute with a counterexample the real (wrong) code confirms."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import Any, Sequence

from mechanisms import ops

from mechanisms.core import Constructor, Map, Precondition
from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from mechanisms.make_sized_bounded_float_checked_sum import (
    ERRORS, SUM_PRECONDITIONS, PairwiseSum, build_sized_bounded_float_checked_sum, magnitude,
    make_sized_bounded_float_checked_sum, sum_map, validate_sum)
from mechanisms.arith import pow2_up
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry
from obligations.make_sized_bounded_float_checked_sum import sized_float_sum_obligations


def build_naive_map(size: Any, lower: Any, upper: Any, summation: str = "pairwise"):
    """Wrong: the real-number map ``floor(d_in / 2)(U - L)``, no rounding error term; float sums of
    neighbours in ``[0, 1]`` can differ by ``1 + 2^-52``."""
    return replace(build_sized_bounded_float_checked_sum(size, lower, upper, summation),
                   stability_map=Map(rule=sum_map, params={"lower": lower, "upper": upper,
                                                           "relaxation": 0}))


class BaselessPairwiseSum(PairwiseSum):
    """Wrong: the base case ``len(data) <= 0``: every non-empty input recurses forever."""

    def __call__(self, data: Sequence[Any]) -> Any:
        if len(data) <= 0:
            return data[0] if data else 0.0
        middle = self.split(len(data))
        return self.combine(self(data[:middle]), self(data[middle:]))


def build_baseless(size: Any, lower: Any, upper: Any, summation: str = "pairwise"):
    built = build_sized_bounded_float_checked_sum(size, lower, upper, summation)
    f = built.function
    return replace(built, function=BaselessPairwiseSum(f.combine, f.split)
                   if isinstance(f, PairwiseSum) else f)


def raised_float_max(size: Any, lower: Any, upper: Any, summation: str = "pairwise") -> Any:
    """Wrong: the overflow check against ``2^1024 + 2^971`` instead of the largest float."""
    return ops.le(size * pow2_up(magnitude(lower, upper)), Fraction(2 ** 1024 + 2 ** 971))


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
make_sized_float_sum_baseless = make_sized_bounded_float_checked_sum.variant(
    "make_sized_float_sum_baseless", build_baseless)
make_sized_float_sum_raised_float_max = Constructor(
    "make_sized_float_sum_raised_float_max", build_sized_bounded_float_checked_sum,
    SUM_PRECONDITIONS[:-1] + (Precondition(SUM_PRECONDITIONS[-1].text, raised_float_max,
                                           SUM_PRECONDITIONS[-1].error),), validate_sum)

MECHANISMS = [
    Entry("make_sized_float_sum_naive_map", make_sized_float_sum_naive_map,
          sized_float_sum_obligations(make_sized_float_sum_naive_map, "sized_float_sum_naive_map")),
    Entry("make_sized_float_sum_wide_domain", make_sized_float_sum_wide_domain,
          sized_float_sum_obligations(make_sized_float_sum_wide_domain,
                                      "sized_float_sum_wide_domain")),
    Entry("make_sized_float_sum_symmetric_output", make_sized_float_sum_symmetric_output,
          sized_float_sum_obligations(make_sized_float_sum_symmetric_output,
                                      "sized_float_sum_symmetric_output")),
    Entry("make_sized_float_sum_baseless", make_sized_float_sum_baseless,
          sized_float_sum_obligations(make_sized_float_sum_baseless, "sized_float_sum_baseless")),
    Entry("make_sized_float_sum_raised_float_max", make_sized_float_sum_raised_float_max,
          sized_float_sum_obligations(make_sized_float_sum_raised_float_max,
                                      "sized_float_sum_raised_float_max")),
]

EXPECTED_REFUTATIONS = {
    "sized_float_sum_naive_map.stability",
    "sized_float_sum_wide_domain.output_domain",
    "sized_float_sum_symmetric_output.compatibility",
    "sized_float_sum_baseless.output_domain",
    "sized_float_sum_raised_float_max.output_domain",
}

TWIN_OF = {
    "sized_bounded_float_checked_sum.stability": "sized_float_sum_naive_map.stability",
    "sized_bounded_float_checked_sum.output_domain": "sized_float_sum_wide_domain.output_domain",
    "sized_bounded_float_checked_sum.compatibility":
        "sized_float_sum_symmetric_output.compatibility",
}


def build_small_scale(size: Any, lower: Any, upper: Any, summation: str = "pairwise"):
    """Wrong: the error terms with mantissa scale ``2^-58`` for binary64's ``2^-52``: the sum runs
    in binary64, so its rounding error is up to 64 times the relaxation."""
    built = build_sized_bounded_float_checked_sum(size, lower, upper, summation)
    relaxation = 2 * ERRORS[summation](size, lower, upper, Fraction(1, 2 ** 58))
    return replace(built, stability_map=Map(rule=sum_map, params={
        "lower": lower, "upper": upper, "relaxation": relaxation}))


def numbers_only_relaxation_map(d_in: Any, lower: Any, upper: Any, relaxation: Any) -> Any:
    """Wrong, two bodies: the catalogue's map on solver terms, and on numbers the relaxation
    halved ("one sum's error is enough"): the symbolic goals see only the first branch."""
    if ops.is_symbolic(d_in) or ops.is_symbolic(lower) or ops.is_symbolic(upper):
        return sum_map(d_in, lower, upper, relaxation)
    return sum_map(d_in, lower, upper, relaxation / 2)


def build_numbers_only_relaxation(size: Any, lower: Any, upper: Any, summation: str = "pairwise"):
    built = build_sized_bounded_float_checked_sum(size, lower, upper, summation)
    return replace(built, stability_map=Map(rule=numbers_only_relaxation_map,
                                            params=dict(built.stability_map.params)))


make_sized_float_sum_small_scale = make_sized_bounded_float_checked_sum.variant(
    "make_sized_float_sum_small_scale", build_small_scale)
make_sized_float_sum_numbers_only_relaxation = make_sized_bounded_float_checked_sum.variant(
    "make_sized_float_sum_numbers_only_relaxation", build_numbers_only_relaxation)
MECHANISMS += [
    Entry("make_sized_float_sum_small_scale", make_sized_float_sum_small_scale,
          sized_float_sum_obligations(make_sized_float_sum_small_scale,
                                      "sized_float_sum_small_scale")),
    Entry("make_sized_float_sum_numbers_only_relaxation",
          make_sized_float_sum_numbers_only_relaxation,
          sized_float_sum_obligations(make_sized_float_sum_numbers_only_relaxation,
                                      "sized_float_sum_numbers_only_relaxation")),
]
EXPECTED_REFUTATIONS |= {"sized_float_sum_small_scale.stability",
                         "sized_float_sum_numbers_only_relaxation.map_rounding"}


def build_fsum_naive_map(size: Any, lower: Any, upper: Any, summation: str = "pairwise"):
    """Wrong: the builtin ``math.fsum`` (correctly rounded) under the real-number map
    ``floor(d_in / 2)(U - L)``: each fsum still rounds, so neighbours' sums can differ by more."""
    return replace(build_naive_map(size, lower, upper, summation), function=math.fsum)


def build_fsum(size: Any, lower: Any, upper: Any, summation: str = "pairwise"):
    return replace(build_sized_bounded_float_checked_sum(size, lower, upper, summation),
                   function=math.fsum)


def build_fsum_wrapper(size: Any, lower: Any, upper: Any, summation: str = "pairwise"):
    """Outside the method: a lambda around ``math.fsum`` is not the builtin itself."""
    return replace(build_sized_bounded_float_checked_sum(size, lower, upper, summation),
                   function=lambda v: math.fsum(v))


make_sized_float_sum_fsum_naive_map = make_sized_bounded_float_checked_sum.variant(
    "make_sized_float_sum_fsum_naive_map", build_fsum_naive_map)
make_sized_float_sum_fsum_raised_float_max = Constructor(
    "make_sized_float_sum_fsum_raised_float_max", build_fsum,
    make_sized_float_sum_raised_float_max.preconditions, validate_sum)
"""Wrong: ``math.fsum`` with the overflow check against ``2^1024 + 2^971``: ``[2^1023] * 2`` is
admitted, and fsum raises ``OverflowError`` on it."""
make_sized_float_sum_fsum_wrapper = make_sized_bounded_float_checked_sum.variant(
    "make_sized_float_sum_fsum_wrapper", build_fsum_wrapper)
MECHANISMS += [
    Entry("make_sized_float_sum_fsum_naive_map", make_sized_float_sum_fsum_naive_map,
          sized_float_sum_obligations(make_sized_float_sum_fsum_naive_map,
                                      "sized_float_sum_fsum_naive_map")),
    Entry("make_sized_float_sum_fsum_raised_float_max", make_sized_float_sum_fsum_raised_float_max,
          sized_float_sum_obligations(make_sized_float_sum_fsum_raised_float_max,
                                      "sized_float_sum_fsum_raised_float_max")),
]
EXPECTED_REFUTATIONS |= {"sized_float_sum_fsum_naive_map.stability",
                         "sized_float_sum_fsum_raised_float_max.output_domain"}
UNSUPPORTED = [Entry("make_sized_float_sum_fsum_wrapper", make_sized_float_sum_fsum_wrapper,
                     sized_float_sum_obligations(make_sized_float_sum_fsum_wrapper,
                                                 "sized_float_sum_fsum_wrapper"))]
