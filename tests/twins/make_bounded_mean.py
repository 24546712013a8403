"""Wrong twins of ``make_bounded_mean`` beyond the seeds (tests/wrong_variants.py): a fold that
raises on every input, and a relaxation too small for binary64's rounding."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from mechanisms.core import Fold, Map
from mechanisms.make_bounded_mean import (LEAST_SUBNORMAL, build_bounded_mean, make_bounded_mean,
                                          mean_finalize, mean_map)
from mechanisms.make_sized_bounded_float_checked_sum import add_step, magnitude, sequential_error
from obligations.base import Entry
from obligations.make_bounded_mean import bounded_mean_obligations


def build_count_keyword(lower: Any, upper: Any, n: Any):
    """Wrong: finalize is passed ``count=n``, a keyword ``mean_finalize(total, n)`` does not take:
    every call raises ``TypeError`` (on numbers and on solver terms alike)."""
    return replace(build_bounded_mean(lower, upper, n),
                   function=Fold(add_step, mean_finalize, 0.0, {"count": n}))


def single_precision_relaxation(lower: Any, upper: Any, n: Any) -> Any:
    """Wrong: the relaxation with binary32's-looking constants scaled down (error scale ``2^-58``,
    unit roundoff ``2^-59``), too small for the binary64 sum and division the code runs."""
    error = sequential_error(n, lower, upper, Fraction(1, 2 ** 58))
    return (2 * error / n + 2 * Fraction(1, 2 ** 59) * (magnitude(lower, upper) + error / n)
            + LEAST_SUBNORMAL)


def build_small_relaxation(lower: Any, upper: Any, n: Any):
    return replace(build_bounded_mean(lower, upper, n), stability_map=Map(rule=mean_map, params={
        "lower": lower, "upper": upper, "n": n,
        "relaxation": single_precision_relaxation(lower, upper, n)}))


make_bounded_mean_count_keyword = make_bounded_mean.variant("make_bounded_mean_count_keyword",
                                                            build_count_keyword)
make_bounded_mean_small_relaxation = make_bounded_mean.variant(
    "make_bounded_mean_small_relaxation", build_small_relaxation)

MECHANISMS = [
    Entry("make_bounded_mean_count_keyword", make_bounded_mean_count_keyword,
          bounded_mean_obligations(make_bounded_mean_count_keyword, "mean_count_keyword")),
    Entry("make_bounded_mean_small_relaxation", make_bounded_mean_small_relaxation,
          bounded_mean_obligations(make_bounded_mean_small_relaxation, "mean_small_relaxation")),
]

EXPECTED_REFUTATIONS = {"mean_count_keyword.output_domain", "mean_small_relaxation.stability"}

TWIN_OF: dict[str, str] = {}
"""The catalogue's obligations have their twins among the seeds (tests/test_wrong_variants.py)."""
