"""Wrong twins of ``make_vector_laplace``: one refuted per standard statement, each with a
counterexample the real code confirms; one-sided noise and a float Laplace sampler are outside
the kernel's rules."""

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
from obligations.kernel.statements import Claim
from tests.twins._statements import statement_twin_entries


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


class Int64Coordinates:
    """Wrong (runtime errors), mixed into a vector noise function: a port to 64-bit integers
    that refuses a vector with a wider coordinate before it draws, so whether it raises tells
    an input beyond ``2^63`` from one within."""

    def __call__(self, arg: Sequence[int], rng: Any = None) -> list[int]:
        if not all(-2 ** 63 <= x < 2 ** 63 for x in arg):
            raise OverflowError(f"a coordinate of {arg} does not fit in 64 bits")
        return super().__call__(arg, rng)


@dataclass(frozen=True)
class Int64Noise(Int64Coordinates, VectorNoise):
    """Vector noise refusing coordinates past 64 bits."""


def build_int64_input(scale: Any):
    return replace(build_vector_laplace(scale), function=Int64Noise(scale, sample_discrete_laplace))


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
make_vlap_int64_input = make_vector_laplace.variant("make_vlap_int64_input", build_int64_input)
make_vlap_inverse_cdf = make_vector_laplace.variant("make_vlap_inverse_cdf", build_inverse_cdf)

STATEMENT_TWIN_OF = {
    ("make_vector_laplace", Claim.OUTPUT_DOMAIN): ("make_vlap_float_output", Claim.OUTPUT_DOMAIN),
    ("make_vector_laplace", Claim.COMPATIBILITY): ("make_vlap_absolute_metric",
                                                   Claim.COMPATIBILITY),
    ("make_vector_laplace", Claim.PRIVACY): ("make_vlap_unit_map", Claim.PRIVACY),
    ("make_vector_laplace", Claim.RUNTIME_ERRORS): ("make_vlap_int64_input",
                                                    Claim.RUNTIME_ERRORS),
}
REFUTED_STATEMENTS = {("make_vlap_float_input", Claim.OUTPUT_DOMAIN),
                      ("make_vlap_nearest_map", Claim.PRIVACY)}
MECHANISMS = statement_twin_entries(globals(), STATEMENT_TWIN_OF.values(), REFUTED_STATEMENTS)
UNSUPPORTED = statement_twin_entries(globals(), [("make_vlap_unsigned", None),
                                                 ("make_vlap_inverse_cdf", None)])
