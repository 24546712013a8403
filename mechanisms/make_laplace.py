"""``make_laplace(scale, k=-1074)``: Laplace noise on a float, through the grid ``2^k``.

As OpenDP's float Laplace: the input ``x`` is rounded to the nearest multiple ``i 2^k`` of
``2^k`` (ties up), an exact discrete Laplace draw ``Z`` of scale ``scale / 2^k`` is added to
``i`` (CKS 2020, Algorithm 2), and ``(i + Z) 2^k`` is rounded to the nearest float (``+-inf``
beyond the range). Input domain ``AtomDomain(float)`` (no NaN; ``+-inf`` are clamped to
``+-max float`` first), output domain ``AtomDomain(float)``, ``AbsoluteDistance`` ->
``MaxDivergence``. Privacy map ``0`` for ``d_in = 0``, else ``(d_in + 2^k - 2^-1074) / scale``
computed exactly and rounded up: rounding to the grid moves two inputs' distance by less than
``2^k`` and by a multiple of ``2^-1074`` (OpenDP's ``get_discretization_consts`` relaxation).

Preconditions: ``scale`` a finite float ``>= 0`` (``0``: no noise, map ``+inf``), ``k`` an int
``>= -1074`` (OpenDP refuses smaller ``k`` too). Unlike OpenDP, ``k`` has no ``None`` default
(the default is ``-1074``, OpenDP's choice for ``None``) and ``map(0) = 0`` for every ``k``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mechanisms import ops
from mechanisms.arith import div_up, exact_sum
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain
from mechanisms.errors import GranularityError, ScaleError
from mechanisms.make_discrete_laplace import SCALE_PRECONDITIONS
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import AbsoluteDistance
from mechanisms.samplers import sample_discrete_laplace, system_rng

K_MIN = -1074
"""The finest grid: every finite float is an integer multiple of ``2^-1074``."""

GRID_UNIT = Fraction(1, 2 ** -K_MIN)
"""``2^K_MIN``, the unit in which inputs and the grid step are counted."""

FLOAT_MAX = sys.float_info.max
"""Infinite inputs are clamped to ``+-FLOAT_MAX``."""


def grid_multiple(k: Any) -> Any:
    """``2^(k - K_MIN)``: the grid step ``2^k`` in units of ``2^K_MIN`` (on a Z3 integer ``k``,
    Z3's integer power)."""
    return 2 ** (k - K_MIN)


def grid_step(multiple: Any) -> Any:
    """``2^k = multiple 2^K_MIN``, exactly (a Fraction, or a Z3 real)."""
    return ops.times(multiple, GRID_UNIT)


def grid_index(units: Any, multiple: Any) -> Any:
    """``floor(units / multiple + 1/2)``: ``x = units 2^K_MIN`` to the nearest multiple of the
    grid step ``multiple 2^K_MIN``, ties up."""
    return ops.floor_div(2 * units + multiple, 2 * multiple)


def grid_scale(scale: Any, multiple: Any) -> Any:
    """``scale / 2^k``: the noise scale counted in grid steps."""
    return ops.exact(scale) / grid_step(multiple)


def relaxation(multiple: Any) -> Any:
    """``2^k - 2^K_MIN``: how much rounding to the grid can add to a distance."""
    return grid_step(multiple) - GRID_UNIT


def laplace_float_map(d_in: Any, scale: Any, multiple: Any) -> Any:
    """``0`` if ``d_in = 0``, else ``(d_in + 2^k - 2^K_MIN) / scale`` rounded up."""
    return ops.where(ops.eq(d_in, 0), 0, div_up(exact_sum(d_in, relaxation(multiple)), scale))


def float_units(x: Any) -> Any:
    """``x / 2^K_MIN`` (an integer for a finite float), exact; ``+-inf`` count as
    ``+-FLOAT_MAX``."""
    clamped = ops.maximum(ops.minimum(x, FLOAT_MAX), -FLOAT_MAX)
    return ops.floor_div(ops.exact(clamped), GRID_UNIT)


def grid_to_float(index: Any, multiple: Any) -> Any:
    """The float nearest to ``index 2^k`` (ties to even), ``+-inf`` beyond the float range."""
    return ops.to_float(index * grid_step(multiple))


@dataclass(frozen=True)
class FloatGrid:
    """What the float-grid noise kernels share: the noise ``scale``, the grid ``multiple`` and
    the grid steps; a subclass's ``__call__`` rounds the input to the grid, adds one exact draw
    and rounds back to a float."""

    scale: Any
    multiple: Any

    grid_index = staticmethod(grid_index)
    grid_scale = staticmethod(grid_scale)
    grid_to_float = staticmethod(grid_to_float)


@dataclass(frozen=True)
class FloatGridLaplace(FloatGrid):
    """Round the input to the grid, add one exact discrete Laplace draw, round to a float."""

    def __call__(self, arg: float, rng: Any = None) -> float:
        index = self.grid_index(float_units(arg), self.multiple)
        noise_scale = Fraction(self.grid_scale(self.scale, self.multiple))
        noise = sample_discrete_laplace(noise_scale, system_rng(rng)) if noise_scale > 0 else 0
        return self.grid_to_float(index + noise, self.multiple)


def validate_laplace(scale: Any, k: Any) -> None:
    """``scale`` is a ``float`` and ``k`` an ``int`` (not a bool)."""
    if type(scale) is not float:
        raise ScaleError(scale)
    if type(k) is not int:
        raise GranularityError(k)


LAPLACE_PRECONDITIONS = (
    *SCALE_PRECONDITIONS,
    Precondition("k >= -1074", lambda scale, k: ops.le(K_MIN, k),
                 lambda scale, k: GranularityError(k)),
)


def build_laplace(scale: Any, k: Any = K_MIN) -> Measurement:
    multiple = grid_multiple(k)
    return Measurement(
        input_domain=AtomDomain(float),
        output_domain=AtomDomain(float),
        input_metric=AbsoluteDistance(),
        output_measure=MaxDivergence(),
        function=FloatGridLaplace(scale, multiple),
        privacy_map=Map(rule=laplace_float_map, params={"scale": scale, "multiple": multiple}),
    )


make_laplace = Constructor("make_laplace", build_laplace, LAPLACE_PRECONDITIONS, validate_laplace)
