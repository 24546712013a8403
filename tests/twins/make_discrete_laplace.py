"""Wrong twins of ``make_discrete_laplace``: one refuted per standard statement, more for privacy
and the output domain, and one sampler outside the proof method."""

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
from obligations.kernel.statements import Claim
from tests.twins._statements import statement_twin_entries


def build_float_output(scale: Any):
    """Wrong: the output is an int, not a member of ``AtomDomain(float)``."""
    return replace(build_discrete_laplace(scale), output_domain=AtomDomain(float))


def build_symmetric_input(scale: Any):
    """Wrong: symmetric distance is for vectors, the input is one integer."""
    return replace(build_discrete_laplace(scale), input_metric=SymmetricDistance())


class Int64Refusal:
    """Wrong (runtime errors), mixed into a noise function: a port to 64-bit integers that
    refuses a wider input before it draws, so whether it raises tells an input beyond ``2^63``
    from one within."""

    def __call__(self, arg: int, rng: Any = None) -> int:
        if not -2 ** 63 <= arg < 2 ** 63:
            raise OverflowError(f"{arg} does not fit in 64 bits")
        return super().__call__(arg, rng)


@dataclass(frozen=True)
class Int64Input(Int64Refusal, IntegerNoise):
    """Integer noise refusing inputs past 64 bits."""


def build_int64_input(scale: Any):
    return replace(build_discrete_laplace(scale),
                   function=Int64Input(scale, sample_discrete_laplace))


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
make_dl_int64_input = make_discrete_laplace.variant("make_dl_int64_input", build_int64_input)
make_dl_half_map = make_discrete_laplace.variant("make_dl_half_map", build_half_map)
make_dl_rounded_continuous = make_discrete_laplace.variant("make_dl_rounded_continuous",
                                                           build_rounded_continuous)

STATEMENT_TWIN_OF = {
    ("make_discrete_laplace", Claim.OUTPUT_DOMAIN): ("make_dl_float_output", Claim.OUTPUT_DOMAIN),
    ("make_discrete_laplace", Claim.COMPATIBILITY): ("make_dl_symmetric_input",
                                                     Claim.COMPATIBILITY),
    ("make_discrete_laplace", Claim.PRIVACY): ("make_dl_half_map", Claim.PRIVACY),
    ("make_discrete_laplace", Claim.RUNTIME_ERRORS): ("make_dl_int64_input",
                                                      Claim.RUNTIME_ERRORS),
}
REFUTED_STATEMENTS = {("make_dl_negative_scale", Claim.PRIVACY),
                      ("make_dl_floor_scale", Claim.PRIVACY),
                      ("make_dl_raising", Claim.OUTPUT_DOMAIN)}
MECHANISMS = statement_twin_entries(globals(), STATEMENT_TWIN_OF.values(), REFUTED_STATEMENTS)
UNSUPPORTED = [Entry("make_dl_rounded_continuous", make_dl_rounded_continuous)]
