"""Wrong twins of ``make_vector_gaussian``: one refuted per obligation, and a float Gaussian
sampler outside the proof method."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Sequence

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Map
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_vector_gaussian import build_vector_gaussian, make_vector_gaussian
from mechanisms.make_vector_laplace import VectorNoise
from mechanisms.samplers import sample_discrete_gaussian, system_rng
from obligations.base import Entry
from obligations.make_vector_gaussian import vector_gaussian_obligations


def build_float_output(scale: Any):
    """Wrong: promises vectors of floats; the coordinates are ints."""
    return replace(build_vector_gaussian(scale), output_domain=VectorDomain(AtomDomain(float)))


def build_nan_input(scale: Any):
    """Wrong domain: float vectors with NaN, on which no L2 distance is defined."""
    return replace(build_vector_gaussian(scale),
                   input_domain=VectorDomain(AtomDomain(float, nan=True)))


def build_half_sigma(scale: Any):
    """Wrong distribution: sigma = scale / 2 (a standard deviation read as a variance-like
    half), not the promised scale."""
    return replace(build_vector_gaussian(scale),
                   function=VectorNoise(scale / 2, sample_discrete_gaussian))


def unsquared_map(d_in: Any, scale: Any) -> Any:
    """Wrong: ``d_in / (2 scale^2)``, the square of d_in forgotten (right only at d_in = 1)."""
    return ops.where(ops.eq(d_in, 0), 0, div_up(ops.exact(d_in), 2 * ops.exact(scale) ** 2))


def build_unsquared_map(scale: Any):
    return replace(build_vector_gaussian(scale), privacy_map=Map(rule=unsquared_map,
                                                                 params={"scale": scale}))


def square_to_nearest(d_in: Any, scale: Any) -> Any:
    """Wrong rounding: ``d_in^2 / (2 scale^2)`` in floats (0 at ``d_in = 0``)."""
    return ops.where(ops.eq(d_in, 0), 0, d_in * d_in / (2 * scale * scale))


def build_nearest_map(scale: Any):
    return replace(build_vector_gaussian(scale), privacy_map=Map(rule=square_to_nearest,
                                                                 params={"scale": scale}))


@dataclass(frozen=True)
class RoundedGauss(VectorNoise):
    """Outside the proof method: ``x + round(random.gauss(0, scale))`` per coordinate."""

    def __call__(self, arg: Sequence[int], rng: Any = None) -> list[int]:
        rng = system_rng(rng)
        return [self.shift(x, round(rng.gauss(0.0, float(Fraction(self.scale))))) for x in arg]


def build_rounded_gauss(scale: Any):
    return replace(build_vector_gaussian(scale),
                   function=RoundedGauss(scale, sample_discrete_gaussian))


make_vgauss_float_output = make_vector_gaussian.variant("make_vgauss_float_output",
                                                        build_float_output)
make_vgauss_nan_input = make_vector_gaussian.variant("make_vgauss_nan_input", build_nan_input)
make_vgauss_half_sigma = make_vector_gaussian.variant("make_vgauss_half_sigma", build_half_sigma)
make_vgauss_unsquared_map = make_vector_gaussian.variant("make_vgauss_unsquared_map",
                                                         build_unsquared_map)
make_vgauss_nearest_map = make_vector_gaussian.variant("make_vgauss_nearest_map",
                                                       build_nearest_map)
make_vgauss_rounded_gauss = make_vector_gaussian.variant("make_vgauss_rounded_gauss",
                                                         build_rounded_gauss)

MECHANISMS = [
    Entry("make_vgauss_float_output", make_vgauss_float_output,
          vector_gaussian_obligations(make_vgauss_float_output, "vgauss_float_output")),
    Entry("make_vgauss_nan_input", make_vgauss_nan_input,
          vector_gaussian_obligations(make_vgauss_nan_input, "vgauss_nan_input")),
    Entry("make_vgauss_half_sigma", make_vgauss_half_sigma,
          vector_gaussian_obligations(make_vgauss_half_sigma, "vgauss_half_sigma")),
    Entry("make_vgauss_unsquared_map", make_vgauss_unsquared_map,
          vector_gaussian_obligations(make_vgauss_unsquared_map, "vgauss_unsquared_map")),
    Entry("make_vgauss_nearest_map", make_vgauss_nearest_map,
          vector_gaussian_obligations(make_vgauss_nearest_map, "vgauss_nearest_map")),
]

EXPECTED_REFUTATIONS = {
    "vgauss_float_output.output_domain",
    "vgauss_nan_input.compatibility",
    "vgauss_nan_input.output_domain",
    "vgauss_nan_input.privacy",
    "vgauss_half_sigma.distribution",
    "vgauss_half_sigma.privacy",
    "vgauss_unsquared_map.privacy",
    "vgauss_nearest_map.map_rounding",
    "vgauss_nearest_map.privacy",
}

TWIN_OF = {
    "vector_gaussian.output_domain": "vgauss_float_output.output_domain",
    "vector_gaussian.compatibility": "vgauss_nan_input.compatibility",
    "vector_gaussian.distribution": "vgauss_half_sigma.distribution",
    "vector_gaussian.privacy": "vgauss_unsquared_map.privacy",
    "vector_gaussian.map_rounding": "vgauss_nearest_map.map_rounding",
}

UNSUPPORTED = [
    Entry("make_vgauss_rounded_gauss", make_vgauss_rounded_gauss,
          vector_gaussian_obligations(make_vgauss_rounded_gauss, "vgauss_rounded_gauss")),
]
