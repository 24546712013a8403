"""``make_vector_gaussian(scale)``: add independent discrete Gaussian noise to each coordinate of
a vector of integers.

``function(v) = [v_1 + Y_1, ..., v_n + Y_n]`` with ``Y_1, ..., Y_n`` independent and
``Pr[Y_i = z] = exp(-z^2 / (2 scale^2)) / Z(scale)`` on the integers, each drawn exactly by
:func:`mechanisms.samplers.sample_discrete_gaussian` (CKS 2020, Algorithm 3), by the same kernel
as :func:`mechanisms.make_vector_laplace.make_vector_laplace`. Input and output domain
``VectorDomain(AtomDomain(int))``, ``L2Distance`` -> ``ZeroConcentratedDivergence``. Privacy map
``d_in -> (d_in / scale)^2 / 2``, computed exactly and rounded up to a float; ``0`` for
``d_in = 0``, ``+inf`` for ``d_in = +inf`` (vectors of different lengths). Each coordinate is
``(v_i - v'_i)^2 / (2 scale^2)``-zCDP (CKS 2020, Theorem 4), and the Renyi divergences of
independent coordinates add: ``sum_i (v_i - v'_i)^2 / (2 scale^2) = ||v - v'||_2^2 / (2 scale^2)``.

Precondition: ``scale`` is a finite float ``>= 0`` (:class:`ScaleError`); ``scale = 0`` adds no
noise, with map ``+inf`` for ``d_in > 0`` (as OpenDP). OpenDP 0.16: ``dp.m.make_gaussian`` on
``vector_domain(atom_domain(T=int))`` with ``l2_distance(T=int)`` (or ``T=float``); the same map,
rounded up once here from the exact value. OpenDP's vectors of different lengths are an error of
the metric; here they are at distance ``+inf``.
"""

from __future__ import annotations

from typing import Any

from mechanisms import ops
from mechanisms.arith import div_up, exact_sum
from mechanisms.core import Constructor, Map, Measurement
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_discrete_laplace import validate_scale
from mechanisms.make_vector_laplace import VECTOR_SCALE_PRECONDITIONS, VectorNoise
from mechanisms.measures import ZeroConcentratedDivergence
from mechanisms.metrics import L2Distance
from mechanisms.samplers import sample_discrete_gaussian


def vector_gaussian_map(d_in: Any, scale: Any) -> Any:
    """``0`` if ``d_in = 0``, else ``d_in^2 / (2 scale^2)`` rounded up once (``+inf`` for
    ``d_in = +inf`` or ``scale = 0``)."""
    exact_d_in, exact_scale = exact_sum(d_in, 0), ops.exact(scale)
    return ops.where(ops.eq(d_in, 0), 0, div_up(exact_d_in * exact_d_in,
                                                2 * exact_scale * exact_scale))


def build_vector_gaussian(scale: Any) -> Measurement:
    return Measurement(
        input_domain=VectorDomain(AtomDomain(int)),
        output_domain=VectorDomain(AtomDomain(int)),
        input_metric=L2Distance(),
        output_measure=ZeroConcentratedDivergence(),
        function=VectorNoise(scale, sample_discrete_gaussian),
        privacy_map=Map(rule=vector_gaussian_map, params={"scale": scale}),
    )


make_vector_gaussian = Constructor("make_vector_gaussian", build_vector_gaussian,
                                   VECTOR_SCALE_PRECONDITIONS, validate_scale)
