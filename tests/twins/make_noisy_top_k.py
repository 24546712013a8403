"""Wrong twins of ``make_noisy_top_k``, one per obligation: each a slip a port of OpenDP's
``make_noisy_top_k`` (or of report-noisy-max extended to k indices) could make, refuted with a
counterexample that the real code confirms."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from mechanisms import ops
from mechanisms.core import Constructor, Map, Precondition
from mechanisms.errors import TooFewCandidatesError, TopKError
from mechanisms.make_noisy_top_k import (NOISY_TOP_K_PRECONDITIONS, NoisyTopK, build_noisy_top_k,
                                         make_noisy_top_k, validate_noisy_top_k)
from mechanisms.make_report_noisy_max import NoisyMax, noisy_max_map
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import AbsoluteDistance
from mechanisms.samplers import system_rng
from obligations.base import Entry
from obligations.make_noisy_top_k import noisy_top_k_obligations
from tests.twins.make_maps_rounded_to_nearest import nearest


@dataclass(frozen=True)
class WithoutRemoval(NoisyTopK):
    """Wrong (output domain): each round draws among the remaining candidates but the index is
    read, not popped (``remaining[position]``), so the same index can come out twice."""

    def __call__(self, scores: Sequence[Any], rng: Any = None) -> list[int]:
        rng = system_rng(rng)
        remaining = list(range(len(scores)))
        chosen: list[int] = []
        for _ in range(self.k):
            position = self.selector([scores[i] for i in remaining], rng)
            chosen.append(remaining[position])
        return chosen


@dataclass(frozen=True)
class StrictLength(NoisyTopK):
    """Wrong (runtime errors): a length check the input domain makes needless (it holds only
    ``n >= k`` scores), written ``n <= k`` (OpenDP's "k must not exceed the number of candidates"
    negated off by one): the full ranking ``k = n``, which the domain admits, raises."""

    def __call__(self, scores: Sequence[Any], rng: Any = None) -> list[int]:
        if len(scores) <= self.k:
            raise TooFewCandidatesError(scores, self.k)
        rng = system_rng(rng)
        remaining = list(range(len(scores)))
        chosen: list[int] = []
        for _ in range(self.k):
            position = self.selector([scores[i] for i in remaining], rng)
            chosen.append(remaining.pop(position))
        return chosen


def build_without_removal(k: Any, scale: Any, optimize: str = "max",
                          measure: Any = MaxDivergence(), monotonic: bool = False,
                          T: type = float):
    built = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    return replace(built, function=WithoutRemoval(built.function.selector, k))


def build_strict_length(k: Any, scale: Any, optimize: str = "max",
                        measure: Any = MaxDivergence(), monotonic: bool = False,
                        T: type = float):
    built = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    return replace(built, function=StrictLength(built.function.selector, k))


def build_absolute_input(k: Any, scale: Any, optimize: str = "max",
                         measure: Any = MaxDivergence(), monotonic: bool = False,
                        T: type = float):
    """Wrong (compatibility): the input metric of a scalar noise mechanism, the absolute
    distance, which is not defined on vectors of scores."""
    return replace(build_noisy_top_k(k, scale, optimize, measure, monotonic, T),
                   input_metric=AbsoluteDistance())


def build_split_scale(k: Any, scale: Any, optimize: str = "max",
                      measure: Any = MaxDivergence(), monotonic: bool = False,
                      T: type = float):
    """Wrong (distribution): the scale read as a total and split over the rounds, each round at
    ``scale / k``: every round is sharper than the stated law (and the map, which assumes
    ``scale`` per round, no longer bounds the loss)."""
    built = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    selector = built.function.selector
    return replace(built, function=NoisyTopK(NoisyMax(ops.exact(scale) / k, selector.sign), k))


def build_one_round_map(k: Any, scale: Any, optimize: str = "max",
                        measure: Any = MaxDivergence(), monotonic: bool = False,
                        T: type = float):
    """Wrong (privacy): report-noisy-max's map ``2 d_in / scale`` kept for k indices (the factor
    ``k`` of the rounds' composition dropped)."""
    built = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    if type(measure) is not MaxDivergence:
        return built
    return replace(built, privacy_map=Map(rule=noisy_max_map, params={"scale": scale}))


def monotonic_zcdp_map(d_in: Any, k: Any, scale: Any, width: Any) -> Any:
    """Wrong: OpenDP's zCDP map for a MONOTONIC LInf metric, ``k (d_in / scale)^2 / 8``, whatever
    the metric: on the non-monotonic one the range is ``2 d_in``, not ``d_in``."""
    from mechanisms.arith import div_up
    exact_d_in, exact_scale = ops.exact(d_in), ops.exact(scale)
    return div_up(k * exact_d_in * exact_d_in, 8 * exact_scale * exact_scale)


