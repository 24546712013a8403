"""``make_vector_laplace(scale)``: add independent discrete Laplace noise to each coordinate of a
vector of integers.

``function(v) = [v_1 + Y_1, ..., v_n + Y_n]`` with ``Y_1, ..., Y_n`` independent and
``Pr[Y_i = z] = exp(-|z| / scale) / Z(scale)`` on the integers, each drawn exactly by
:func:`mechanisms.samplers.sample_discrete_laplace` (CKS 2020, Algorithm 2). Input and output
domain ``VectorDomain(AtomDomain(int))`` (any length, the output as long as the input),
``L1Distance`` -> ``MaxDivergence``. Privacy map ``d_in -> d_in / scale``, computed exactly and
rounded up to a float; ``0`` for ``d_in = 0``. For vectors of one length ``n`` the loss on an
output ``y`` is ``sum_i (|y_i - v'_i| - |y_i - v_i|) / scale <= sum_i |v_i - v'_i| / scale``,
for every ``n``; vectors of different lengths are at L1 distance ``+inf``, where the map is
``+inf``.

Precondition: ``scale`` is a finite float ``>= 0`` (:class:`ScaleError`); ``scale = 0`` adds no
noise, with map ``+inf`` for ``d_in > 0`` (as OpenDP). OpenDP 0.16: ``dp.m.make_laplace`` on
``vector_domain(atom_domain(T=int))`` with ``l1_distance(T=int)``; the same map (rounded up once
here from the exact quotient). OpenDP's vectors of different lengths are an error of the metric;
here they are at distance ``+inf``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from mechanisms.core import Constructor, Map, Measurement
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_discrete_laplace import SCALE_PRECONDITIONS, laplace_map, validate_scale
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import L1Distance
from mechanisms.samplers import sample_discrete_laplace, system_rng


@dataclass(frozen=True)
class VectorNoise:
    """``v -> [shift(v_i, Y_i) for each i]`` with ``Y_i = sampler(scale, rng)`` independent
    integers, one draw per coordinate, in order; no noise when ``scale = 0``. ``sampler`` is one
    of the exact samplers of :mod:`mechanisms.samplers`."""

    scale: Any
    sampler: Callable[[Any, Any], int]

    @staticmethod
    def shift(arg: Any, noise: Any) -> Any:
        """``arg + noise``: one coordinate's output for a given draw."""
        return arg + noise

    def __call__(self, arg: Sequence[int], rng: Any = None) -> list[int]:
        if not self.scale > 0:
            return [self.shift(x, 0) for x in arg]
        rng = system_rng(rng)
        return [self.shift(x, self.sampler(self.scale, rng)) for x in arg]


VECTOR_SCALE_PRECONDITIONS = SCALE_PRECONDITIONS
"""Those of :func:`mechanisms.make_discrete_laplace.make_discrete_laplace`: finite
``scale >= 0``."""


def build_vector_laplace(scale: Any) -> Measurement:
    return Measurement(
        input_domain=VectorDomain(AtomDomain(int)),
        output_domain=VectorDomain(AtomDomain(int)),
        input_metric=L1Distance(),
        output_measure=MaxDivergence(),
        function=VectorNoise(scale, sample_discrete_laplace),
        privacy_map=Map(rule=laplace_map, params={"scale": scale}),
    )


make_vector_laplace = Constructor("make_vector_laplace", build_vector_laplace,
                                  VECTOR_SCALE_PRECONDITIONS, validate_scale)
