"""Wrong twins of ``make_above_threshold``: each obligation has one the checker must refute with a
counterexample confirmed on the real code, and one twin lies outside the proof method."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from mechanisms import ops
from mechanisms.core import Constructor, Precondition
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import SelectionScaleError
from mechanisms.make_above_threshold import (ABOVE_THRESHOLD_PRECONDITIONS, AboveThreshold,
                                             build_above_threshold, make_above_threshold,
                                             validate_above_threshold)
from obligations.base import Entry
from obligations.make_above_threshold import above_threshold_obligations


class NotFoundIsMinusOne(AboveThreshold):
    """Wrong: reports "none above" as -1, outside [0, k]."""

    exhausted = staticmethod(lambda num_queries: -1)


class QueryNoiseLikeThreshold(AboveThreshold):
    """Wrong: draws each nu_i with the threshold's scale, not twice it (a common slip)."""

    query_noise_scale = staticmethod(lambda scale: ops.exact(scale))


class QueryNoiseOffByOne(AboveThreshold):
    """Wrong: ``2 scale - 1`` is not positive for ``scale <= 1/2``, so the draw raises."""

    query_noise_scale = staticmethod(lambda scale: 2 * ops.exact(scale) - 1)


class SwappedNoiseScales(AboveThreshold):
    """Wrong: the threshold gets the query's noise scale (2 scale) and each query the threshold's
    (scale): the shifts then cost exp(Delta/(2 scale) + 2 Delta/scale)."""

    threshold_noise_scale = staticmethod(lambda scale: 2 * ops.exact(scale))
    query_noise_scale = staticmethod(lambda scale: ops.exact(scale))


def build_half_running_scale(scale: Any, threshold: Any):
    """Wrong: the function runs on ``scale / 2`` while the map is built from ``scale``."""
    return replace(build_above_threshold(scale, threshold),
                   function=AboveThreshold(scale / 2, threshold))


def build_shifted_threshold(scale: Any, threshold: Any):
    """Wrong: the function compares against ``threshold + 1`` (private, but not the stated law)."""
    return replace(build_above_threshold(scale, threshold),
                   function=AboveThreshold(scale, threshold + 1))


SCALE_NONNEGATIVE = Precondition("scale >= 0", lambda scale, **_: ops.le(0, scale),
                                 lambda scale, **_: SelectionScaleError(scale))
"""Wrong precondition: admits ``scale = 0``, where the discrete Laplace raises."""


@dataclass(frozen=True)
class ReuseThresholdNoise(AboveThreshold):
    """Outside the proof method: its own loop (compares against rho alone, no query noise)."""

    def __call__(self, answers: Sequence[int], rng: Any = None) -> int:
        from mechanisms.samplers import sample_discrete_laplace, system_rng
        rho = sample_discrete_laplace(self.threshold_noise_scale(self.scale), system_rng(rng))
        return next((i for i, a in enumerate(answers) if a >= self.threshold + rho), len(answers))


def with_function(cls: type):
    def build(scale: Any, threshold: Any):
        real = build_above_threshold(scale, threshold)
        return replace(real, function=cls(real.function.scale, real.function.threshold))
    return build


def build_float_answers(scale: Any, threshold: Any):
    """Wrong: admits NaN float answers, on which LInf distance is not defined."""
    return replace(build_above_threshold(scale, threshold),
                   input_domain=VectorDomain(AtomDomain(float, nan=True)))


make_at_minus_one = make_above_threshold.variant("make_at_minus_one",
                                                 with_function(NotFoundIsMinusOne))
make_at_query_noise = make_above_threshold.variant("make_at_query_noise",
                                                   with_function(QueryNoiseLikeThreshold))
make_at_off_by_one = make_above_threshold.variant("make_at_off_by_one",
                                                  with_function(QueryNoiseOffByOne))
make_at_nan_answers = make_above_threshold.variant("make_at_nan_answers", build_float_answers)
make_at_swapped_scales = make_above_threshold.variant("make_at_swapped_scales",
                                                      with_function(SwappedNoiseScales))
make_at_half_running_scale = make_above_threshold.variant("make_at_half_running_scale",
                                                          build_half_running_scale)
