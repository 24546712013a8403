"""``make_discrete_laplace(scale)``: add discrete Laplace noise to an integer.

``function(x) = x + Y`` with ``Pr[Y = z] = exp(-|z| / scale) / Z(scale)`` on the integers, drawn
exactly by :func:`mechanisms.samplers.sample_discrete_laplace` (CKS 2020, Algorithm 2). Input and
output domain ``AtomDomain(int)``, ``AbsoluteDistance`` -> ``MaxDivergence``. Privacy map
``d_in -> d_in / scale``, computed exactly and rounded up to a float; ``0`` for ``d_in = 0``.

Precondition: ``scale`` is a finite float ``>= 0``. As in OpenDP (``make_laplace`` on
``atom_domain(T=int)``), ``scale = 0`` is admitted: no noise is added, and the map is ``0`` for
``d_in = 0`` and ``+inf`` otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement, Precondition, declares
from mechanisms.domains import AtomDomain
from mechanisms.errors import ScaleError
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import AbsoluteDistance
from mechanisms.samplers import sample_discrete_laplace, system_rng


def laplace_map(d_in: Any, scale: Any) -> Any:
    """``0`` if ``d_in = 0``, else ``d_in / scale`` rounded up."""
    return ops.where(ops.eq(d_in, 0), 0, div_up(d_in, scale))


@dataclass(frozen=True)
class IntegerNoise:
    """``x -> shift(x, Y)`` with ``Y = sampler(scale, rng)`` an integer; no noise when
    ``scale = 0``. ``sampler`` is one of the exact samplers of :mod:`mechanisms.samplers`."""

    scale: Any
    sampler: Callable[[Any, Any], int]

    @staticmethod
    def shift(arg: Any, noise: Any) -> Any:
        """``arg + noise``: the output for a given draw."""
        return arg + noise

    def __call__(self, arg: int, rng: Any = None) -> int:
        noise = self.sampler(self.scale, system_rng(rng)) if self.scale > 0 else 0
        return self.shift(arg, noise)


@declares({"scale": float})
def validate_scale(scale: Any) -> None:
    """``scale`` is a ``float`` (not an int or a bool)."""
    if type(scale) is not float:
        raise ScaleError(scale)


SCALE_PRECONDITIONS = (
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("scale >= 0", lambda scale, **_: ops.le(0, scale),
                 lambda scale, **_: ScaleError(scale)),
)
"""Shared with the other additive-noise constructors."""


def build_discrete_laplace(scale: Any) -> Measurement:
    return Measurement(
        input_domain=AtomDomain(int),
        output_domain=AtomDomain(int),
        input_metric=AbsoluteDistance(),
        output_measure=MaxDivergence(),
        function=IntegerNoise(scale, sample_discrete_laplace),
        privacy_map=Map(rule=laplace_map, params={"scale": scale}),
    )


make_discrete_laplace = Constructor("make_discrete_laplace", build_discrete_laplace,
                                    SCALE_PRECONDITIONS, validate_scale)
