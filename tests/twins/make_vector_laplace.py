"""Wrong twins of ``make_vector_laplace``: one refuted per obligation, and a float Laplace sampler
outside the proof method."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Sequence

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Map
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_vector_laplace import VectorNoise, build_vector_laplace, make_vector_laplace
from mechanisms.metrics import AbsoluteDistance
from mechanisms.samplers import sample_discrete_laplace, system_rng
from obligations.base import Entry
from obligations.make_vector_laplace import vector_laplace_obligations


def build_float_output(scale: Any):
    """Wrong: promises vectors of floats; the coordinates are ints."""
    return replace(build_vector_laplace(scale), output_domain=VectorDomain(AtomDomain(float)))


def build_float_input(scale: Any):
    """Wrong domain: float vectors accepted ("integer noise works on floats too"); the integer
    draw keeps each coordinate's fractional part, so outputs leave the int output domain and
    [0.5] vs [-0.0] have disjoint supports."""
    return replace(build_vector_laplace(scale), input_domain=VectorDomain(AtomDomain(float)))


def build_absolute_metric(scale: Any):
    """Wrong: absolute distance is for one number, the input is a vector."""
    return replace(build_vector_laplace(scale), input_metric=AbsoluteDistance())


@dataclass(frozen=True)
class UnsignedNoise(VectorNoise):
    """Wrong distribution: adds |draw| (the sign dropped, as with an unsigned geometric), so the
    noise is one-sided and two draws reach the same coordinate."""

    @staticmethod
    def shift(arg: Any, noise: Any) -> Any:
        return arg + ops.absolute(noise)


def build_unsigned(scale: Any):
    return replace(build_vector_laplace(scale),
                   function=UnsignedNoise(scale, sample_discrete_laplace))


def unit_map(d_in: Any, scale: Any) -> Any:
    """Wrong: ``1 / scale``, the map of one coordinate moved by 1, whatever d_in."""
    return ops.where(ops.eq(d_in, 0), 0, div_up(1, scale))


def build_unit_map(scale: Any):
    return replace(build_vector_laplace(scale), privacy_map=Map(rule=unit_map,
                                                                params={"scale": scale}))


def divide_to_nearest(d_in: Any, scale: Any) -> Any:
    """Wrong rounding: ``d_in / scale`` in floats (0 at ``d_in = 0``)."""
    return ops.where(ops.eq(d_in, 0), 0, d_in / scale)


def build_nearest_map(scale: Any):
    return replace(build_vector_laplace(scale), privacy_map=Map(rule=divide_to_nearest,
                                                                params={"scale": scale}))


@dataclass(frozen=True)
class InverseCdf(VectorNoise):
    """Outside the proof method: ``x + round(Laplace(scale))`` by a float inverse CDF."""

    def __call__(self, arg: Sequence[int], rng: Any = None) -> list[int]:
        rng = system_rng(rng)
        out = []
        for x in arg:
            u = rng.random() - 0.5
            noise = -float(Fraction(self.scale)) * math.copysign(1.0, u) * math.log1p(-2 * abs(u))
            out.append(self.shift(x, round(noise)))
        return out


def build_inverse_cdf(scale: Any):
    return replace(build_vector_laplace(scale), function=InverseCdf(scale, sample_discrete_laplace))


make_vlap_float_output = make_vector_laplace.variant("make_vlap_float_output", build_float_output)
make_vlap_float_input = make_vector_laplace.variant("make_vlap_float_input", build_float_input)
make_vlap_absolute_metric = make_vector_laplace.variant("make_vlap_absolute_metric",
                                                        build_absolute_metric)
make_vlap_unsigned = make_vector_laplace.variant("make_vlap_unsigned", build_unsigned)
make_vlap_unit_map = make_vector_laplace.variant("make_vlap_unit_map", build_unit_map)
make_vlap_nearest_map = make_vector_laplace.variant("make_vlap_nearest_map", build_nearest_map)
make_vlap_inverse_cdf = make_vector_laplace.variant("make_vlap_inverse_cdf", build_inverse_cdf)

MECHANISMS = [
    Entry("make_vlap_float_output", make_vlap_float_output,
          vector_laplace_obligations(make_vlap_float_output, "vlap_float_output")),
    Entry("make_vlap_float_input", make_vlap_float_input,
          vector_laplace_obligations(make_vlap_float_input, "vlap_float_input")),
    Entry("make_vlap_absolute_metric", make_vlap_absolute_metric,
          vector_laplace_obligations(make_vlap_absolute_metric, "vlap_absolute_metric")),
    Entry("make_vlap_unsigned", make_vlap_unsigned,
          vector_laplace_obligations(make_vlap_unsigned, "vlap_unsigned")),
    Entry("make_vlap_unit_map", make_vlap_unit_map,
          vector_laplace_obligations(make_vlap_unit_map, "vlap_unit_map")),
    Entry("make_vlap_nearest_map", make_vlap_nearest_map,
          vector_laplace_obligations(make_vlap_nearest_map, "vlap_nearest_map")),
]

EXPECTED_REFUTATIONS = {
    "vlap_float_output.output_domain",
    "vlap_float_input.output_domain",
    "vlap_float_input.privacy",
    "vlap_absolute_metric.compatibility",
    "vlap_unsigned.distribution",
    "vlap_unit_map.privacy",
    "vlap_nearest_map.map_rounding",
    "vlap_nearest_map.privacy",
}

TWIN_OF = {
    "vector_laplace.output_domain": "vlap_float_output.output_domain",
    "vector_laplace.compatibility": "vlap_absolute_metric.compatibility",
    "vector_laplace.distribution": "vlap_unsigned.distribution",
    "vector_laplace.privacy": "vlap_unit_map.privacy",
    "vector_laplace.map_rounding": "vlap_nearest_map.map_rounding",
}

UNSUPPORTED = [
    Entry("make_vlap_inverse_cdf", make_vlap_inverse_cdf,
          vector_laplace_obligations(make_vlap_inverse_cdf, "vlap_inverse_cdf")),
]
