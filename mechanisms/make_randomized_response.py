"""``make_randomized_response(categories, prob)``: report the true category with probability
``prob``, otherwise one of the other ``t - 1`` categories uniformly; an input outside the
categories gets a uniformly random category.

Input and output domain: atoms of the categories' type ``T`` (the seed's ``AtomDomain(bool)`` is
a slip); discrete metric; max-divergence; privacy map ``0`` for ``d_in = 0`` and
``ln(p (t - 1) / (1 - p))``, rounded up, for ``d_in >= 1``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Hashable, Sequence

from mechanisms import ops
from mechanisms.core import (Constructor, Map, Measurement, Precondition,
                             SymbolicSequence, length)
from mechanisms.domains import AtomDomain
from mechanisms.errors import CategoryError, ProbabilityError
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteMetric
from mechanisms.samplers import sample_bernoulli_rational, system_rng

NOT_A_CATEGORY = -1
"""The index of an input that is not one of the categories."""


def draw_bound(index: Any, num_categories: Any) -> Any:
    """How many lies to draw from: ``t - 1`` for a category, ``t`` for a non-member."""
    return num_categories - ops.where(ops.eq(index, NOT_A_CATEGORY), 0, 1)


def lie_index(sample: Any, index: Any) -> Any:
    """``sample`` in ``[0, draw_bound)`` to a category index, skipping the true one:
    ``sample + 1`` if the input is a member and ``sample >= index``, else ``sample``."""
    skips = ops.all_of(ops.negate(ops.eq(index, NOT_A_CATEGORY)), ops.le(index, sample))
    return ops.where(skips, sample + 1, sample)


def response_index(index: Any, lie: Any, honest: Any) -> Any:
    """The truth if the coin says honest and the input is a member, else the lie."""
    truthful = ops.all_of(honest, ops.negate(ops.eq(index, NOT_A_CATEGORY)))
    return ops.where(truthful, index, lie)


def odds(prob: Any, num_categories: Any) -> Any:
    """``p (t - 1) / (1 - p)``, exactly: the largest ratio ``Pr[M(x) = y] / Pr[M(x') = y]``."""
    p = ops.exact(prob)
    return p * (num_categories - 1) / (1 - p)


def rr_privacy_map(d_in: Any, epsilon: Any) -> Any:
    """``0`` if ``d_in = 0`` (the same input), else ``epsilon``."""
    return ops.where(ops.eq(d_in, 0), 0, epsilon)


@dataclass(frozen=True)
class RandomizedResponse:
    """The mechanism's function: draws, then the deterministic :meth:`respond`. (The checker's
    symbolic build holds a :class:`SymbolicSequence` of ``t`` categories.)"""

    categories: tuple[Hashable, ...] | SymbolicSequence
    prob: float

    draw_bound = staticmethod(draw_bound)
    lie_index = staticmethod(lie_index)
    response_index = staticmethod(response_index)

    def index_of(self, arg: Any) -> int:
        return self.categories.index(arg) if arg in self.categories else NOT_A_CATEGORY

    def respond(self, arg: Any, sample: int, honest: bool) -> Any:
        """The output for given draws: ``sample`` in ``[0, draw_bound)`` and the coin ``honest``."""
        index = self.index_of(arg)
        return self.categories[self.response_index(index, self.lie_index(sample, index), honest)]

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        rng = system_rng(rng)
        sample = rng.randrange(self.draw_bound(self.index_of(arg), len(self.categories)))
        honest = sample_bernoulli_rational(Fraction(self.prob), rng)
        return self.respond(arg, sample, honest)


def validate_rr(categories: Sequence[Hashable], prob: Any) -> None:
    """Distinct, hashable, non-NaN categories of one type, and a float ``prob``: a NaN category
    equals no value, so it would be answered by identity, not by the metric's equality."""
    if not isinstance(categories, (list, tuple)):
        raise CategoryError(f"categories must be a list or tuple, got {type(categories).__name__}",
                            categories)
    unhashable = [c for c in categories if not isinstance(c, Hashable)]
    if unhashable:
        raise CategoryError(f"category {unhashable[0]!r} is not hashable", categories)
    if any(ops.truthy(ops.is_nan(c)) for c in categories):
        raise CategoryError("a category is NaN, which equals no value; use distinct numbers",
                            categories)
    if len(set(categories)) != len(categories):
        repeated = sorted({repr(c) for c in categories if categories.count(c) > 1})
        raise CategoryError(f"categories repeat {', '.join(repeated)}; each must appear once",
                            categories)
    if len({type(c) for c in categories}) > 1:
        raise CategoryError("categories must all have one type", categories)
    if type(prob) is not float:
        raise ProbabilityError(prob, len(categories))


RR_PRECONDITIONS = (
    Precondition("prob is finite", lambda categories, prob: ops.is_finite(prob),
                 lambda categories, prob: ProbabilityError(prob, len(categories))),
    Precondition("t = len(categories) >= 2", lambda categories, prob: ops.le(2, length(categories)),
                 lambda categories, prob: CategoryError(
                     f"{len(categories)} categories given; randomized response needs at least 2",
                     categories)),
    Precondition("1/t <= prob < 1",
                 lambda categories, prob: ops.all_of(
                     ops.le(1, ops.exact(prob) * length(categories)), ops.lt(prob, 1)),
                 lambda categories, prob: ProbabilityError(prob, len(categories))),
)


def build_randomized_response(categories: Sequence[Hashable], prob: Any) -> Measurement:
    t = length(categories)
    concrete = isinstance(categories, (list, tuple))
    carrier = type(categories[0]) if concrete else object
    return Measurement(
        input_domain=AtomDomain(carrier, nan=carrier is float),
        output_domain=AtomDomain(carrier),
        input_metric=DiscreteMetric(),
        output_measure=MaxDivergence(),
        function=RandomizedResponse(tuple(categories) if concrete else categories, prob),
        privacy_map=Map(rule=rr_privacy_map, params={"epsilon": ops.ln_up(odds(prob, t))}),
    )


make_randomized_response = Constructor("make_randomized_response", build_randomized_response,
                                       RR_PRECONDITIONS, validate_rr)
