"""Wrong twins of ``make_report_noisy_max``: each obligation has one the checker must refute with a
counterexample confirmed on the real code, and one twin lies outside the proof method."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Sequence

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Precondition
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import SelectionScaleError
from mechanisms.make_report_noisy_max import (NOISY_MAX_PRECONDITIONS, NoisyMax,
                                              build_report_noisy_max, make_report_noisy_max,
                                              validate_noisy_max)
from obligations.base import Entry
from obligations.make_report_noisy_max import report_noisy_max_obligations


class NoisyMaxOffByOne(NoisyMax):
    """Wrong: proposes ``u + 1``, which is ``k`` for the last draw."""

    candidate = staticmethod(lambda sample: sample + 1)


class NoisyMaxRunningMinimum(NoisyMax):
    """Wrong: takes the running minimum, so ``gamma_i = (m - s_i)/scale`` goes negative."""

    best_step = staticmethod(ops.minimum)


class NoisyMaxHalfExponent(NoisyMax):
    """Wrong: accepts with ``exp(-(m - s_i) / (2 scale))``, not the stated ``exp(-(m - s_i)/scale)``."""

    rejection_gamma = staticmethod(lambda score, best, scale: (best - score) / (2 * ops.exact(scale)))


class NoisyMaxSquaredExponent(NoisyMax):
    """Wrong: ``gamma_i = (m - s_i)^2 / scale``, every gamma >= 0 but the differences are not the
    law's: a score ``d`` below the maximum loses ``d^2 / scale``, so ``d_in > 1`` breaks the map."""

    rejection_gamma = staticmethod(
        lambda score, best, scale: (best - score) * (best - score) / ops.exact(scale))


class NoisyMaxLoweredReference(NoisyMax):
    """Wrong: ``gamma_i = (m - 1 - s_i) / scale``, the law's differences, but measured from one
    below the maximum: the argmax has ``gamma = -1/scale < 0``, and proposing it raises."""

    rejection_gamma = staticmethod(
        lambda score, best, scale: (best - 1 - score) / ops.exact(scale))


class NoisyMaxReciprocalOffset(NoisyMax):
    """Wrong: ``gamma_i = (m - s_i) / scale + 1 / m^2``, a common offset (the law's differences),
    >= 0 wherever it is defined, but undefined at ``m = 0``: a ZeroDivisionError."""

    rejection_gamma = staticmethod(
        lambda score, best, scale: (best - score) / ops.exact(scale) + 1 / (best * best))


@dataclass(frozen=True)
class NoisyMaxArgmax(NoisyMax):
    """Outside the proof method: its own loop (here the plain argmax), not the checked one."""

    def __call__(self, scores: Sequence[Any], rng: Any = None) -> int:
        oriented = [self.sign * s for s in scores]
        return oriented.index(max(oriented))


def with_function(cls: type):
    def build(scale: Any, optimize: str = "max", T: type = float):
        real = build_report_noisy_max(scale, optimize, T)
        return replace(real, function=cls(real.function.scale, real.function.sign))
    return build


def half_map(d_in: Any, scale: Any) -> Any:
    """Wrong: ``d_in / scale`` is the monotonic metric's map; scores here move both ways."""
    return div_up(d_in, scale)


def build_half_map(scale: Any, optimize: str = "max", T: type = float):
    return replace(build_report_noisy_max(scale, optimize, T),
                   privacy_map=Map(rule=half_map, params={"scale": scale}))


def build_nan_scores(scale: Any, optimize: str = "max", T: type = float):
    """Wrong: admits NaN scores, on which LInf distance is not defined."""
    return replace(build_report_noisy_max(scale, optimize, T),
                   input_domain=VectorDomain(AtomDomain(float, nan=True)))


def build_infinite_scores(scale: Any, optimize: str = "max", T: type = float):
    """Wrong: float scores bounded by +-inf admit inf, which the sampler's Fraction() refuses on
    some inputs only (a data-dependent runtime error)."""
    real = build_report_noisy_max(scale, optimize, T)
    return replace(real, input_domain=VectorDomain(AtomDomain(float, bounds=(-math.inf, math.inf)))
                   if T is float else real.input_domain)


def build_half_running_scale(scale: Any, optimize: str = "max", T: type = float):
    """Wrong: the sampler runs on ``scale / 2`` while the map is built from ``scale``."""
    real = build_report_noisy_max(scale, optimize, T)
    return replace(real, function=NoisyMax(scale / 2, real.function.sign))


def build_inverted_optimize(scale: Any, optimize: str = "max", T: type = float):
    """Wrong: ``optimize="max"`` favours the smallest score (private, but not the stated law)."""
    real = build_report_noisy_max(scale, optimize, T)
    return replace(real, function=NoisyMax(scale, -real.function.sign))


SCALE_NONNEGATIVE = Precondition("scale >= 0", lambda scale, **_: ops.le(0, scale),
                                 lambda scale, **_: SelectionScaleError(scale))
"""Wrong precondition: admits ``scale = 0``, where every gamma divides by zero."""

make_rnm_half_running_scale = make_report_noisy_max.variant("make_rnm_half_running_scale",
                                                            build_half_running_scale)
make_rnm_inverted_optimize = make_report_noisy_max.variant("make_rnm_inverted_optimize",
                                                           build_inverted_optimize)
make_rnm_scale_nonnegative = Constructor(
    "make_rnm_scale_nonnegative", build_report_noisy_max,
    (NOISY_MAX_PRECONDITIONS[0], SCALE_NONNEGATIVE), validate_noisy_max)
