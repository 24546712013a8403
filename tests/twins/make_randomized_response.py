"""Wrong twins of ``make_randomized_response`` beyond the seeds' (tests/wrong_variants.py): the
running function's own probability, a precondition that admits ``ln_up`` of an argument below 1,
and a coin that raises on every input."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Map, Precondition, length
from mechanisms.errors import ProbabilityError
from mechanisms.make_randomized_response import (NOT_A_CATEGORY, RR_PRECONDITIONS,
                                                 RandomizedResponse,
                                                 build_randomized_response, odds, rr_privacy_map,
                                                 make_randomized_response, validate_rr)
from mechanisms.samplers import sample_bernoulli_rational, system_rng
from obligations.base import Entry
from obligations.make_randomized_response import randomized_response_obligations


def build_flipped_prob(categories: Any, prob: Any):
    """Wrong: the sampler tells the truth with ``1 - prob``; the map is built from ``prob``."""
    built = build_randomized_response(categories, prob)
    return replace(built, function=RandomizedResponse(built.function.categories, 1 - prob))


def build_doubled_coin(categories: Any, prob: Any):
    """Wrong: the coin's probability ``2 prob`` exceeds 1 for ``prob > 1/2``: the exact Bernoulli
    raises on every input."""
    built = build_randomized_response(categories, prob)
    return replace(built, function=RandomizedResponse(built.function.categories, 2 * prob))


PROB_TIMES_T_NONNEGATIVE = Precondition(
    "0 <= prob * t, prob < 1",
    lambda categories, prob: ops.all_of(ops.le(0, ops.exact(prob) * length(categories)),
                                        ops.lt(prob, 1)),
    lambda categories, prob: ProbabilityError(prob, len(categories)))
"""Wrong precondition (the mutant of issue 13): admits ``prob < 1/t``, where the map's
``ln(p (t-1)/(1-p))`` is negative and only a ValueError inside ``ln_up`` stops the build."""

make_rr_flipped_prob = make_randomized_response.variant("make_rr_flipped_prob", build_flipped_prob)
make_rr_doubled_coin = make_randomized_response.variant("make_rr_doubled_coin", build_doubled_coin)
make_rr_prob_times_t_nonnegative = Constructor(
    "make_rr_prob_times_t_nonnegative", build_randomized_response,
    (*RR_PRECONDITIONS[:2], PROB_TIMES_T_NONNEGATIVE), validate_rr)

MECHANISMS = [Entry(c.name, c, randomized_response_obligations(c, c.name.removeprefix("make_")))
              for c in (make_rr_flipped_prob, make_rr_doubled_coin,
                        make_rr_prob_times_t_nonnegative)]

EXPECTED_REFUTATIONS = {
    "rr_flipped_prob.distribution",
    "rr_flipped_prob.privacy",
    "rr_doubled_coin.output_domain",
    "rr_doubled_coin.runtime_errors",
    "rr_prob_times_t_nonnegative.privacy",
}

TWIN_OF: dict[str, str] = {}
"""The catalogue's obligations have their twins in tests/wrong_variants.py."""


def numbers_only_epsilon(prob: Any, num_categories: Any) -> Any:
    """Wrong, two bodies: the odds ``p (t - 1) / (1 - p)`` on solver terms, and on numbers their
    square root ("a geometric mean of the two directions"), below the odds wherever they
    exceed 1 (``t = 3, p = 1/2``: odds 2, map ln sqrt 2)."""
    if ops.is_symbolic(prob) or ops.is_symbolic(num_categories):
        return odds(prob, num_categories)
    return float(odds(prob, num_categories)) ** 0.5


def build_numbers_only_odds(categories: Any, prob: Any):
    built = build_randomized_response(categories, prob)
    epsilon = ops.ln_up(numbers_only_epsilon(prob, length(categories)))
    return replace(built, privacy_map=Map(rule=rr_privacy_map, params={"epsilon": epsilon}))


make_rr_numbers_only_odds = make_randomized_response.variant("make_rr_numbers_only_odds",
                                                             build_numbers_only_odds)
MECHANISMS.append(Entry("make_rr_numbers_only_odds", make_rr_numbers_only_odds,
                        randomized_response_obligations(make_rr_numbers_only_odds,
                                                        "rr_numbers_only_odds")))
