"""Wrong twins of ``make_randomized_response_bitvec``, one per obligation (and more for the law and
privacy): each a slip a port of OpenDP's ``arg ^ noise_vector`` (``noise_vector`` of
Bernoulli(``f/2``) bits, map ``2 m ln((2 - f)/f)``) could make, refuted with a counterexample that
the real code confirms. OpenDP's own domain, bit vectors of any length, is outside the proof
method (neighbours of two lengths) and must never be proved."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from mechanisms import ops
from mechanisms.core import Map
from mechanisms.make_randomized_response import rr_privacy_map
from mechanisms.make_randomized_response_bitvec import (RandomizedResponseBitvec, bit_odds,
                                                        build_randomized_response_bitvec,
                                                        differing_bits,
                                                        make_randomized_response_bitvec)
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import sample_bernoulli_rational, system_rng
from obligations.base import Entry
from obligations.make_randomized_response_bitvec import randomized_response_bitvec_obligations
from tests.twins.make_maps_rounded_to_nearest import ln_nearest


@dataclass(frozen=True)
class IntBits(RandomizedResponseBitvec):
    """Wrong (output domain): the xor taken on 0/1 integers, ``int(bit) ^ coin``, as a port of
    a ``u8`` bit vector would: the release holds the ints 0 and 1, not bools."""

    def respond_bit(self, bit: bool, rng: Any) -> Any:
        return int(bit) ^ sample_bernoulli_rational(self.flip_probability(), rng)


@dataclass(frozen=True)
class OddsCoin(RandomizedResponseBitvec):
    """Wrong (runtime errors): the coin is handed the map's odds ``(2 - f)/f`` instead of the
    flip probability ``f/2``; below ``f = 1`` the odds exceed 1 and the exact Bernoulli raises
    on every call."""

    def flip_probability(self) -> Any:
        return bit_odds(self.f)


@dataclass(frozen=True)
class FlipWithF(RandomizedResponseBitvec):
    """Wrong (distribution, privacy): RAPPOR's ``f`` (the probability of replacing a bit by a
    fair coin) taken as the flip probability: a bit flips with ``f``, not ``f/2``. At ``f = 1``
    every bit is negated, a deterministic release, while the map is ``ln 1 = 0``."""

    def flip_probability(self) -> Any:
        return ops.exact(self.f)


@dataclass(frozen=True)
class OneCoinForAll(RandomizedResponseBitvec):
    """Wrong (distribution, privacy): the noise vector built as ``[coin] * len(arg)``, one coin
    repeated: all bits flip together, so ``(True, False)`` and ``(False, False)`` give disjoint
    releases (an infinite loss). Its ``__call__`` is not the kernel's, so the structure goal is
    unsupported; the running loss and the product law refute it on the real code."""

    def __call__(self, arg: Sequence[bool], rng: Any = None) -> tuple[bool, ...]:
        rng = system_rng(rng)
        noise = [sample_bernoulli_rational(self.flip_probability(), rng)] * len(arg)
        return tuple(bit ^ coin for bit, coin in zip(arg, noise))


def _with_function(kind: type):
    def build(m: Any, f: Any, size: Any):
        return replace(build_randomized_response_bitvec(m, f, size), function=kind(f))
    return build


def build_symmetric_input(m: Any, f: Any, size: Any):
    """Wrong (compatibility): the symmetric distance of a dataset transformation as the input
    metric; it is defined on vector domains of rows, not on the bit-vector domain (whose
    neighbours are any two vectors, not vectors one row apart)."""
    return replace(build_randomized_response_bitvec(m, f, size), input_metric=SymmetricDistance())


def build_map_without_two(m: Any, f: Any, size: Any):
    """Wrong (privacy): ``m ln((2 - f)/f)``, the factor 2 of OpenDP's ``2 m ln((2 - f)/f)``
    dropped: a neighbour may move the ``m`` ones of ``x`` and set ``m`` others, ``2m`` bits."""
    built = build_randomized_response_bitvec(m, f, size)
    return replace(built, privacy_map=Map(rule=rr_privacy_map, params={
        "epsilon": ops.mul_up(m, ops.ln_up(bit_odds(f)))}))


def build_math_log(m: Any, f: Any, size: Any):
    """Wrong (map rounding): ``math.log`` of the odds, to nearest, which can fall below
    ``ln((2 - f)/f)``."""
    built = build_randomized_response_bitvec(m, f, size)
    return replace(built, privacy_map=Map(rule=rr_privacy_map, params={
        "epsilon": ops.mul_up(differing_bits(size, m), ln_nearest(bit_odds(f)))}))


make_rrbv_int_bits = make_randomized_response_bitvec.variant("make_rrbv_int_bits",
                                                             _with_function(IntBits))
make_rrbv_symmetric_input = make_randomized_response_bitvec.variant("make_rrbv_symmetric_input",
                                                                    build_symmetric_input)
make_rrbv_odds_coin = make_randomized_response_bitvec.variant("make_rrbv_odds_coin",
                                                              _with_function(OddsCoin))
make_rrbv_flip_with_f = make_randomized_response_bitvec.variant("make_rrbv_flip_with_f",
                                                                _with_function(FlipWithF))
make_rrbv_one_coin = make_randomized_response_bitvec.variant("make_rrbv_one_coin",
                                                             _with_function(OneCoinForAll))
make_rrbv_map_without_two = make_randomized_response_bitvec.variant("make_rrbv_map_without_two",
                                                                    build_map_without_two)
make_rrbv_math_log = make_randomized_response_bitvec.variant("make_rrbv_math_log",
                                                             build_math_log)

MECHANISMS = [Entry(c.name, c, randomized_response_bitvec_obligations(
    c, c.name.removeprefix("make_")))
    for c in (make_rrbv_int_bits, make_rrbv_symmetric_input, make_rrbv_odds_coin,
              make_rrbv_flip_with_f, make_rrbv_one_coin, make_rrbv_map_without_two)]
MECHANISMS.append(Entry(make_rrbv_math_log.name, make_rrbv_math_log, tuple(
    o for o in randomized_response_bitvec_obligations(make_rrbv_math_log, "rrbv_math_log")
    if o.id.endswith(".map_rounding"))))
"""The ``math.log`` twin branches on solver terms (``ln_nearest``): only its map_rounding is
checked."""

EXPECTED_REFUTATIONS = {
    "rrbv_int_bits.output_domain",
    "rrbv_symmetric_input.compatibility",
    "rrbv_odds_coin.output_domain",
    "rrbv_odds_coin.runtime_errors",
    "rrbv_flip_with_f.distribution",
    "rrbv_flip_with_f.privacy",
    "rrbv_one_coin.distribution",
    "rrbv_one_coin.privacy",
    "rrbv_map_without_two.privacy",
    "rrbv_math_log.map_rounding",
}

TWIN_OF = {
    "randomized_response_bitvec.output_domain": "rrbv_int_bits.output_domain",
    "randomized_response_bitvec.compatibility": "rrbv_symmetric_input.compatibility",
    "randomized_response_bitvec.runtime_errors": "rrbv_odds_coin.runtime_errors",
    "randomized_response_bitvec.distribution": "rrbv_flip_with_f.distribution",
    "randomized_response_bitvec.privacy": "rrbv_map_without_two.privacy",
    "randomized_response_bitvec.map_rounding": "rrbv_math_log.map_rounding",
}


@dataclass(frozen=True)
class UnsizedBitVectorDomain:
    """OpenDP 0.16's ``BitVectorDomain``: bool vectors of any length with at most
    ``max_weight`` ones."""

    max_weight: Any

    def member(self, value: Any) -> bool:
        return isinstance(value, (list, tuple)) and all(type(b) is bool for b in value) \
            and sum(value) <= self.max_weight


def build_unsized(m: Any, f: Any, size: Any):
    """Outside the proof method (OpenDP's domain): vectors of any length are neighbours under
    the discrete metric, and the releases of two lengths are disjoint (an infinite loss), while
    the map is finite. Never proved: the input domain is not a ``BitVectorDomain``."""
    from mechanisms.domains import AtomDomain, VectorDomain
    return replace(build_randomized_response_bitvec(m, f, size),
                   input_domain=UnsizedBitVectorDomain(m),
                   output_domain=VectorDomain(AtomDomain(bool)))


make_rrbv_unsized = make_randomized_response_bitvec.variant("make_rrbv_unsized", build_unsized)
UNSUPPORTED = [Entry(make_rrbv_unsized.name, make_rrbv_unsized,
                     randomized_response_bitvec_obligations(make_rrbv_unsized, "rrbv_unsized"))]
