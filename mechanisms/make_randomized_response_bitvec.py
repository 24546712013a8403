"""``make_randomized_response_bitvec(m, f, size)``: RAPPOR's randomized response on a bit vector
(Erlingsson, Pihur and Korolova 2014; OpenDP's ``make_randomized_response_bitvec``).

Input domain :class:`~mechanisms.domains.BitVectorDomain`: vectors of ``size`` bools with at
most ``m`` of them ``True`` (a one-hot encoding has ``m = 1``, a Bloom filter with ``h`` hash
functions ``m = h``); :class:`~mechanisms.metrics.DiscreteVectorMetric` (neighbours are any two
different vectors); max-divergence. Each bit is kept with probability ``1 - f`` and replaced by a
fair coin with probability ``f``: it is released as ``x_i XOR c_i`` with ``c_i`` an exact
Bernoulli(``f/2``) coin (:func:`~mechanisms.samplers.sample_bernoulli_rational` on the rational
``f/2`` the float ``f`` denotes), the coins independent. So
``Pr[M(x) = y] = prod_i (1 - f/2)^[y_i = x_i] (f/2)^[y_i != x_i]``, and for two members ``x, x'``
the ratio ``Pr[M(x) = y] / Pr[M(x') = y]`` is a product over the ``h`` bits where ``x`` and
``x'`` differ of ``(2 - f)/f`` or its inverse: at most ``((2 - f)/f)^h``, with
``h <= min(size, 2m)`` (a differing bit is ``True`` in one of the two vectors).

Privacy map: ``0`` at ``d_in = 0`` and ``min(size, 2m) * ln((2 - f)/f)`` for ``d_in >= 1``,
computed as ``mul_up(min(size, 2m), ln_up((2 - f)/f))`` (never below the exact value).
Preconditions: ``m`` and ``size`` ints ``>= 1``; ``f`` a float with ``0 < f <= 1``.

Differences from OpenDP 0.16: OpenDP's domain has no size (a vector of any length with at most
``m`` ones), so two inputs of different lengths are neighbours and their releases have different
lengths: the privacy loss is infinite while its map is finite. Here the length is part of the
domain. OpenDP's map is ``2m ln((2 - f)/f)`` (rounded up by each of its five float operations);
ours is ``min(size, 2m)`` times the rounded-up logarithm, once rounded: equal up to rounding when
``size >= 2m``, smaller when ``size < 2m``. OpenDP raises on ``d_in > 1``; under the discrete
metric every ``d_in >= 1`` admits the same pairs, so ours answers ``map(1)``. OpenDP draws its coin
with probability ``f/2`` rounded up to a float (``inf_div``), ours with the exact ``f/2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, BitVectorDomain, SizedDomain, VectorDomain
from mechanisms.errors import BitFlipProbabilityError, BitVectorShapeError
from mechanisms.make_randomized_response import rr_privacy_map
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteVectorMetric
from mechanisms.samplers import sample_bernoulli_rational, system_rng

HALF = Fraction(1, 2)
"""A replaced bit is a fair coin: it differs from the input with probability ``f * 1/2``."""


def bit_odds(f: Any) -> Any:
    """``(1 - f/2) / (f/2) = (2 - f) / f``, exactly: the ratio of keeping a bit to flipping it."""
    flip = ops.exact(f) * HALF
    return (1 - flip) / flip


def differing_bits(size: Any, m: Any) -> Any:
    """``min(size, 2m)``: at most this many bits differ between two members of the domain."""
    return ops.minimum(size, 2 * m)


@dataclass(frozen=True)
class RandomizedResponseBitvec:
    """The mechanism's function: :meth:`respond_bit` on each bit in order, every bit with its own
    exact coin from the same random source (OpenDP: ``arg ^ noise_vector``)."""

    f: float

    def flip_probability(self) -> Any:
        """``f/2``, exactly: the probability that a bit is released negated."""
        return ops.exact(self.f) * HALF

    def respond_bit(self, bit: bool, rng: Any) -> bool:
        """One bit: negated when its Bernoulli(``f/2``) coin comes up."""
        return bit ^ sample_bernoulli_rational(self.flip_probability(), rng)

    def __call__(self, arg: Sequence[bool], rng: Any = None) -> tuple[bool, ...]:
        rng = system_rng(rng)
        return tuple(self.respond_bit(bit, rng) for bit in arg)


def _is_count(value: Any) -> bool:
    return type(value) is int


def validate_rr_bitvec(m: Any, f: Any, size: Any) -> None:
    """``m`` and ``size`` are ints (not bools), ``f`` a float: the map's proof and its rounding
    are about the rational a float denotes."""
    for name, value in (("m", m), ("size", size)):
        if not _is_count(value):
            raise BitVectorShapeError(name, value)
    if type(f) is not float:
        raise BitFlipProbabilityError(f)


RR_BITVEC_PRECONDITIONS = (
    Precondition("m >= 1", lambda m, f, size: ops.le(1, m),
                 lambda m, f, size: BitVectorShapeError("m", m)),
    Precondition("size >= 1", lambda m, f, size: ops.le(1, size),
                 lambda m, f, size: BitVectorShapeError("size", size)),
    Precondition("f is finite", lambda m, f, size: ops.is_finite(f),
                 lambda m, f, size: BitFlipProbabilityError(f)),
    Precondition("0 < f <= 1", lambda m, f, size: ops.all_of(ops.lt(0, f), ops.le(f, 1)),
                 lambda m, f, size: BitFlipProbabilityError(f)),
)


def build_randomized_response_bitvec(m: Any, f: Any, size: Any) -> Measurement:
    epsilon = ops.mul_up(differing_bits(size, m), ops.ln_up(bit_odds(f)))
    return Measurement(
        input_domain=BitVectorDomain(size, m),
        output_domain=SizedDomain(VectorDomain(AtomDomain(bool)), size),
        input_metric=DiscreteVectorMetric(),
        output_measure=MaxDivergence(),
        function=RandomizedResponseBitvec(f),
        privacy_map=Map(rule=rr_privacy_map, params={"epsilon": epsilon}),
    )


make_randomized_response_bitvec = Constructor("make_randomized_response_bitvec",
                                              build_randomized_response_bitvec,
                                              RR_BITVEC_PRECONDITIONS, validate_rr_bitvec)
