"""Deliberately wrong variants of the catalogue. Each one must be refuted by the checker with a
counterexample that the real implementation confirms (tests/test_wrong_variants.py).

This file is also a complete example of a module checked from outside the catalogue:
``dpcert check tests/wrong_variants.py`` loads ``MECHANISMS`` and checks every entry.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms import ops
from mechanisms.core import Map, RowTransform
from mechanisms.make_bounded_mean import build_bounded_mean, make_bounded_mean
from mechanisms.make_clamp import build_clamp, make_clamp
from mechanisms.make_partition_map import (PartitionFunction, build_partition_map,
                                           make_partition_map, partition_bound)
from mechanisms.make_randomized_response import (RandomizedResponse, build_randomized_response,
                                                 make_randomized_response, rr_privacy_map)
from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import Entry
from obligations.make_bounded_mean import bounded_mean_obligations
from obligations.make_clamp import clamp_obligations
from obligations.make_partition_map import partition_map_obligations
from obligations.make_randomized_response import randomized_response_obligations


def half(d_in: Any) -> Any:
    """Wrong: clamping is 1-stable, not 1/2-stable."""
    return d_in / 2


def build_clamp_half_map(lower: Any, upper: Any):
    return replace(build_clamp(lower, upper), stability_map=Map(rule=half))


def clamp_without_nan_guard(x: Any, lower: Any, upper: Any) -> Any:
    """Wrong: ``max(min(nan, U), L)`` is NaN, outside [L, U]."""
    return ops.maximum(ops.minimum(x, upper), lower)


def build_clamp_nan_leak(lower: Any, upper: Any):
    return replace(build_clamp(lower, upper),
                   function=RowTransform(clamp_without_nan_guard, {"lower": lower, "upper": upper}))


def quarter_sensitivity(lower: Any, upper: Any, n: Any) -> Any:
    """Wrong: one substitution moves the mean by (U - L) / n, which costs d_in = 2."""
    return (upper - lower) / (4 * n)


def build_bounded_mean_quarter(lower: Any, upper: Any, n: Any):
    return replace(build_bounded_mean(lower, upper, n),
                   stability_map=Map(constant=quarter_sensitivity,
                                     params={"lower": lower, "upper": upper, "n": n}))


def build_rr_two_category_map(categories: Any, prob: Any):
    """Wrong for t >= 3: the two-category constant ln(p / (1 - p)) drops the factor t - 1."""
    p = ops.exact(prob)
    return replace(build_randomized_response(categories, prob),
                   privacy_map=Map(rule=rr_privacy_map, params={"epsilon": ops.ln_up(p / (1 - p))}))


def build_partition_map_seed_max(transformations: Any):
    """Wrong: the seed's max over component maps, whatever they are."""
    built = build_partition_map(transformations)
    return replace(built, stability_map=Map(rule=partition_bound, params={
        "maps": built.stability_map.params["maps"], "combine": ops.maximum}))


make_clamp_half_map = make_clamp.variant("make_clamp_half_map", build_clamp_half_map)
make_clamp_nan_leak = make_clamp.variant("make_clamp_nan_leak", build_clamp_nan_leak)
make_bounded_mean_quarter = make_bounded_mean.variant("make_bounded_mean_quarter",
                                                      build_bounded_mean_quarter)
make_rr_two_category_map = make_randomized_response.variant("make_rr_two_category_map",
                                                            build_rr_two_category_map)
make_partition_map_seed_max = make_partition_map.variant("make_partition_map_seed_max",
                                                         build_partition_map_seed_max)

MECHANISMS = [
    Entry("make_clamp_half_map", make_clamp_half_map,
          clamp_obligations(make_clamp_half_map, "clamp_half_map")),
    Entry("make_clamp_nan_leak", make_clamp_nan_leak,
          clamp_obligations(make_clamp_nan_leak, "clamp_nan_leak")),
    Entry("make_bounded_mean_quarter", make_bounded_mean_quarter,
          bounded_mean_obligations(make_bounded_mean_quarter, "bounded_mean_quarter")),
    Entry("make_rr_two_category_map", make_rr_two_category_map,
          randomized_response_obligations(make_rr_two_category_map, "rr_two_category_map")),
    Entry("make_partition_map_seed_max", make_partition_map_seed_max,
          partition_map_obligations(make_partition_map_seed_max, "partition_map_seed_max")),
]
"""Every wrong variant and the obligation it must fail."""