make_at_shifted_threshold = make_above_threshold.variant("make_at_shifted_threshold",
                                                         build_shifted_threshold)
make_at_scale_nonnegative = Constructor(
    "make_at_scale_nonnegative", build_above_threshold,
    (ABOVE_THRESHOLD_PRECONDITIONS[0], SCALE_NONNEGATIVE), validate_above_threshold)
make_at_infinite_scale = Constructor(
    "make_at_infinite_scale", build_above_threshold,
    tuple(p for p in ABOVE_THRESHOLD_PRECONDITIONS if p.text != "scale is finite"),
    validate_above_threshold)
"""Wrong: drops "scale is finite"; ``scale = inf`` builds and the function raises on every input."""
make_at_no_query_noise = make_above_threshold.variant("make_at_no_query_noise",
                                                      with_function(ReuseThresholdNoise))

MECHANISMS = [
    Entry("make_at_minus_one", make_at_minus_one,
          above_threshold_obligations(make_at_minus_one, "at_minus_one")),
    Entry("make_at_query_noise", make_at_query_noise,
          above_threshold_obligations(make_at_query_noise, "at_query_noise")),
    Entry("make_at_off_by_one", make_at_off_by_one,
          above_threshold_obligations(make_at_off_by_one, "at_off_by_one")),
    Entry("make_at_nan_answers", make_at_nan_answers,
          above_threshold_obligations(make_at_nan_answers, "at_nan_answers")),
    *[Entry(c.name, c, above_threshold_obligations(c, c.name.removeprefix("make_")))
      for c in (make_at_swapped_scales, make_at_half_running_scale, make_at_shifted_threshold,
                make_at_scale_nonnegative, make_at_infinite_scale)],
]

EXPECTED_REFUTATIONS = {
    "at_minus_one.output_domain",
    "at_nan_answers.compatibility",
    "at_off_by_one.runtime_errors",
    "at_query_noise.privacy",
    "at_swapped_scales.distribution",
    "at_swapped_scales.privacy",
    "at_half_running_scale.distribution",
    "at_half_running_scale.privacy",
    "at_shifted_threshold.distribution",
    "at_scale_nonnegative.output_domain",
    "at_scale_nonnegative.runtime_errors",
    "at_infinite_scale.output_domain",
}

TWIN_OF = {
    "above_threshold.output_domain": "at_minus_one.output_domain",
    "above_threshold.compatibility": "at_nan_answers.compatibility",
    "above_threshold.runtime_errors": "at_off_by_one.runtime_errors",
    "above_threshold.distribution": "at_shifted_threshold.distribution",
    "above_threshold.privacy": "at_query_noise.privacy",
}

UNSUPPORTED = [
    Entry("make_at_no_query_noise", make_at_no_query_noise,
          above_threshold_obligations(make_at_no_query_noise, "at_no_query_noise")),
]


@dataclass(frozen=True)
class OwnScales:
    """Not an ``AboveThreshold``: its own fields ``rho_scale = scale / 2``, ``nu_scale = 2 scale``
    and its own loop (cost ``3 d / scale`` against the map ``2 d / scale``). No kernel to run on
    solver terms: every obligation reading the function is unknown (unsupported), never an
    error."""

    rho_scale: Any
    nu_scale: Any
    threshold: Any

    def __call__(self, answers: Sequence[int], rng: Any = None) -> int:
        from mechanisms.samplers import sample_discrete_laplace, system_rng
        rng = system_rng(rng)
        rho = sample_discrete_laplace(ops.exact(self.rho_scale), rng)
        for index, answer in enumerate(answers):
            if answer + sample_discrete_laplace(ops.exact(self.nu_scale), rng) >= \
                    self.threshold + rho:
                return index
        return len(answers)


def build_own_scales(scale: Any, threshold: Any):
    return replace(build_above_threshold(scale, threshold),
                   function=OwnScales(scale / 2, 2 * scale, threshold))


make_at_own_scales = make_above_threshold.variant("make_at_own_scales", build_own_scales)
UNSUPPORTED.append(Entry("make_at_own_scales", make_at_own_scales,
                         above_threshold_obligations(make_at_own_scales, "at_own_scales")))
