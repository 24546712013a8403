"""Wrong twins of ``make_gaussian``: one refuted per standard statement, more for privacy, and one
sampler outside the proof method."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map
from mechanisms.domains import AtomDomain
from mechanisms.make_discrete_laplace import IntegerNoise, validate_scale
from mechanisms.make_gaussian import build_gaussian, make_gaussian
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import sample_discrete_gaussian, system_rng
from obligations.base import Entry
from obligations.kernel.statements import Claim
from tests.twins._statements import statement_twin_entries
from tests.twins.make_discrete_laplace import NEGATIVE_SCALE_PRECONDITIONS, Int64Input


def build_float_output(scale: Any):
    """Wrong: the output is an int, not a member of ``AtomDomain(float)``."""
    return replace(build_gaussian(scale), output_domain=AtomDomain(float))


def build_symmetric_input(scale: Any):
    """Wrong: symmetric distance is for vectors, the input is one integer."""
    return replace(build_gaussian(scale), input_metric=SymmetricDistance())


def build_half_sigma(scale: Any):
    """Wrong distribution: sigma = scale / 2, not the promised scale."""
    return replace(build_gaussian(scale), function=IntegerNoise(scale / 2, sample_discrete_gaussian))


def half_map(d_in: Any, scale: Any) -> Any:
    """Wrong: ``d_in^2 / (4 scale^2)``, half the theorem's rho."""
    return div_up(d_in * d_in, 4 * scale * scale)


def build_half_map(scale: Any):
    return replace(build_gaussian(scale), privacy_map=Map(rule=half_map, params={"scale": scale}))


@dataclass(frozen=True)
class RoundedContinuousGaussian(IntegerNoise):
    """Outside the proof method: a float Gaussian (``random.gauss``), rounded to an integer."""

    def __call__(self, arg: int, rng: Any = None) -> int:
        return self.shift(arg, round(system_rng(rng).gauss(0.0, self.scale)))


def build_rounded_continuous(scale: Any):
    return replace(build_gaussian(scale),
                   function=RoundedContinuousGaussian(scale, sample_discrete_gaussian))


def build_int64_input(scale: Any):
    """Wrong (runtime errors): refuses inputs past 64 bits before it draws."""
    return replace(build_gaussian(scale), function=Int64Input(scale, sample_discrete_gaussian))


make_gauss_negative_scale = Constructor("make_gauss_negative_scale", build_gaussian,
                                        NEGATIVE_SCALE_PRECONDITIONS, validate_scale)
"""Wrong: ``scale >= -1``; a negative scale adds no noise, yet the map is finite."""
make_gauss_float_output = make_gaussian.variant("make_gauss_float_output", build_float_output)
make_gauss_symmetric_input = make_gaussian.variant("make_gauss_symmetric_input",
                                                   build_symmetric_input)
make_gauss_half_sigma = make_gaussian.variant("make_gauss_half_sigma", build_half_sigma)
make_gauss_half_map = make_gaussian.variant("make_gauss_half_map", build_half_map)
make_gauss_int64_input = make_gaussian.variant("make_gauss_int64_input", build_int64_input)
make_gauss_rounded_continuous = make_gaussian.variant("make_gauss_rounded_continuous",
                                                      build_rounded_continuous)

STATEMENT_TWIN_OF = {
    ("make_gaussian", Claim.OUTPUT_DOMAIN): ("make_gauss_float_output", Claim.OUTPUT_DOMAIN),
    ("make_gaussian", Claim.COMPATIBILITY): ("make_gauss_symmetric_input", Claim.COMPATIBILITY),
    ("make_gaussian", Claim.PRIVACY): ("make_gauss_half_map", Claim.PRIVACY),
    ("make_gaussian", Claim.RUNTIME_ERRORS): ("make_gauss_int64_input", Claim.RUNTIME_ERRORS),
}
REFUTED_STATEMENTS = {("make_gauss_half_sigma", Claim.PRIVACY),
                      ("make_gauss_negative_scale", Claim.PRIVACY)}
MECHANISMS = statement_twin_entries(globals(), STATEMENT_TWIN_OF.values(), REFUTED_STATEMENTS)
UNSUPPORTED = [Entry("make_gauss_rounded_continuous", make_gauss_rounded_continuous)]
