"""Wrong twins of ``make_gaussian_threshold``: one refuted (with a confirmed counterexample) per
obligation, each a slip a porter of OpenDP's ``make_gaussian_threshold`` could make."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms.core import Map
from mechanisms.make_gaussian_threshold import (build_gaussian_threshold, gaussian_threshold_map,
                                                make_gaussian_threshold)
from mechanisms.make_laplace_threshold import threshold_sensitivities
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry
from obligations.make_gaussian_threshold import gaussian_threshold_obligations
from tests.twins.make_count_by import SwappedL01Inf
from tests.twins.make_laplace_threshold import FloatShift


def strict_tail_map(d_in: Any, scale: Any, threshold: Any, exp_lower: Any) -> Any:
    """Wrong, as in OpenDP 0.16 (opendp issue #2922): the tail Pr[Z > threshold - linf], although
    a key is released when its noisy count is >= threshold."""
    return gaussian_threshold_map(d_in, scale, threshold + 1, exp_lower)


def nearest_rho_map(d_in: Any, scale: Any, threshold: Any, exp_lower: Any) -> Any:
    """Wrong: rho = l1 linf / (2 scale^2) in floats rounded to nearest."""
    _, delta = gaussian_threshold_map(d_in, scale, threshold, exp_lower)
    _, l1, linf = threshold_sensitivities(d_in)
    return l1 * linf / (2 * scale * scale), delta


def _with_map(rule: Any):
    def build(carrier: type, scale: Any, threshold: Any):
        built = build_gaussian_threshold(carrier, scale, threshold)
        return replace(built, privacy_map=Map(rule=rule, params=built.privacy_map.params))
    return build


def build_float_shift(carrier: type, scale: Any, threshold: Any):
    built = build_gaussian_threshold(carrier, scale, threshold)
    f = built.function
    return replace(built, function=FloatShift(f.scale, f.threshold, f.sampler))


def build_symmetric_input(carrier: type, scale: Any, threshold: Any):
    """Wrong: symmetric distance is for vectors, not for histograms."""
    return replace(build_gaussian_threshold(carrier, scale, threshold),
                   input_metric=SymmetricDistance())


def build_swapped_metric(carrier: type, scale: Any, threshold: Any):
    return replace(build_gaussian_threshold(carrier, scale, threshold),
                   input_metric=SwappedL01Inf())


def _variant(name: str, build: Any):
    return make_gaussian_threshold.variant(name, build)


make_gaussian_threshold_float_shift = _variant("make_gaussian_threshold_float_shift",
                                               build_float_shift)
make_gaussian_threshold_symmetric_input = _variant("make_gaussian_threshold_symmetric_input",
                                                   build_symmetric_input)
make_gaussian_threshold_swapped_metric = _variant("make_gaussian_threshold_swapped_metric",
                                                  build_swapped_metric)
make_gaussian_threshold_strict_tail = _variant("make_gaussian_threshold_strict_tail",
                                               _with_map(strict_tail_map))
make_gaussian_threshold_nearest_rho = _variant("make_gaussian_threshold_nearest_rho",
                                               _with_map(nearest_rho_map))

_TWINS = [
    (make_gaussian_threshold_float_shift, "gaussian_threshold_float_shift"),
    (make_gaussian_threshold_symmetric_input, "gaussian_threshold_symmetric_input"),
    (make_gaussian_threshold_swapped_metric, "gaussian_threshold_swapped_metric"),
    (make_gaussian_threshold_strict_tail, "gaussian_threshold_strict_tail"),
    (make_gaussian_threshold_nearest_rho, "gaussian_threshold_nearest_rho"),
]

MECHANISMS = [Entry(c.name, c, gaussian_threshold_obligations(c, prefix)) for c, prefix in _TWINS]

EXPECTED_REFUTATIONS = {
    "gaussian_threshold_float_shift.output_domain",
    "gaussian_threshold_symmetric_input.compatibility",
    "gaussian_threshold_swapped_metric.metric_facts",
    "gaussian_threshold_strict_tail.privacy",
    "gaussian_threshold_nearest_rho.map_rounding",
}

TWIN_OF = {
    "gaussian_threshold.output_domain": "gaussian_threshold_float_shift.output_domain",
    "gaussian_threshold.compatibility": "gaussian_threshold_symmetric_input.compatibility",
    "gaussian_threshold.metric_facts": "gaussian_threshold_swapped_metric.metric_facts",
    "gaussian_threshold.privacy": "gaussian_threshold_strict_tail.privacy",
    "gaussian_threshold.map_rounding": "gaussian_threshold_nearest_rho.map_rounding",
}


def per_key_rho_map(d_in: Any, scale: Any, threshold: Any, exp_lower: Any) -> Any:
    """Wrong: rho = linf^2 / (2 scale^2), one key's change, the composition over keys forgotten."""
    _, delta = gaussian_threshold_map(d_in, scale, threshold, exp_lower)
    _, _, linf = threshold_sensitivities(d_in)
    return gaussian_threshold_map((1, linf, linf), scale, threshold, exp_lower)[0], delta


make_gaussian_threshold_per_key_rho = _variant("make_gaussian_threshold_per_key_rho",
                                               _with_map(per_key_rho_map))
MECHANISMS.append(Entry(make_gaussian_threshold_per_key_rho.name,
                        make_gaussian_threshold_per_key_rho,
                        gaussian_threshold_obligations(make_gaussian_threshold_per_key_rho,
                                                       "gaussian_threshold_per_key_rho")))
EXPECTED_REFUTATIONS.add("gaussian_threshold_per_key_rho.privacy")
