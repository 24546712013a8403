"""Wrong twins of ``make_randomized_response_bool``, one per obligation (and more for the law and
privacy): each a slip a port of OpenDP's ``arg ^ !sample_bernoulli(prob)`` could make, refuted
with a counterexample that the real code confirms. A float coin (``rng.random() < prob``) is
outside the proof method and must never be proved."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Map, Precondition
from mechanisms.errors import BoolProbabilityError
from mechanisms.make_randomized_response import odds, rr_privacy_map
from mechanisms.make_randomized_response_bool import (OUTCOMES, RR_BOOL_PRECONDITIONS,
                                                      RandomizedResponseBool,
                                                      build_randomized_response_bool,
                                                      make_randomized_response_bool,
                                                      validate_rr_bool)
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import sample_bernoulli_rational, system_rng
from obligations.base import Entry
from obligations.make_randomized_response_bool import randomized_response_bool_obligations
from tests.twins.make_maps_rounded_to_nearest import ln_nearest


@dataclass(frozen=True)
class ArithmeticFlip(RandomizedResponseBool):
    """Wrong (output domain): the flip written as arithmetic on 0/1, ``(arg + flip) % 2``,
    returns the ints 0 and 1, not bools: outside ``AtomDomain(bool)``."""

    def __call__(self, arg: bool, rng: Any = None) -> Any:
        rng = system_rng(rng)
        flip = not sample_bernoulli_rational(Fraction(self.prob), rng)
        return (arg + flip) % 2


@dataclass(frozen=True)
class MissingNot(RandomizedResponseBool):
    """Wrong (distribution): OpenDP's ``arg ^ !sample`` ported without the ``!``: the input is
    flipped with probability ``prob``, so ``Pr[M(x) = x] = 1 - p``. (Its privacy still holds: the
    ratios are the same ``p / (1 - p)`` and its inverse; only the law, hence any estimate built on
    it, is wrong.)"""

    def __call__(self, arg: bool, rng: Any = None) -> bool:
        rng = system_rng(rng)
        return arg ^ sample_bernoulli_rational(Fraction(self.prob), rng)


@dataclass(frozen=True)
class WarnerUncorrected(RandomizedResponseBool):
    """Wrong (distribution and privacy): Warner's two-coin form, the truth with probability
    ``prob`` and otherwise a fair coin, without correcting the first coin to ``2 prob - 1``: the
    truth comes out with ``(1 + p) / 2``, a ratio ``(1 + p) / (1 - p)`` above the map's
    ``p / (1 - p)``."""

    def __call__(self, arg: bool, rng: Any = None) -> bool:
        rng = system_rng(rng)
        if sample_bernoulli_rational(Fraction(self.prob), rng):
            return arg
        return rng.randrange(2) == 1


def _with_function(kind: type):
    def build(prob: Any):
        return replace(build_randomized_response_bool(prob), function=kind(prob))
    return build


def build_odds_coin(prob: Any):
    """Wrong (runtime errors): the function is handed the map's odds ``p / (1 - p)`` instead of
    ``p``; above ``p = 1/2`` the odds exceed 1 and the exact Bernoulli raises on every call."""
    return replace(build_randomized_response_bool(prob),
                   function=RandomizedResponseBool(odds(prob, OUTCOMES)))


def build_symmetric_input(prob: Any):
    """Wrong (compatibility): the input metric copied from a dataset transformation, the
    symmetric distance, which is defined on vectors, not on one bool."""
    return replace(build_randomized_response_bool(prob), input_metric=SymmetricDistance())


def map_from_two(d_in: Any, epsilon: Any) -> Any:
    """Wrong (off by one): ``0`` for ``d_in <= 1``, ``epsilon`` above: the two inputs, which are
    at discrete distance 1, are claimed to cost nothing."""
    return ops.where(ops.le(d_in, 1), 0, epsilon)


def build_map_off_by_one(prob: Any):
    built = build_randomized_response_bool(prob)
    return replace(built, privacy_map=Map(rule=map_from_two, params=built.privacy_map.params))


def build_math_log(prob: Any):
    """Wrong (map rounding): ``math.log`` of the odds, to nearest, which can fall below
    ``ln(p / (1 - p))``."""
    built = build_randomized_response_bool(prob)
    return replace(built, privacy_map=Map(rule=rr_privacy_map,
                                          params={"epsilon": ln_nearest(odds(prob, OUTCOMES))}))


CLOSED_INTERVAL = Precondition(
    "1/2 <= prob <= 1",
    lambda prob: ops.all_of(ops.le(1, ops.exact(prob) * OUTCOMES), ops.le(prob, 1)),
    lambda prob: BoolProbabilityError(prob))
"""Wrong precondition, as OpenDP's docstring reads ("Must be in [0.5, 1]"): admits ``prob = 1``,
where the odds ``p / (1 - p)`` divide by zero and the constructor crashes in its body."""

make_rrb_arithmetic_flip = make_randomized_response_bool.variant(
    "make_rrb_arithmetic_flip", _with_function(ArithmeticFlip))
make_rrb_symmetric_input = make_randomized_response_bool.variant(
    "make_rrb_symmetric_input", build_symmetric_input)
make_rrb_odds_coin = make_randomized_response_bool.variant("make_rrb_odds_coin", build_odds_coin)
make_rrb_missing_not = make_randomized_response_bool.variant(
    "make_rrb_missing_not", _with_function(MissingNot))
make_rrb_warner_uncorrected = make_randomized_response_bool.variant(
    "make_rrb_warner_uncorrected", _with_function(WarnerUncorrected))
make_rrb_map_off_by_one = make_randomized_response_bool.variant(
    "make_rrb_map_off_by_one", build_map_off_by_one)
make_rrb_closed_interval = Constructor(
    "make_rrb_closed_interval", build_randomized_response_bool,
    (RR_BOOL_PRECONDITIONS[0], CLOSED_INTERVAL), validate_rr_bool)
make_rrb_math_log = make_randomized_response_bool.variant("make_rrb_math_log", build_math_log)

MECHANISMS = [Entry(c.name, c, randomized_response_bool_obligations(c,
                                                                   c.name.removeprefix("make_")))
              for c in (make_rrb_arithmetic_flip, make_rrb_symmetric_input, make_rrb_odds_coin,
                        make_rrb_missing_not, make_rrb_warner_uncorrected,
                        make_rrb_map_off_by_one, make_rrb_closed_interval)]
MECHANISMS.append(Entry(make_rrb_math_log.name, make_rrb_math_log, tuple(
    o for o in randomized_response_bool_obligations(make_rrb_math_log, "rrb_math_log")
    if o.id.endswith(".map_rounding"))))
"""The ``math.log`` twin branches on solver terms (``ln_nearest``, as the other maps' twins in
make_maps_rounded_to_nearest.py): only its map_rounding is checked."""

EXPECTED_REFUTATIONS = {
    "rrb_arithmetic_flip.output_domain",
    "rrb_symmetric_input.compatibility",
    "rrb_odds_coin.output_domain",
    "rrb_odds_coin.runtime_errors",
    "rrb_missing_not.distribution",
    "rrb_warner_uncorrected.distribution",
    "rrb_warner_uncorrected.privacy",
    "rrb_map_off_by_one.privacy",
    "rrb_closed_interval.privacy",
    "rrb_math_log.map_rounding",
}

TWIN_OF = {
    "randomized_response_bool.output_domain": "rrb_arithmetic_flip.output_domain",
    "randomized_response_bool.compatibility": "rrb_symmetric_input.compatibility",
    "randomized_response_bool.runtime_errors": "rrb_odds_coin.runtime_errors",
    "randomized_response_bool.distribution": "rrb_missing_not.distribution",
    "randomized_response_bool.privacy": "rrb_map_off_by_one.privacy",
    "randomized_response_bool.map_rounding": "rrb_math_log.map_rounding",
}


@dataclass(frozen=True)
class FloatCoinAtOrBelow(RandomizedResponseBool):
    """Wrong (distribution, privacy): the float coin ``rng.random() <= prob``. ``random()`` is
    ``k / 2^53`` and ``prob`` in ``[1/2, 1)`` is a multiple of ``2^-53``, so ``<=`` takes one
    grid point more: ``Pr[truth] = p + 2^-53``. At ``p = 1/2`` the map is 0 while the two inputs'
    laws differ. (With ``<`` the float coin is exact, and proved.)"""

    def __call__(self, arg: bool, rng: Any = None) -> bool:
        rng = system_rng(rng)
        return arg ^ (not rng.random() <= self.prob)


@dataclass(frozen=True)
class UniformCoin(RandomizedResponseBool):
    """Outside the proof method: the coin ``rng.uniform(0, 1) < prob``, a float draw the path
    enumeration does not model (``uniform`` computes ``a + (b - a) * random()`` in floats) and
    the float-sampler scan flags: unknown, never proved."""

    def __call__(self, arg: bool, rng: Any = None) -> bool:
        rng = system_rng(rng)
        return arg ^ (not rng.uniform(0.0, 1.0) < self.prob)


make_rrb_float_coin_le = make_randomized_response_bool.variant(
    "make_rrb_float_coin_le", _with_function(FloatCoinAtOrBelow))
MECHANISMS.append(Entry(make_rrb_float_coin_le.name, make_rrb_float_coin_le,
                        randomized_response_bool_obligations(make_rrb_float_coin_le,
                                                             "rrb_float_coin_le")))
EXPECTED_REFUTATIONS |= {"rrb_float_coin_le.distribution", "rrb_float_coin_le.privacy"}

make_rrb_uniform_coin = make_randomized_response_bool.variant("make_rrb_uniform_coin",
                                                              _with_function(UniformCoin))
UNSUPPORTED = [Entry(make_rrb_uniform_coin.name, make_rrb_uniform_coin,
                     randomized_response_bool_obligations(make_rrb_uniform_coin,
                                                          "rrb_uniform_coin"))]
