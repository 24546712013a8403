"""Wrong twins of ``make_float_gaussian`` (discrete Gaussian on floats through the grid): one
refuted per obligation, and a float Gaussian sampler outside the proof method."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Map
from mechanisms.domains import AtomDomain
from mechanisms.make_float_gaussian import (FloatGridGaussian, build_float_gaussian,
                                            make_float_gaussian)
from mechanisms.make_laplace import relaxation
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import system_rng
from obligations.base import Entry
from obligations.make_float_gaussian import float_gaussian_obligations


@dataclass(frozen=True)
class IntegerOutput(FloatGridGaussian):
    """Wrong: returns the grid point as an exact integer multiple of 2^-1074, not a float."""

    @staticmethod
    def grid_to_float(index: Any, multiple: Any) -> Any:
        return index * multiple


@dataclass(frozen=True)
class UnscaledSigma(FloatGridGaussian):
    """Wrong distribution: sigma = scale grid steps (the division by 2^k forgotten)."""

    @staticmethod
    def grid_scale(scale: Any, multiple: Any) -> Any:
        return ops.exact(scale)


@dataclass(frozen=True)
class FloatGauss(FloatGridGaussian):
    """Outside the proof method: ``x + random.gauss(0, scale)`` in floating point."""

    def __call__(self, arg: float, rng: Any = None) -> float:
        return arg + system_rng(rng).gauss(0.0, float(self.scale))


def with_function(function_class: type):
    def build(scale: Any, k: Any = -1074):
        built = build_float_gaussian(scale, k)
        return replace(built, function=function_class(built.function.scale,
                                                      built.function.multiple))
    return build


def build_nan_input(scale: Any, k: Any = -1074):
    """Wrong domain: NaN admitted in the input (the metric still absolute distance); the
    function cannot place NaN on the grid."""
    return replace(build_float_gaussian(scale, k), input_domain=AtomDomain(float, nan=True))


def build_symmetric_input(scale: Any, k: Any = -1074):
    """Wrong: symmetric distance is for vectors, the input is one float."""
    return replace(build_float_gaussian(scale, k), input_metric=SymmetricDistance())


def map_without_relaxation(d_in: Any, scale: Any, multiple: Any) -> Any:
    """Wrong: ``(d_in / scale)^2 / 2`` forgets that rounding to the grid adds 2^k - 2^-1074."""
    exact_d_in, exact_scale = ops.exact(d_in), ops.exact(scale)
    return ops.where(ops.eq(d_in, 0), 0, div_up(exact_d_in * exact_d_in,
                                                2 * exact_scale * exact_scale))


def map_to_nearest(d_in: Any, scale: Any, multiple: Any) -> Any:
    """Wrong rounding: the formula in binary64 operations, each rounded to nearest."""
    shifted = d_in + relaxation(multiple)
    return ops.where(ops.eq(d_in, 0), 0, shifted * shifted / (2 * scale * scale))


def with_map(rule: Any):
    def build(scale: Any, k: Any = -1074):
        built = build_float_gaussian(scale, k)
        return replace(built, privacy_map=Map(rule=rule, params=dict(built.privacy_map.params)))
    return build



make_fgauss_integer_output = make_float_gaussian.variant("make_fgauss_integer_output",
                                                         with_function(IntegerOutput))
make_fgauss_nan_input = make_float_gaussian.variant("make_fgauss_nan_input", build_nan_input)
make_fgauss_symmetric_input = make_float_gaussian.variant("make_fgauss_symmetric_input",
                                                          build_symmetric_input)
make_fgauss_unscaled_sigma = make_float_gaussian.variant("make_fgauss_unscaled_sigma",
                                                         with_function(UnscaledSigma))
make_fgauss_no_relaxation = make_float_gaussian.variant("make_fgauss_no_relaxation",
                                                        with_map(map_without_relaxation))
make_fgauss_nearest_map = make_float_gaussian.variant("make_fgauss_nearest_map",
                                                      with_map(map_to_nearest))
make_fgauss_float_gauss = make_float_gaussian.variant("make_fgauss_float_gauss",
                                                      with_function(FloatGauss))

MECHANISMS = [
    Entry("make_fgauss_integer_output", make_fgauss_integer_output,
          float_gaussian_obligations(make_fgauss_integer_output, "fgauss_integer_output")),
    Entry("make_fgauss_nan_input", make_fgauss_nan_input,
          float_gaussian_obligations(make_fgauss_nan_input, "fgauss_nan_input")),
    Entry("make_fgauss_symmetric_input", make_fgauss_symmetric_input,
          float_gaussian_obligations(make_fgauss_symmetric_input, "fgauss_symmetric_input")),
    Entry("make_fgauss_unscaled_sigma", make_fgauss_unscaled_sigma,
          float_gaussian_obligations(make_fgauss_unscaled_sigma, "fgauss_unscaled_sigma")),
    Entry("make_fgauss_no_relaxation", make_fgauss_no_relaxation,
          float_gaussian_obligations(make_fgauss_no_relaxation, "fgauss_no_relaxation")),
    Entry("make_fgauss_nearest_map", make_fgauss_nearest_map,
          float_gaussian_obligations(make_fgauss_nearest_map, "fgauss_nearest_map")),
]

EXPECTED_REFUTATIONS = {
    "fgauss_integer_output.output_domain",
    "fgauss_nan_input.output_domain",
    "fgauss_symmetric_input.compatibility",
    "fgauss_unscaled_sigma.distribution",
    "fgauss_unscaled_sigma.privacy",
    "fgauss_no_relaxation.privacy",
    "fgauss_nearest_map.map_rounding",
    "fgauss_nearest_map.privacy",
}

TWIN_OF = {
    "float_gaussian.output_domain": "fgauss_integer_output.output_domain",
    "float_gaussian.compatibility": "fgauss_symmetric_input.compatibility",
    "float_gaussian.distribution": "fgauss_unscaled_sigma.distribution",
    "float_gaussian.privacy": "fgauss_no_relaxation.privacy",
    "float_gaussian.map_rounding": "fgauss_nearest_map.map_rounding",
}

UNSUPPORTED = [
    Entry("make_fgauss_float_gauss", make_fgauss_float_gauss,
          float_gaussian_obligations(make_fgauss_float_gauss, "fgauss_float_gauss")),
]
