"""Wrong twins of ``make_laplace_threshold``: one refuted (with a confirmed counterexample) per
obligation, each a slip a porter of OpenDP's ``make_laplace_threshold`` could make."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from mechanisms.core import Map, Measurement
from mechanisms.make_laplace_threshold import (ThresholdedNoise, build_laplace_threshold,
                                               laplace_threshold_map, make_laplace_threshold,
                                               threshold_sensitivities)
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry
from obligations.make_laplace_threshold import laplace_threshold_obligations
from tests.twins.make_count_by import SwappedL01Inf


class FloatShift(ThresholdedNoise):
    """Wrong: the noisy count as a float (``count + 1.0 * noise``), outside the int values."""

    @staticmethod
    def shift(count: Any, noise: Any) -> Any:
        return count + 1.0 * noise


def strict_tail_map(d_in: Any, scale: Any, threshold: Any, exp_lower: Any) -> Any:
    """Wrong, as in OpenDP 0.16 (opendp issue #2922): delta from Pr[Z > threshold - linf]
    although a key is released when its noisy count is >= threshold."""
    return laplace_threshold_map(d_in, scale, threshold + 1, exp_lower)


def one_key_delta_map(d_in: Any, scale: Any, threshold: Any, exp_lower: Any) -> Any:
    """Wrong: delta for one key only, whatever l0 (the union bound over keys dropped)."""
    l0, _, _ = d_in
    epsilon, delta = laplace_threshold_map(d_in, scale, threshold, exp_lower)
    _, single = laplace_threshold_map((1, d_in[1], d_in[2]), scale, threshold, exp_lower)
    return epsilon, single


def nearest_epsilon_map(d_in: Any, scale: Any, threshold: Any, exp_lower: Any) -> Any:
    """Wrong: epsilon = l1 / scale rounded to nearest (may fall below the exact quotient)."""
    _, delta = laplace_threshold_map(d_in, scale, threshold, exp_lower)
    _, l1, _ = threshold_sensitivities(d_in)
    return l1 / scale, delta


Build = Callable[..., Measurement]


def _owned(build: Build, module: str) -> Build:
    """``build``, reported as defined in ``module`` (the twins module that uses it: the report
    describes a twin by its build's module)."""
    build.__module__ = module
    return build


def with_map(base: Build, rule: Any, module: str = __name__) -> Build:
    """The build ``base`` with its privacy map's rule replaced by ``rule`` (same params).
    Shared with the twins of ``make_gaussian_threshold``."""
    def build(carrier: type, scale: Any, threshold: Any):
        built = base(carrier, scale, threshold)
        return replace(built, privacy_map=Map(rule=rule, params=built.privacy_map.params))
    return _owned(build, module)


def float_shift(base: Build, module: str = __name__) -> Build:
    """The build ``base`` with :class:`FloatShift` as its function (same scale, threshold and
    sampler). Shared with the twins of ``make_gaussian_threshold``."""
    def build_float_shift(carrier: type, scale: Any, threshold: Any):
        built = base(carrier, scale, threshold)
        f = built.function
        return replace(built, function=FloatShift(f.scale, f.threshold, f.sampler))
    return _owned(build_float_shift, module)


def symmetric_input(base: Build, module: str = __name__) -> Build:
    """The build ``base`` with the symmetric distance as its input metric. Shared with the twins
    of ``make_gaussian_threshold``."""
    def build_symmetric_input(carrier: type, scale: Any, threshold: Any):
        """Wrong: symmetric distance is for vectors, not for histograms."""
        return replace(base(carrier, scale, threshold), input_metric=SymmetricDistance())
    return _owned(build_symmetric_input, module)


def swapped_metric(base: Build, module: str = __name__) -> Build:
    """The build ``base`` with an L01Inf metric whose stated facts are swapped. Shared with the
    twins of ``make_gaussian_threshold``."""
    def build_swapped_metric(carrier: type, scale: Any, threshold: Any):
        return replace(base(carrier, scale, threshold), input_metric=SwappedL01Inf())
    return _owned(build_swapped_metric, module)


def _with_map(rule: Any):
    return with_map(build_laplace_threshold, rule)


build_float_shift = float_shift(build_laplace_threshold)
build_symmetric_input = symmetric_input(build_laplace_threshold)
build_swapped_metric = swapped_metric(build_laplace_threshold)


def _variant(name: str, build: Any):
    return make_laplace_threshold.variant(name, build)


make_laplace_threshold_float_shift = _variant("make_laplace_threshold_float_shift",
                                              build_float_shift)
make_laplace_threshold_symmetric_input = _variant("make_laplace_threshold_symmetric_input",
                                                  build_symmetric_input)
make_laplace_threshold_swapped_metric = _variant("make_laplace_threshold_swapped_metric",
                                                 build_swapped_metric)
make_laplace_threshold_strict_tail = _variant("make_laplace_threshold_strict_tail",
                                              _with_map(strict_tail_map))
make_laplace_threshold_one_key_delta = _variant("make_laplace_threshold_one_key_delta",
                                                _with_map(one_key_delta_map))
make_laplace_threshold_nearest_epsilon = _variant("make_laplace_threshold_nearest_epsilon",
                                                  _with_map(nearest_epsilon_map))

_TWINS = [
    (make_laplace_threshold_float_shift, "laplace_threshold_float_shift"),
    (make_laplace_threshold_symmetric_input, "laplace_threshold_symmetric_input"),
    (make_laplace_threshold_swapped_metric, "laplace_threshold_swapped_metric"),
    (make_laplace_threshold_strict_tail, "laplace_threshold_strict_tail"),
    (make_laplace_threshold_one_key_delta, "laplace_threshold_one_key_delta"),
    (make_laplace_threshold_nearest_epsilon, "laplace_threshold_nearest_epsilon"),
]

MECHANISMS = [Entry(c.name, c, laplace_threshold_obligations(c, prefix)) for c, prefix in _TWINS]

EXPECTED_REFUTATIONS = {
    "laplace_threshold_float_shift.output_domain",
    "laplace_threshold_symmetric_input.compatibility",
    "laplace_threshold_swapped_metric.metric_facts",
    "laplace_threshold_strict_tail.privacy",
    "laplace_threshold_one_key_delta.privacy",
    "laplace_threshold_nearest_epsilon.map_rounding",
}

TWIN_OF = {
    "laplace_threshold.output_domain": "laplace_threshold_float_shift.output_domain",
    "laplace_threshold.compatibility": "laplace_threshold_symmetric_input.compatibility",
    "laplace_threshold.metric_facts": "laplace_threshold_swapped_metric.metric_facts",
    "laplace_threshold.privacy": "laplace_threshold_strict_tail.privacy",
    "laplace_threshold.map_rounding": "laplace_threshold_nearest_epsilon.map_rounding",
}


def per_key_epsilon_map(d_in: Any, scale: Any, threshold: Any, exp_lower: Any) -> Any:
    """Wrong: epsilon = linf / scale, the change of one key, though l0 keys may each change."""
    _, delta = laplace_threshold_map(d_in, scale, threshold, exp_lower)
    _, _, linf = threshold_sensitivities(d_in)
    return linf / scale, delta


make_laplace_threshold_per_key_epsilon = _variant("make_laplace_threshold_per_key_epsilon",
                                                  _with_map(per_key_epsilon_map))
MECHANISMS.append(Entry(make_laplace_threshold_per_key_epsilon.name,
                        make_laplace_threshold_per_key_epsilon,
                        laplace_threshold_obligations(make_laplace_threshold_per_key_epsilon,
                                                      "laplace_threshold_per_key_epsilon")))
EXPECTED_REFUTATIONS.add("laplace_threshold_per_key_epsilon.privacy")
