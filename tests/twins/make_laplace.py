"""Wrong twins of ``make_laplace`` (floats through the grid): one refuted per obligation, and a
float inverse-CDF sampler outside the proof method."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Map
from mechanisms.make_laplace import FloatGridLaplace, build_laplace, make_laplace
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import system_rng
from obligations.base import Entry
from obligations.make_laplace import laplace_obligations


@dataclass(frozen=True)
class IntegerOutput(FloatGridLaplace):
    """Wrong: returns the grid point as an exact integer multiple, not a float."""

    @staticmethod
    def grid_to_float(index: Any, multiple: Any) -> Any:
        return index * multiple


@dataclass(frozen=True)
class RoundsDown(FloatGridLaplace):
    """Wrong distribution: the input goes to the grid point below, not the nearest one."""

    @staticmethod
    def grid_index(units: Any, multiple: Any) -> Any:
        return ops.floor_div(units, multiple)


@dataclass(frozen=True)
class InverseCdf(FloatGridLaplace):
    """Outside the proof method: x + scale * Laplace by a float inverse CDF (Mironov 2012)."""

    def __call__(self, arg: float, rng: Any = None) -> float:
        u = system_rng(rng).random() - 0.5
        return arg - self.scale * math.copysign(1.0, u) * math.log1p(-2 * abs(u))


def with_function(function_class: type):
    def build(scale: Any, k: Any = -1074):
        built = build_laplace(scale, k)
        return replace(built, function=function_class(built.function.scale, built.function.multiple))
    return build


def build_symmetric_input(scale: Any, k: Any = -1074):
    """Wrong: symmetric distance is for vectors, the input is one float."""
    return replace(build_laplace(scale, k), input_metric=SymmetricDistance())


def map_without_relaxation(d_in: Any, scale: Any, multiple: Any) -> Any:
    """Wrong: ``d_in / scale`` forgets that rounding to the grid 2^k adds up to 2^k - 2^-1074."""
    return div_up(d_in, scale)


def build_no_relaxation(scale: Any, k: Any = -1074):
    built = build_laplace(scale, k)
    return replace(built, privacy_map=Map(rule=map_without_relaxation,
                                          params=dict(built.privacy_map.params)))


def build_double_grid(scale: Any, k: Any = -1074):
    """Wrong: the function rounds to and draws on the grid ``2^(k+1)``; the map is for ``2^k``."""
    built = build_laplace(scale, k)
    return replace(built, function=FloatGridLaplace(scale, 2 * built.function.multiple))


make_laplace_double_grid = make_laplace.variant("make_laplace_double_grid", build_double_grid)
make_laplace_integer_output = make_laplace.variant("make_laplace_integer_output",
                                                   with_function(IntegerOutput))
make_laplace_symmetric_input = make_laplace.variant("make_laplace_symmetric_input",
                                                    build_symmetric_input)
make_laplace_rounds_down = make_laplace.variant("make_laplace_rounds_down", with_function(RoundsDown))
make_laplace_no_relaxation = make_laplace.variant("make_laplace_no_relaxation", build_no_relaxation)
make_laplace_inverse_cdf = make_laplace.variant("make_laplace_inverse_cdf", with_function(InverseCdf))

MECHANISMS = [
    Entry("make_laplace_integer_output", make_laplace_integer_output,
          laplace_obligations(make_laplace_integer_output, "laplace_integer_output")),
    Entry("make_laplace_symmetric_input", make_laplace_symmetric_input,
          laplace_obligations(make_laplace_symmetric_input, "laplace_symmetric_input")),
    Entry("make_laplace_rounds_down", make_laplace_rounds_down,
          laplace_obligations(make_laplace_rounds_down, "laplace_rounds_down")),
    Entry("make_laplace_no_relaxation", make_laplace_no_relaxation,
          laplace_obligations(make_laplace_no_relaxation, "laplace_no_relaxation")),
    Entry("make_laplace_double_grid", make_laplace_double_grid,
          laplace_obligations(make_laplace_double_grid, "laplace_double_grid")),
]

EXPECTED_REFUTATIONS = {
    "laplace_integer_output.output_domain",
    "laplace_symmetric_input.compatibility",
    "laplace_rounds_down.distribution",
    "laplace_no_relaxation.privacy",
    "laplace_double_grid.distribution",
    "laplace_double_grid.privacy",
}

TWIN_OF = {
    "laplace.output_domain": "laplace_integer_output.output_domain",
    "laplace.compatibility": "laplace_symmetric_input.compatibility",
    "laplace.distribution": "laplace_rounds_down.distribution",
    "laplace.privacy": "laplace_no_relaxation.privacy",
}

UNSUPPORTED = [
    Entry("make_laplace_inverse_cdf", make_laplace_inverse_cdf,
          laplace_obligations(make_laplace_inverse_cdf, "laplace_inverse_cdf")),
]