def build_monotonic_zcdp(k: Any, scale: Any, optimize: str = "max",
                         measure: Any = MaxDivergence(), monotonic: bool = False,
                        T: type = float):
    built = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    if type(measure) is MaxDivergence:
        return built
    return replace(built, privacy_map=Map(rule=monotonic_zcdp_map, params=built.privacy_map.params))


def build_monotonic_pure(k: Any, scale: Any, optimize: str = "max",
                         measure: Any = MaxDivergence(), monotonic: bool = False,
                         T: type = float):
    """Wrong (privacy): the monotonic range factor ``w = 1`` used with the two-way LInf metric
    (OpenDP's ``range_distance`` not doubled): the pure map ``k d_in / scale`` is half of what two
    scores moving apart can cost."""
    built = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    return replace(built, privacy_map=Map(rule=built.privacy_map.rule,
                                          params={**built.privacy_map.params, "width": 1}))


def nearest_pure_map(d_in: Any, k: Any, scale: Any, width: Any) -> Any:
    """Wrong (map rounding): ``k w d_in / scale`` to nearest, which can fall below the exact
    value."""
    return nearest(width * k * ops.exact(d_in) / ops.exact(scale))


def build_nearest_map(k: Any, scale: Any, optimize: str = "max",
                      measure: Any = MaxDivergence(), monotonic: bool = False,
                      T: type = float):
    built = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    if type(measure) is not MaxDivergence:
        return built
    return replace(built, privacy_map=Map(rule=nearest_pure_map, params=built.privacy_map.params))


make_topk_without_removal = make_noisy_top_k.variant("make_topk_without_removal",
                                                     build_without_removal)
make_topk_absolute_input = make_noisy_top_k.variant("make_topk_absolute_input",
                                                    build_absolute_input)
make_topk_strict_length = make_noisy_top_k.variant("make_topk_strict_length",
                                                   build_strict_length)
make_topk_split_scale = make_noisy_top_k.variant("make_topk_split_scale", build_split_scale)
make_topk_one_round_map = make_noisy_top_k.variant("make_topk_one_round_map",
                                                   build_one_round_map)
make_topk_monotonic_zcdp = make_noisy_top_k.variant("make_topk_monotonic_zcdp",
                                                    build_monotonic_zcdp)
make_topk_monotonic_pure = make_noisy_top_k.variant("make_topk_monotonic_pure",
                                                    build_monotonic_pure)
make_topk_nearest_map = make_noisy_top_k.variant("make_topk_nearest_map", build_nearest_map)

make_topk_zero_rounds = Constructor(
    "make_topk_zero_rounds", build_noisy_top_k,
    (Precondition("k >= 0", lambda k, **_: ops.le(0, k), lambda k, **_: TopKError(k)),
     *NOISY_TOP_K_PRECONDITIONS[1:]), validate_noisy_top_k)
"""Wrong: ``k = 0`` admitted (mutant ``make_noisy_top_k:121:50:constant:1->0``): its pure map at
``d_in = +inf`` is ``0 * inf = NaN`` and its zCDP map there raises."""

_TWINS = (make_topk_without_removal, make_topk_absolute_input, make_topk_strict_length,
          make_topk_split_scale, make_topk_one_round_map, make_topk_monotonic_zcdp,
          make_topk_monotonic_pure, make_topk_zero_rounds)
MECHANISMS = [Entry(c.name, c, noisy_top_k_obligations(c, c.name.removeprefix("make_")))
              for c in _TWINS]
MECHANISMS.append(Entry(make_topk_nearest_map.name, make_topk_nearest_map, tuple(
    o for o in noisy_top_k_obligations(make_topk_nearest_map, "topk_nearest_map")
    if o.id.endswith(".map_rounding"))))
"""The to-nearest twin branches on solver terms (``nearest``, as the maps' twins in
make_maps_rounded_to_nearest.py): only its map_rounding is checked."""

EXPECTED_REFUTATIONS = {
    "topk_without_removal.output_domain",
    "topk_without_removal.distribution",
    "topk_absolute_input.compatibility",
    "topk_strict_length.runtime_errors",
    "topk_strict_length.output_domain",
    "topk_split_scale.distribution",
    "topk_one_round_map.privacy",
    "topk_monotonic_zcdp.privacy_zcdp",
    "topk_nearest_map.map_rounding",
    "topk_zero_rounds.privacy",
    "topk_zero_rounds.privacy_zcdp",
}

TWIN_OF = {
    "noisy_top_k.output_domain": "topk_without_removal.output_domain",
    "noisy_top_k.compatibility": "topk_absolute_input.compatibility",
    "noisy_top_k.runtime_errors": "topk_strict_length.runtime_errors",
    "noisy_top_k.distribution": "topk_split_scale.distribution",
    "noisy_top_k.privacy": "topk_one_round_map.privacy",
    "noisy_top_k.privacy_zcdp": "topk_monotonic_zcdp.privacy_zcdp",
    "noisy_top_k.map_rounding": "topk_nearest_map.map_rounding",
}