EXPECTED_REFUTATIONS = {
    "clamp_half_map.stability",
    "clamp_nan_leak.output_domain",
    "bounded_mean_quarter.stability",
    "rr_two_category_map.privacy",
    "partition_map_seed_max.stability",
}


# Wrong twins of the remaining obligations: domains, compatibility, the sampler.

def build_bounded_mean_unbounded_rows(lower: Any, upper: Any, n: Any):
    """Wrong: rows are any non-NaN float (bounds dropped), so ``inf + -inf`` gives NaN."""
    return replace(build_bounded_mean(lower, upper, n),
                   input_domain=SizedDomain(VectorDomain(AtomDomain(float)), n))


def build_bounded_mean_wide_domain(lower: Any, upper: Any, n: Any):
    """Wrong: admits rows up to 2U - L while the map still assumes [L, U]."""
    built = build_bounded_mean(lower, upper, n)
    return replace(built, input_domain=SizedDomain(VectorDomain(AtomDomain(
        float, bounds=(lower, 2 * upper - lower))), n))


def build_clamp_absolute_output(lower: Any, upper: Any):
    """Wrong: absolute distance is not defined on vectors."""
    return replace(build_clamp(lower, upper), output_metric=AbsoluteDistance())


def build_bounded_mean_absolute_input(lower: Any, upper: Any, n: Any):
    """Wrong: absolute distance is not defined on sized vectors."""
    return replace(build_bounded_mean(lower, upper, n), input_metric=AbsoluteDistance())


class DrawsAmongAll(RandomizedResponse):
    """Wrong: a member draws its lie among all t categories, so ``lie_index`` can reach t."""

    @staticmethod
    def draw_bound(index: Any, num_categories: Any) -> Any:
        return num_categories


class LiesWithoutSkipping(RandomizedResponse):
    """Wrong: the lie does not skip the true category, so a lie can be the truth."""

    @staticmethod
    def lie_index(sample: Any, index: Any) -> Any:
        return sample


def build_rr_with(function_class: type):
    def build(categories: Any, prob: Any):
        built = build_randomized_response(categories, prob)
        return replace(built, function=function_class(built.function.categories, prob))
    return build


def build_rr_symmetric_input(categories: Any, prob: Any):
    """Wrong: symmetric distance is for vectors, the input is one category."""
    return replace(build_randomized_response(categories, prob), input_metric=SymmetricDistance())


def build_partition_map_reversed(transformations: Any):
    """Wrong: feeds partition i to the component k - 1 - i."""
    built = build_partition_map(transformations)
    return replace(built, function=PartitionFunction(tuple(reversed(built.function.functions))))


def build_partition_map_flat_metric(transformations: Any):
    """Wrong: one symmetric distance over all partitions is not defined on a product domain."""
    return replace(build_partition_map(transformations), input_metric=SymmetricDistance())


make_bounded_mean_unbounded_rows = make_bounded_mean.variant("make_bounded_mean_unbounded_rows",
                                                             build_bounded_mean_unbounded_rows)
make_bounded_mean_wide_domain = make_bounded_mean.variant("make_bounded_mean_wide_domain",
                                                          build_bounded_mean_wide_domain)
make_clamp_absolute_output = make_clamp.variant("make_clamp_absolute_output",
                                                build_clamp_absolute_output)
make_bounded_mean_absolute_input = make_bounded_mean.variant("make_bounded_mean_absolute_input",
                                                             build_bounded_mean_absolute_input)
make_rr_draws_among_all = make_randomized_response.variant("make_rr_draws_among_all",
                                                           build_rr_with(DrawsAmongAll))
make_rr_lies_without_skipping = make_randomized_response.variant(
    "make_rr_lies_without_skipping", build_rr_with(LiesWithoutSkipping))