EXPECTED_REFUTATIONS.add("rr_numbers_only_odds.privacy")


# --- twins through the path enumeration (a function off the trusted kernel: its own __call__ or
# respond, enumerated on every path) -------------------------------------------------------------

@dataclass(frozen=True)
class RotationWithTruth(RandomizedResponse):
    """Wrong: the lie ``(index + sample) mod t`` for ``sample`` in ``[0, t - 1)`` includes the
    truth and never reports ``index - 1``: ``Pr[y = x - 1] = 0``, an infinite loss."""

    def respond(self, arg: Any, sample: int, honest: bool) -> Any:
        index = self.index_of(arg)
        lie = sample if index == NOT_A_CATEGORY else (index + sample) % len(self.categories)
        return self.categories[self.response_index(index, lie, honest)]


@dataclass(frozen=True)
class CoinFirstAnyLie(RandomizedResponse):
    """Wrong: the coin first, then a lie drawn from all ``t`` categories: the truth comes out
    with ``p + (1 - p)/t``, a ratio ``1 + p t/(1 - p)`` above the map's ``p (t - 1)/(1 - p)``."""

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        rng = system_rng(rng)
        index = self.index_of(arg)
        if sample_bernoulli_rational(Fraction(self.prob), rng) and index != NOT_A_CATEGORY:
            return self.categories[index]
        return self.categories[rng.randrange(len(self.categories))]


@dataclass(frozen=True)
class CoinFirstLyingProb(RandomizedResponse):
    """Wrong: the coin first with honesty ``1 - prob`` ("prob is the chance of lying"): below
    ``prob = 1/2`` with ``t >= 3`` the truth's ratio ``(1 - p)(t - 1)/p`` exceeds the map's."""

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        rng = system_rng(rng)
        index = self.index_of(arg)
        if sample_bernoulli_rational(Fraction(1 - self.prob), rng) and index != NOT_A_CATEGORY:
            return self.categories[index]
        return self.respond(arg, rng.randrange(self.draw_bound(index, len(self.categories))),
                            False)


def _with_function(kind: type) -> Any:
    def build(categories: Any, prob: Any):
        built = build_randomized_response(categories, prob)
        return replace(built, function=kind(built.function.categories, prob))
    return build


make_rr_rotation_with_truth = make_randomized_response.variant(
    "make_rr_rotation_with_truth", _with_function(RotationWithTruth))
make_rr_coin_first_any_lie = make_randomized_response.variant(
    "make_rr_coin_first_any_lie", _with_function(CoinFirstAnyLie))
make_rr_coin_first_lying_prob = make_randomized_response.variant(
    "make_rr_coin_first_lying_prob", _with_function(CoinFirstLyingProb))
MECHANISMS += [Entry(c.name, c, randomized_response_obligations(c, c.name.removeprefix("make_")))
               for c in (make_rr_rotation_with_truth, make_rr_coin_first_any_lie,
                         make_rr_coin_first_lying_prob)]
EXPECTED_REFUTATIONS |= {f"{name}.{obligation}"
                         for name in ("rr_rotation_with_truth", "rr_coin_first_any_lie",
                                      "rr_coin_first_lying_prob")
                         for obligation in ("distribution", "privacy")}


@dataclass(frozen=True)
class CrossedCoin(RandomizedResponse):
    """Wrong, outside the path method: the coin draws below ``prob``'s denominator and compares
    with ``1 - prob``'s numerator (two fractions' parts crossed), whose law depends on the two
    denominators: unknown (unsupported), never proved."""

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        rng = system_rng(rng)
        index = self.index_of(arg)
        honest = rng.randrange(Fraction(self.prob).denominator) \
            < Fraction(1 - self.prob).numerator
        sample = rng.randrange(self.draw_bound(index, len(self.categories)))
        return self.respond(arg, sample, honest)


make_rr_crossed_coin = make_randomized_response.variant("make_rr_crossed_coin",
                                                        _with_function(CrossedCoin))
UNSUPPORTED = [Entry(make_rr_crossed_coin.name, make_rr_crossed_coin,
                     randomized_response_obligations(make_rr_crossed_coin, "rr_crossed_coin"))]
