"""Wrong twins of ``make_vector_gaussian``: one refuted per standard statement, each with a
counterexample the real code confirms, and a float Gaussian sampler outside the kernel's rules."""

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
from mechanisms.metrics import AbsoluteDistance
from obligations.kernel.statements import Claim
from tests.twins._statements import statement_twin_entries
from tests.twins.make_vector_laplace import Int64Coordinates


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


def build_absolute_metric(scale: Any):
    """Wrong: absolute distance is for one number, the input is a vector."""
    return replace(build_vector_gaussian(scale), input_metric=AbsoluteDistance())


@dataclass(frozen=True)
class Int64Noise(Int64Coordinates, VectorNoise):
    """Vector Gaussian noise refusing coordinates past 64 bits."""


def build_int64_input(scale: Any):
    return replace(build_vector_gaussian(scale),
                   function=Int64Noise(scale, sample_discrete_gaussian))


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
make_vgauss_absolute_metric = make_vector_gaussian.variant("make_vgauss_absolute_metric",
                                                           build_absolute_metric)
make_vgauss_half_sigma = make_vector_gaussian.variant("make_vgauss_half_sigma", build_half_sigma)
make_vgauss_unsquared_map = make_vector_gaussian.variant("make_vgauss_unsquared_map",
                                                         build_unsquared_map)
make_vgauss_nearest_map = make_vector_gaussian.variant("make_vgauss_nearest_map",
                                                       build_nearest_map)
make_vgauss_int64_input = make_vector_gaussian.variant("make_vgauss_int64_input",
                                                       build_int64_input)
make_vgauss_rounded_gauss = make_vector_gaussian.variant("make_vgauss_rounded_gauss",
                                                         build_rounded_gauss)

STATEMENT_TWIN_OF = {
    ("make_vector_gaussian", Claim.OUTPUT_DOMAIN): ("make_vgauss_float_output",
                                                    Claim.OUTPUT_DOMAIN),
    ("make_vector_gaussian", Claim.COMPATIBILITY): ("make_vgauss_absolute_metric",
                                                    Claim.COMPATIBILITY),
    ("make_vector_gaussian", Claim.PRIVACY): ("make_vgauss_unsquared_map", Claim.PRIVACY),
    ("make_vector_gaussian", Claim.RUNTIME_ERRORS): ("make_vgauss_int64_input",
                                                     Claim.RUNTIME_ERRORS),
}
REFUTED_STATEMENTS = {("make_vgauss_nan_input", Claim.OUTPUT_DOMAIN),
                      ("make_vgauss_half_sigma", Claim.PRIVACY),
                      ("make_vgauss_nearest_map", Claim.PRIVACY)}
MECHANISMS = statement_twin_entries(globals(), STATEMENT_TWIN_OF.values(), REFUTED_STATEMENTS)
UNSUPPORTED = statement_twin_entries(globals(), [("make_vgauss_rounded_gauss", None)])
