"""Wrong twins of ``make_gaussian_threshold``: one refuted (with a confirmed counterexample) per
obligation, each a slip a porter of OpenDP's ``make_gaussian_threshold`` could make."""

from __future__ import annotations

from typing import Any

from mechanisms.make_gaussian_threshold import (build_gaussian_threshold, gaussian_threshold_map,
                                                make_gaussian_threshold)
from mechanisms.make_laplace_threshold import threshold_sensitivities
from obligations.base import Entry
from obligations.make_gaussian_threshold import gaussian_threshold_obligations
from tests.twins.make_laplace_threshold import (float_shift, swapped_metric, symmetric_input,
                                                 with_map)


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
    return with_map(build_gaussian_threshold, rule, __name__)


build_float_shift = float_shift(build_gaussian_threshold, __name__)
build_symmetric_input = symmetric_input(build_gaussian_threshold, __name__)
build_swapped_metric = swapped_metric(build_gaussian_threshold, __name__)


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