make_rnm_infinite_scale = Constructor(
    "make_rnm_infinite_scale", build_report_noisy_max,
    tuple(p for p in NOISY_MAX_PRECONDITIONS if p.text != "scale is finite"), validate_noisy_max)
"""Wrong: drops "scale is finite"; ``scale = inf`` builds and the function raises on every input."""
make_rnm_off_by_one = make_report_noisy_max.variant("make_rnm_off_by_one",
                                                    with_function(NoisyMaxOffByOne))
make_rnm_running_minimum = make_report_noisy_max.variant("make_rnm_running_minimum",
                                                         with_function(NoisyMaxRunningMinimum))
make_rnm_half_exponent = make_report_noisy_max.variant("make_rnm_half_exponent",
                                                       with_function(NoisyMaxHalfExponent))
make_rnm_squared_exponent = make_report_noisy_max.variant(
    "make_rnm_squared_exponent", with_function(NoisyMaxSquaredExponent))
make_rnm_lowered_reference = make_report_noisy_max.variant(
    "make_rnm_lowered_reference", with_function(NoisyMaxLoweredReference))
make_rnm_reciprocal_offset = make_report_noisy_max.variant(
    "make_rnm_reciprocal_offset", with_function(NoisyMaxReciprocalOffset))
make_rnm_half_map = make_report_noisy_max.variant("make_rnm_half_map", build_half_map)
make_rnm_nan_scores = make_report_noisy_max.variant("make_rnm_nan_scores", build_nan_scores)
make_rnm_infinite_scores = make_report_noisy_max.variant("make_rnm_infinite_scores",
                                                         build_infinite_scores)
make_rnm_argmax = make_report_noisy_max.variant("make_rnm_argmax", with_function(NoisyMaxArgmax))

MECHANISMS = [
    Entry("make_rnm_off_by_one", make_rnm_off_by_one,
          report_noisy_max_obligations(make_rnm_off_by_one, "rnm_off_by_one")),
    Entry("make_rnm_running_minimum", make_rnm_running_minimum,
          report_noisy_max_obligations(make_rnm_running_minimum, "rnm_running_minimum")),
    Entry("make_rnm_half_exponent", make_rnm_half_exponent,
          report_noisy_max_obligations(make_rnm_half_exponent, "rnm_half_exponent")),
    Entry("make_rnm_squared_exponent", make_rnm_squared_exponent,
          report_noisy_max_obligations(make_rnm_squared_exponent, "rnm_squared_exponent")),
    Entry("make_rnm_lowered_reference", make_rnm_lowered_reference,
          report_noisy_max_obligations(make_rnm_lowered_reference, "rnm_lowered_reference")),
    Entry("make_rnm_reciprocal_offset", make_rnm_reciprocal_offset,
          report_noisy_max_obligations(make_rnm_reciprocal_offset, "rnm_reciprocal_offset")),
    Entry("make_rnm_half_map", make_rnm_half_map,
          report_noisy_max_obligations(make_rnm_half_map, "rnm_half_map")),
    Entry("make_rnm_nan_scores", make_rnm_nan_scores,
          report_noisy_max_obligations(make_rnm_nan_scores, "rnm_nan_scores")),
    Entry("make_rnm_half_running_scale", make_rnm_half_running_scale,
          report_noisy_max_obligations(make_rnm_half_running_scale, "rnm_half_running_scale")),
    Entry("make_rnm_inverted_optimize", make_rnm_inverted_optimize,
          report_noisy_max_obligations(make_rnm_inverted_optimize, "rnm_inverted_optimize")),
    Entry("make_rnm_scale_nonnegative", make_rnm_scale_nonnegative,
          report_noisy_max_obligations(make_rnm_scale_nonnegative, "rnm_scale_nonnegative")),
    Entry("make_rnm_infinite_scale", make_rnm_infinite_scale,
          report_noisy_max_obligations(make_rnm_infinite_scale, "rnm_infinite_scale")),
    Entry("make_rnm_infinite_scores", make_rnm_infinite_scores,
          report_noisy_max_obligations(make_rnm_infinite_scores, "rnm_infinite_scores")),
]

EXPECTED_REFUTATIONS = {
    "rnm_off_by_one.output_domain",
    "rnm_nan_scores.compatibility",
    "rnm_running_minimum.runtime_errors",
    "rnm_half_exponent.distribution",
    "rnm_squared_exponent.distribution",
    "rnm_lowered_reference.output_domain",
    "rnm_lowered_reference.runtime_errors",
    "rnm_reciprocal_offset.output_domain",
    "rnm_reciprocal_offset.runtime_errors",
    "rnm_half_map.privacy",
    "rnm_half_running_scale.distribution",
    "rnm_half_running_scale.privacy",
    "rnm_inverted_optimize.distribution",
    "rnm_scale_nonnegative.output_domain",
    "rnm_scale_nonnegative.runtime_errors",
    "rnm_infinite_scale.output_domain",
    "rnm_infinite_scores.runtime_errors",
}

TWIN_OF = {
    "report_noisy_max.output_domain": "rnm_off_by_one.output_domain",
    "report_noisy_max.compatibility": "rnm_nan_scores.compatibility",
    "report_noisy_max.runtime_errors": "rnm_running_minimum.runtime_errors",
    "report_noisy_max.distribution": "rnm_half_exponent.distribution",
    "report_noisy_max.privacy": "rnm_half_map.privacy",
}

UNSUPPORTED = [
    Entry("make_rnm_argmax", make_rnm_argmax,
          report_noisy_max_obligations(make_rnm_argmax, "rnm_argmax")),
]