make_rr_symmetric_input = make_randomized_response.variant("make_rr_symmetric_input",
                                                           build_rr_symmetric_input)
make_partition_map_reversed = make_partition_map.variant("make_partition_map_reversed",
                                                         build_partition_map_reversed)
make_partition_map_flat_metric = make_partition_map.variant("make_partition_map_flat_metric",
                                                            build_partition_map_flat_metric)

MECHANISMS += [
    Entry("make_bounded_mean_unbounded_rows", make_bounded_mean_unbounded_rows,
          bounded_mean_obligations(make_bounded_mean_unbounded_rows, "bounded_mean_unbounded_rows")),
    Entry("make_bounded_mean_wide_domain", make_bounded_mean_wide_domain,
          bounded_mean_obligations(make_bounded_mean_wide_domain, "bounded_mean_wide_domain")),
    Entry("make_clamp_absolute_output", make_clamp_absolute_output,
          clamp_obligations(make_clamp_absolute_output, "clamp_absolute_output")),
    Entry("make_bounded_mean_absolute_input", make_bounded_mean_absolute_input,
          bounded_mean_obligations(make_bounded_mean_absolute_input, "bounded_mean_absolute_input")),
    Entry("make_rr_draws_among_all", make_rr_draws_among_all,
          randomized_response_obligations(make_rr_draws_among_all, "rr_draws_among_all")),
    Entry("make_rr_lies_without_skipping", make_rr_lies_without_skipping,
          randomized_response_obligations(make_rr_lies_without_skipping, "rr_lies_without_skipping")),
    Entry("make_rr_symmetric_input", make_rr_symmetric_input,
          randomized_response_obligations(make_rr_symmetric_input, "rr_symmetric_input")),
    Entry("make_partition_map_reversed", make_partition_map_reversed,
          partition_map_obligations(make_partition_map_reversed, "partition_map_reversed")),
    Entry("make_partition_map_flat_metric", make_partition_map_flat_metric,
          partition_map_obligations(make_partition_map_flat_metric, "partition_map_flat_metric")),
]

EXPECTED_REFUTATIONS |= {
    "bounded_mean_unbounded_rows.output_domain",
    "bounded_mean_wide_domain.stability",
    "clamp_absolute_output.compatibility",
    "bounded_mean_absolute_input.compatibility",
    "rr_draws_among_all.output_domain",
    "rr_draws_among_all.runtime_errors",
    "rr_lies_without_skipping.distribution",
    "rr_symmetric_input.compatibility",
    "partition_map_reversed.output_domain",
    "partition_map_flat_metric.compatibility",
}


# Outside what the proofs support: never proved, reported unknown ("unsupported").

class AlwaysFirst(RandomizedResponse):
    """Bypasses the checked kernels and always answers the first category. Its own ``__call__``
    is enumerated (the randomized response path method): it returns a category and never raises
    (proved), but its law is a point mass (distribution refuted, confirmed)."""

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        return self.categories[0]


def first_rows(data: Any) -> Any:
    """Not a row transform: keeps the first row only."""
    return list(data[:1])


def build_clamp_not_row_by_row(lower: Any, upper: Any):
    return replace(build_clamp(lower, upper), function=first_rows)


make_rr_always_first = make_randomized_response.variant("make_rr_always_first",
                                                        build_rr_with(AlwaysFirst))
make_clamp_not_row_by_row = make_clamp.variant("make_clamp_not_row_by_row",
                                               build_clamp_not_row_by_row)

MECHANISMS.append(Entry("make_rr_always_first", make_rr_always_first,
                        randomized_response_obligations(make_rr_always_first, "rr_always_first")))
EXPECTED_REFUTATIONS.add("rr_always_first.distribution")

UNSUPPORTED = [
    Entry("make_clamp_not_row_by_row", make_clamp_not_row_by_row,
          clamp_obligations(make_clamp_not_row_by_row, "clamp_not_row_by_row")),
]
"""Variants whose code the proof methods do not cover: their obligations must come out unknown
with an "unsupported" reason (tests/test_wrong_variants.py), or refuted, never proved."""
