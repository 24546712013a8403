"""``make_gaussian(scale)``: add discrete Gaussian noise to an integer.

``function(x) = x + Y`` with ``Pr[Y = z] = exp(-z^2 / (2 scale^2)) / Z(scale)`` on the integers,
drawn exactly by :func:`mechanisms.samplers.sample_discrete_gaussian` (CKS 2020, Algorithm 3).
Input and output domain ``AtomDomain(int)``, ``AbsoluteDistance`` -> ``ZeroConcentratedDivergence``.
Privacy map ``d_in -> (d_in / scale)^2 / 2``, computed exactly and rounded up to a float; ``0``
for ``d_in = 0`` (CKS 2020, Theorem 4: integer sensitivity ``D`` gives ``D^2 / (2 scale^2)``-zCDP).

Precondition: ``scale`` is a finite float ``>= 0``; as in OpenDP, ``scale = 0`` adds no noise and
has map ``+inf`` for ``d_in > 0``. The map equals OpenDP's on the tested grid. Only integer
inputs are supported (OpenDP also offers float inputs through a grid of ``2^k``).
"""

from __future__ import annotations

from typing import Any

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement
from mechanisms.domains import AtomDomain
from mechanisms.make_discrete_laplace import (SCALE_PRECONDITIONS, IntegerNoise,
                                              validate_scale)
from mechanisms.measures import ZeroConcentratedDivergence
from mechanisms.metrics import AbsoluteDistance
from mechanisms.samplers import sample_discrete_gaussian


def gaussian_map(d_in: Any, scale: Any) -> Any:
    """``0`` if ``d_in = 0``, else ``d_in^2 / (2 scale^2)`` rounded up."""
    exact_d_in, exact_scale = ops.exact(d_in), ops.exact(scale)
    return ops.where(ops.eq(d_in, 0), 0, div_up(exact_d_in * exact_d_in,
                                                2 * exact_scale * exact_scale))


GAUSSIAN_PRECONDITIONS = (*SCALE_PRECONDITIONS,)
"""Those of :func:`mechanisms.make_discrete_laplace.make_discrete_laplace`: finite ``scale >= 0``."""


def build_gaussian(scale: Any) -> Measurement:
    return Measurement(
        input_domain=AtomDomain(int),
        output_domain=AtomDomain(int),
        input_metric=AbsoluteDistance(),
        output_measure=ZeroConcentratedDivergence(),
        function=IntegerNoise(scale, sample_discrete_gaussian),
        privacy_map=Map(rule=gaussian_map, params={"scale": scale}),
    )


make_gaussian = Constructor("make_gaussian", build_gaussian, GAUSSIAN_PRECONDITIONS, validate_scale)
