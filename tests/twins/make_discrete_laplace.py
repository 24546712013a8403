"""Wrong twins of ``make_discrete_laplace``: one refuted per obligation, and one sampler outside
the proof method."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Precondition
from mechanisms.domains import AtomDomain
from mechanisms.errors import ScaleError
from mechanisms.make_discrete_laplace import (IntegerNoise, build_discrete_laplace,
                                              make_discrete_laplace, validate_scale)
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import sample_discrete_laplace, system_rng
from obligations.base import Entry
from obligations.make_discrete_laplace import discrete_laplace_obligations


def build_float_output(scale: Any):
    """Wrong: the output is an int, not a member of ``AtomDomain(float)``."""
    return replace(build_discrete_laplace(scale), output_domain=AtomDomain(float))


def build_symmetric_input(scale: Any):
    """Wrong: symmetric distance is for vectors, the input is one integer."""
    return replace(build_discrete_laplace(scale), input_metric=SymmetricDistance())


def build_double_noise(scale: Any):
    """Wrong distribution: the noise has scale ``2 * scale``, not the promised ``scale``."""
    return replace(build_discrete_laplace(scale),
                   function=IntegerNoise(2 * scale, sample_discrete_laplace))


def half_map(d_in: Any, scale: Any) -> Any:
    """Wrong: ``d_in / (2 scale)``, half the privacy loss of the discrete Laplace."""
    return div_up(d_in, 2 * scale)


def build_half_map(scale: Any):
    return replace(build_discrete_laplace(scale),
                   privacy_map=Map(rule=half_map, params={"scale": scale}))


@dataclass(frozen=True)
class RoundedContinuousLaplace(IntegerNoise):
    """Outside the proof method: continuous Laplace noise by a float inverse CDF, rounded."""

    def __call__(self, arg: int, rng: Any = None) -> int:
        u = system_rng(rng).random() - 0.5
        return self.shift(arg, round(-self.scale * math.copysign(1.0, u) * math.log1p(-2 * abs(u))))


def build_rounded_continuous(scale: Any):
    return replace(build_discrete_laplace(scale),
                   function=RoundedContinuousLaplace(scale, sample_discrete_laplace))


NEGATIVE_SCALE_PRECONDITIONS = (
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("scale >= -1", lambda scale, **_: ops.le(-1, scale),
                 lambda scale, **_: ScaleError(scale)),
)
"""Wrong (the mutation run's survivor): ``scale >= -1`` admits negative scales, where the function
adds no noise and the map is negative."""


def build_floor_scale(scale: Any):
    """Wrong: the function draws at ``floor(scale)`` (no noise below 1), the map uses ``scale``."""
    return replace(build_discrete_laplace(scale),
                   function=IntegerNoise(ops.floor(scale), sample_discrete_laplace))


@dataclass(frozen=True)
class RaisingShift(IntegerNoise):
    """Wrong: adds the draw on solver terms only; on numbers it raises ``TypeError``."""

    @staticmethod
    def shift(arg: Any, noise: Any) -> Any:
        return arg + noise if ops.is_z3(arg) else [arg] / noise


def build_raising(scale: Any):
    return replace(build_discrete_laplace(scale),
                   function=RaisingShift(scale, sample_discrete_laplace))


make_dl_negative_scale = Constructor("make_dl_negative_scale", build_discrete_laplace,
                                     NEGATIVE_SCALE_PRECONDITIONS, validate_scale)
make_dl_floor_scale = make_discrete_laplace.variant("make_dl_floor_scale", build_floor_scale)
make_dl_raising = make_discrete_laplace.variant("make_dl_raising", build_raising)
make_dl_float_output = make_discrete_laplace.variant("make_dl_float_output", build_float_output)
make_dl_symmetric_input = make_discrete_laplace.variant("make_dl_symmetric_input",
                                                        build_symmetric_input)
make_dl_double_noise = make_discrete_laplace.variant("make_dl_double_noise", build_double_noise)
make_dl_half_map = make_discrete_laplace.variant("make_dl_half_map", build_half_map)
make_dl_rounded_continuous = make_discrete_laplace.variant("make_dl_rounded_continuous",
                                                           build_rounded_continuous)

MECHANISMS = [
    Entry("make_dl_float_output", make_dl_float_output,
          discrete_laplace_obligations(make_dl_float_output, "dl_float_output")),
    Entry("make_dl_symmetric_input", make_dl_symmetric_input,
          discrete_laplace_obligations(make_dl_symmetric_input, "dl_symmetric_input")),
    Entry("make_dl_double_noise", make_dl_double_noise,
          discrete_laplace_obligations(make_dl_double_noise, "dl_double_noise")),
    Entry("make_dl_half_map", make_dl_half_map,
          discrete_laplace_obligations(make_dl_half_map, "dl_half_map")),
    Entry("make_dl_negative_scale", make_dl_negative_scale,
          discrete_laplace_obligations(make_dl_negative_scale, "dl_negative_scale")),
    Entry("make_dl_floor_scale", make_dl_floor_scale,
          discrete_laplace_obligations(make_dl_floor_scale, "dl_floor_scale")),
    Entry("make_dl_raising", make_dl_raising,
          discrete_laplace_obligations(make_dl_raising, "dl_raising")),
]

EXPECTED_REFUTATIONS = {
    "dl_float_output.output_domain",
    "dl_symmetric_input.compatibility",
    "dl_double_noise.distribution",
    "dl_half_map.privacy",
    "dl_negative_scale.privacy",
    "dl_floor_scale.distribution",
    "dl_floor_scale.privacy",
    "dl_raising.output_domain",
}

TWIN_OF = {
    "discrete_laplace.output_domain": "dl_float_output.output_domain",
    "discrete_laplace.compatibility": "dl_symmetric_input.compatibility",
    "discrete_laplace.distribution": "dl_double_noise.distribution",
    "discrete_laplace.privacy": "dl_half_map.privacy",
}

UNSUPPORTED = [
    Entry("make_dl_rounded_continuous", make_dl_rounded_continuous,
          discrete_laplace_obligations(make_dl_rounded_continuous, "dl_rounded_continuous")),
]
