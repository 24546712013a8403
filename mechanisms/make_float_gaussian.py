"""``make_float_gaussian(scale, k=-1074)``: discrete Gaussian noise on a float, through the grid
``2^k``.

As OpenDP's float Gaussian (``make_gaussian`` on ``atom_domain(T=float)``), and exactly as our
:func:`mechanisms.make_laplace.make_laplace` does it for Laplace: the input ``x`` is rounded to
the nearest multiple ``i 2^k`` of ``2^k`` (ties up; ``+-inf`` clamped to ``+-max float`` first),
an exact discrete Gaussian draw ``Z`` with ``Pr[Z = z]`` proportional to
``exp(-z^2 / (2 sigma^2))``, ``sigma = scale / 2^k`` (CKS 2020, Algorithm 3), is added to ``i``,
and ``(i + Z) 2^k`` is rounded to the nearest float (``+-inf`` beyond the range). Input domain
``AtomDomain(float)`` (no NaN), output domain ``AtomDomain(float)``, ``AbsoluteDistance`` ->
``ZeroConcentratedDivergence``.

Privacy map ``0`` for ``d_in = 0``, else ``((d_in + 2^k - 2^-1074) / scale)^2 / 2`` computed
exactly and rounded up once: two inputs ``d_in`` apart land on grid indices at most
``(d_in + 2^k - 2^-1074) / 2^k`` apart (OpenDP's ``get_discretization_consts`` relaxation), an
integer sensitivity ``D`` in grid steps, and the discrete Gaussian of parameter ``sigma`` is
``D^2 / (2 sigma^2)``-zCDP (CKS 2020, Theorem 4); ``D^2 / (2 sigma^2) = (D 2^k)^2 / (2 scale^2)``.

Preconditions: ``scale`` a finite float ``>= 0`` (``0``: no noise, map ``+inf`` for
``d_in > 0``), ``k`` an int ``>= -1074`` (ScaleError, GranularityError). Differences from
OpenDP 0.16: ``k`` has no ``None`` default (the default is ``-1074``, OpenDP's choice for
``None``); ``map(0) = 0`` for every ``k`` (OpenDP adds the relaxation at ``d_in = 0`` too,
``map(0) = ((2^k - 2^-1074) / scale)^2 / 2``); the map is rounded up once from the exact value
(OpenDP rounds up each operation), so ours is never above OpenDP's on the tested grid.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mechanisms import ops
from mechanisms.arith import div_up, exact_sum
from mechanisms.core import Constructor, Map, Measurement
from mechanisms.domains import AtomDomain
from mechanisms.make_laplace import (K_MIN, LAPLACE_PRECONDITIONS, FloatGrid,
                                     float_units, grid_multiple, relaxation, validate_laplace)
from mechanisms.measures import ZeroConcentratedDivergence
from mechanisms.metrics import AbsoluteDistance
from mechanisms.samplers import sample_discrete_gaussian, system_rng


def gaussian_float_map(d_in: Any, scale: Any, multiple: Any) -> Any:
    """``0`` if ``d_in = 0``, else ``(d_in + 2^k - 2^-1074)^2 / (2 scale^2)`` rounded up once
    (``+inf`` for ``d_in = +inf`` or ``scale = 0``)."""
    shifted, exact_scale = exact_sum(d_in, relaxation(multiple)), ops.exact(scale)
    return ops.where(ops.eq(d_in, 0), 0,
                     div_up(shifted * shifted, 2 * exact_scale * exact_scale))


@dataclass(frozen=True)
class FloatGridGaussian(FloatGrid):
    """Round the input to the grid, add one exact discrete Gaussian draw, round to a float."""

    def __call__(self, arg: float, rng: Any = None) -> float:
        index = self.grid_index(float_units(arg), self.multiple)
        sigma = Fraction(self.grid_scale(self.scale, self.multiple))
        noise = sample_discrete_gaussian(sigma, system_rng(rng)) if sigma > 0 else 0
        return self.grid_to_float(index + noise, self.multiple)


FLOAT_GAUSSIAN_PRECONDITIONS = LAPLACE_PRECONDITIONS
"""Those of :func:`mechanisms.make_laplace.make_laplace`: finite ``scale >= 0``, ``k >= -1074``."""


def build_float_gaussian(scale: Any, k: Any = K_MIN) -> Measurement:
    multiple = grid_multiple(k)
    return Measurement(
        input_domain=AtomDomain(float),
        output_domain=AtomDomain(float),
        input_metric=AbsoluteDistance(),
        output_measure=ZeroConcentratedDivergence(),
        function=FloatGridGaussian(scale, multiple),
        privacy_map=Map(rule=gaussian_float_map, params={"scale": scale, "multiple": multiple}),
    )


make_float_gaussian = Constructor("make_float_gaussian", build_float_gaussian,
                                  FLOAT_GAUSSIAN_PRECONDITIONS, validate_laplace)
