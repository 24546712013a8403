"""mechanisms.make_randomized_response: refusals, sampling, exact output distribution, privacy map."""

from __future__ import annotations

import builtins
import itertools
import math
import random
from dataclasses import dataclass, replace
from fractions import Fraction

import mpmath
import pytest
import z3

from mechanisms.domains import AtomDomain
from mechanisms.errors import CategoryError, DomainError, ProbabilityError
from checker.results import Verdict
from checker.runner import Task, check_obligation
from mechanisms import ops
from mechanisms.core import length
from mechanisms.make_randomized_response import (NOT_A_CATEGORY, RandomizedResponse,
                                                 build_randomized_response,
                                                 make_randomized_response, odds)
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteMetric
from mechanisms.samplers import sample_bernoulli_rational
from obligations.make_randomized_response import (LIE, TRUTH, UNIFORM,
                                                  randomized_response_obligations, stated_law,
                                                  stated_probability)
from obligations.path_enumeration import exact_distribution
from tests.helpers import FixedDraw, ScriptedRng, time_limit


# --- construction -----------------------------------------------------------------------------

@pytest.mark.parametrize("categories", [[0], ["a"], []])
def test_fewer_than_two_categories(categories):
    with pytest.raises(CategoryError) as info:
        make_randomized_response(categories, 0.75)
    assert info.value.categories == categories


def test_duplicate_categories_are_named():
    with pytest.raises(CategoryError, match="repeat 'b'") as info:
        make_randomized_response(["a", "b", "c", "b"], 0.75)
    assert info.value.categories == ["a", "b", "c", "b"]
    with pytest.raises(CategoryError, match="repeat 1"):
        make_randomized_response([1, 2, 1], 0.75)


def test_categories_of_mixed_type_or_not_a_sequence():
    with pytest.raises(CategoryError):
        make_randomized_response([1, "1"], 0.75)
    with pytest.raises(CategoryError):
        make_randomized_response({1, 2, 3}, 0.75)


@pytest.mark.parametrize("categories, prob", [([0, 1], 0.25), ([0, 1, 2], 0.2), ([0, 1, 2, 3], 0.0),
                                              ([0, 1], -0.5), ([0, 1], -1e308)])
def test_prob_below_one_over_t(categories, prob):
    with pytest.raises(ProbabilityError) as info:
        make_randomized_response(categories, prob)
    assert info.value.num_categories == len(categories)
    assert info.value.prob is prob


@pytest.mark.parametrize("prob", [1.0, math.nextafter(1.0, 2.0), 1.5, 1e308])
def test_prob_at_least_one(prob):
    with pytest.raises(ProbabilityError):
        make_randomized_response([0, 1, 2], prob)


@pytest.mark.parametrize("prob", [math.nan, math.inf, -math.inf])
def test_non_finite_prob_raises_probability_error(prob):
    with pytest.raises(ProbabilityError) as info:
        make_randomized_response([0, 1, 2], prob)
    assert info.value.prob is prob and info.value.num_categories == 3


@pytest.mark.parametrize("prob", [Fraction(1, 2), 1, "0.5", None, True])
def test_prob_must_be_a_float(prob):
    with pytest.raises(ProbabilityError) as info:
        make_randomized_response([0, 1, 2], prob)
    assert info.value.prob is prob


def test_float_one_third_is_below_one_third_and_refused():
    assert Fraction(1 / 3) < Fraction(1, 3)           # the float 1/3 is below the true 1/3
    with pytest.raises(ProbabilityError):
        make_randomized_response([0, 1, 2], 1 / 3)
    assert Fraction(math.nextafter(1 / 3, 1.0)) > Fraction(1, 3)
    make_randomized_response([0, 1, 2], math.nextafter(1 / 3, 1.0))


@pytest.mark.parametrize("t", [2, 4, 8])
def test_prob_exactly_one_over_t_is_accepted_with_epsilon_zero(t):
    m = make_randomized_response(list(range(t)), 1 / t)   # a power of two: 1/t is exact
    assert m.map(1) == 0.0


def test_domains_metric_measure():
    m = make_randomized_response(["x", "y"], 0.75)
    assert m.input_domain == AtomDomain(str)
    assert m.output_domain == AtomDomain(str)
    assert m.input_metric == DiscreteMetric()
    assert m.output_measure == MaxDivergence()
    assert make_randomized_response([0.5, 1.5], 0.75).input_domain == AtomDomain(float, nan=True)


def test_prob_just_above_one_half_constructs():
    with time_limit(1.0):
        m = make_randomized_response([0, 1], math.nextafter(0.5, 1.0))
    r = odds(math.nextafter(0.5, 1.0), 2)
    with mpmath.workdps(60):
        assert mpmath.mpf(m.map(1)) >= mpmath.log(mpmath.mpf(r.numerator) / r.denominator)


# --- sampling ---------------------------------------------------------------------------------

def test_seeded_sampling_is_reproducible():
    m = make_randomized_response(["a", "b", "c"], 0.6)
    first = [m("a", random.Random(seed)) for seed in range(100)]
    second = [m("a", random.Random(seed)) for seed in range(100)]
    assert first == second
    rng1, rng2 = random.Random(7), random.Random(7)
    assert [m("b", rng1) for _ in range(50)] == [m("b", rng2) for _ in range(50)]


def test_output_is_always_a_category():
    categories = ["a", "b", "c", "d"]
    m = make_randomized_response(categories, 0.5)
    rng = random.Random(1)
    for x in categories + ["zzz"]:
        assert all(m(x, rng) in categories for _ in range(100))


def test_non_member_input_gets_every_category():
    categories = [10, 20, 30, 40]
    m = make_randomized_response(categories, 0.9)
    rng = random.Random(3)
    seen = {m(99, rng) for _ in range(400)}
    assert seen == set(categories)


def test_member_input_sometimes_lies():
    m = make_randomized_response([0, 1, 2], 0.5)
    rng = random.Random(5)
    seen = [m(0, rng) for _ in range(400)]
    assert set(seen) == {0, 1, 2}
    assert 100 < seen.count(0) < 300                  # about half the time the truth


def test_input_of_wrong_type_is_refused():
    m = make_randomized_response([0, 1, 2], 0.5)
    with pytest.raises(DomainError):
        m("0", random.Random(0))
    with pytest.raises(DomainError):
        m(True, random.Random(0))


def test_default_rng_is_used():
    m = make_randomized_response(["a", "b"], 0.75)
    assert m("a") in ("a", "b")
    assert m("neither") in ("a", "b")


@pytest.mark.parametrize("value, expected", [(0, True), (1, True), (2, True), (3, False)])
def test_sample_bernoulli_threshold(value, expected):
    rng = FixedDraw(value)
    assert sample_bernoulli_rational(0.75, rng) is expected
    assert rng.calls == [4]


def test_sample_bernoulli_uses_the_exact_dyadic_denominator():
    rng = FixedDraw(0)
    sample_bernoulli_rational(0.1, rng)
    numerator, denominator = (0.1).as_integer_ratio()
    assert rng.calls == [denominator] and denominator == 2 ** 55
    assert sample_bernoulli_rational(0.1, FixedDraw(numerator - 1)) is True
    assert sample_bernoulli_rational(0.1, FixedDraw(numerator)) is False


def test_respond_is_deterministic():
    m = make_randomized_response(["a", "b", "c"], 0.75)
    f = m.function
    assert f.respond("b", 0, True) == "b"
    assert [f.respond("b", s, False) for s in range(2)] == ["a", "c"]     # the lies skip "b"
    assert [f.respond("z", s, True) for s in range(3)] == ["a", "b", "c"]  # non-member: uniform


# --- exact distribution and privacy -----------------------------------------------------------

CASES = [(t, p) for t in range(2, 6) for p in (0.5, 0.25, 0.6, 0.75, 0.9, 0.99) if p * t >= 1]


@pytest.mark.parametrize("t, prob", CASES)
def test_exact_distribution_matches_stated_probabilities(t, prob):
    m = make_randomized_response(list(range(t)), prob)
    p = Fraction(prob)
    for x in range(t):
        dist = exact_distribution(m, x)
        assert set(dist) == set(range(t))
        assert sum(dist.values()) == 1
        for y in range(t):
            expected = stated_probability(TRUTH if y == x else LIE, p, t)
            assert dist[y] == expected
    dist = exact_distribution(m, t + 7)                # a non-member
    assert dist == {y: stated_probability(UNIFORM, p, t) for y in range(t)}
    assert stated_probability(UNIFORM, p, t) == Fraction(1, t)


@pytest.mark.parametrize("t, prob", CASES)
def test_privacy_map(t, prob):
    m = make_randomized_response(list(range(t)), prob)
    assert m.map(0) == 0
    epsilon = m.map(1)
    assert m.map(2) == epsilon                         # the discrete metric: any change is 1
    p = Fraction(prob)
    r = p * (t - 1) / (1 - p)
    assert odds(prob, t) == r
    inputs = list(range(t)) + [t]                       # every category and one non-member
    with mpmath.workdps(60):
        assert mpmath.mpf(epsilon) >= mpmath.log(mpmath.mpf(r.numerator) / r.denominator)
        for x, x_prime in itertools.permutations(inputs, 2):
            ratio = MaxDivergence().max_ratio(exact_distribution(m, x), exact_distribution(m, x_prime))
            assert ratio <= r                           # the odds are the worst ratio
            assert mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator) <= mpmath.mpf(epsilon)
        # and it is attained between two categories, so epsilon is not loose by more than rounding
        worst = MaxDivergence().max_ratio(exact_distribution(m, 0), exact_distribution(m, 1))
        assert worst == r
    assert m.check(1, epsilon) and not m.check(1, math.nextafter(epsilon, -1.0))


def test_sampler_draws_through_the_kernels_on_every_draw():
    """RandomizedResponse.__call__ is the plumbing the obligations take as audited: check it
    feeds every draw to respond(), for t up to 5, members and a non-member."""
    for t in range(2, 6):
        m = make_randomized_response(list(range(t)), 0.75)
        f = m.function
        for arg in [*range(t), t]:
            for sample in range(f.draw_bound(f.index_of(arg), t)):
                for honest in (True, False):
                    assert m(arg, ScriptedRng(sample, honest)) == f.respond(arg, sample, honest)


def test_nan_and_unhashable_categories_are_refused():
    """A NaN category equals no value: answered by identity, it would let two NaN inputs at
    discrete distance 0 get different distributions (privacy loss ln(3/2) here)."""
    with pytest.raises(CategoryError, match="NaN"):
        make_randomized_response([math.nan, 1.0], 0.75)
    with pytest.raises(CategoryError, match="not hashable"):
        make_randomized_response([[1], [2]], 0.75)
    m = make_randomized_response([0.5, 1.5], 0.75)
    assert exact_distribution(m, math.nan) == exact_distribution(m, float("nan"))


class _TruthOrUniform(RandomizedResponse):
    """Correct, written differently: with probability q the truth, else a uniform category among
    all t; q = (p t - 1)/(t - 1) gives Pr[y = x] = q + (1 - q)/t = p."""

    draw_bound = staticmethod(lambda index, num_categories: num_categories)
    lie_index = staticmethod(lambda sample, index: sample)


def _build_truth_or_uniform(categories, prob):
    built = build_randomized_response(categories, prob)
    t = length(categories)
    return replace(built, function=_TruthOrUniform(built.function.categories,
                                                   (ops.exact(prob) * t - 1) / (t - 1)))


def test_a_correct_sampler_of_another_shape_is_proved():
    """The distribution and privacy obligations are about the law the running sampler draws,
    not about the shape of its code."""
    variant = make_randomized_response.variant("make_rr_truth_or_uniform", _build_truth_or_uniform)
    obligations = randomized_response_obligations(variant, "rr_truth_or_uniform")
    verdicts = {o.id: check_obligation(Task("make_rr_truth_or_uniform", o), seconds=60).verdict
                for o in obligations}
    assert set(verdicts.values()) == {Verdict.PROVED}, verdicts
    m = variant(list(range(4)), 0.625)
    for x in range(4):
        assert exact_distribution(m, x) == stated_law(0.625, 4, x)


# --- the path method: a function off the trusted kernel, its running __call__ enumerated ---------

@dataclass(frozen=True)
class _RotatingLie(RandomizedResponse):
    """Correct: the lie ``(index + 1 + sample) mod t``, a bijection onto the other categories."""

    def respond(self, arg, sample, honest):
        index = self.index_of(arg)
        lie = sample if index == NOT_A_CATEGORY else (index + 1 + sample) % len(self.categories)
        return self.categories[self.response_index(index, lie, honest)]


@dataclass(frozen=True)
class _CoinFirst(RandomizedResponse):
    """Correct: the coin first; a lie is drawn only when dishonest."""

    def __call__(self, arg, rng=None):
        index = self.index_of(arg)
        if sample_bernoulli_rational(Fraction(self.prob), rng) and index != NOT_A_CATEGORY:
            return self.categories[index]
        return self.respond(arg, rng.randrange(self.draw_bound(index, len(self.categories))),
                            False)


@dataclass(frozen=True)
class _LastCategorySpecial(RandomizedResponse):
    """Wrong only for the last category: a branch whose side depends on ``i`` and ``t`` (z3's
    own truth test would call ``i == t - 1`` structurally false on every path)."""

    def respond(self, arg, sample, honest):
        index = self.index_of(arg)
        if index == len(self.categories) - 1:
            return self.categories[index]
        return super().respond(arg, sample, honest)


@dataclass(frozen=True)
class _HonestAbove(RandomizedResponse):
    """A branch on the probability that is not decided by the preconditions."""

    def __call__(self, arg, rng=None):
        if self.prob > 0.6:
            return self.categories[self.index_of(arg)] if arg in self.categories \
                else self.categories[0]
        return super().__call__(arg, rng)


@dataclass(frozen=True)
class _FirstForBooleans(RandomizedResponse):
    """Wrong for boolean categories only: the input's type decides the answer."""

    def __call__(self, arg, rng=None):
        if isinstance(arg, bool):
            return self.categories[0]
        return super().__call__(arg, rng)


@dataclass(frozen=True)
class _FloatIndex(RandomizedResponse):
    """Wrong: indexes the categories with a float (``sample / 1``), a TypeError in Python."""

    def respond(self, arg, sample, honest):
        return self.categories[sample / 1]


def _variant(kind):
    def build(categories, prob):
        built = build_randomized_response(categories, prob)
        return replace(built, function=kind(built.function.categories, prob))
    return make_randomized_response.variant(f"make_rr_{kind.__name__.strip('_').lower()}", build)


def _verdicts(kind):
    variant = _variant(kind)
    return {o.id.split(".")[1]: check_obligation(Task(variant.name, o), seconds=60)
            for o in randomized_response_obligations(variant, variant.name.removeprefix("make_"))}


@pytest.mark.parametrize("kind", [_RotatingLie, _CoinFirst])
def test_correct_samplers_off_the_kernel_are_proved_from_their_running_code(kind):
    verdicts = _verdicts(kind)
    assert {r.verdict for r in verdicts.values()} == {Verdict.PROVED}, \
        {k: r.message for k, r in verdicts.items()}
    assert "every path enumerated" in str(verdicts["distribution"].goals)


@pytest.mark.parametrize("kind, obligation", [(_LastCategorySpecial, "distribution"),
                                              (_FirstForBooleans, "distribution"),
                                              (_FirstForBooleans, "output_domain"),
                                              (_FloatIndex, "output_domain"),
                                              (_FloatIndex, "runtime_errors"),
                                              (_HonestAbove, "distribution"),
                                              (_HonestAbove, "privacy")])
def test_branches_the_parameters_decide_otherwise_are_never_proved(kind, obligation):
    result = _verdicts(kind)[obligation]
    assert result.verdict in (Verdict.UNKNOWN, Verdict.REFUTED), result.message


def test_exact_distribution_runs_the_running_call():
    """A coin-first sampler whose lie comes from ``respond`` (the truth skipped) but which is
    answered by its own ``__call__``: the law is the call's."""
    m = _variant(_CoinFirst)([0, 1, 2], 0.75)
    assert exact_distribution(m, 0) == stated_law(0.75, 3, 0)
    assert exact_distribution(m, 7) == {y: Fraction(1, 3) for y in range(3)}


def test_the_enumeration_restores_len_and_z3_truth():
    original_len, original_bool = builtins.len, z3.AstRef.__bool__
    assert _verdicts(_HonestAbove)["distribution"].verdict is not Verdict.PROVED
    assert builtins.len is original_len and z3.AstRef.__bool__ is original_bool
    assert len([1, 2]) == 2 and bool(z3.IntVal(1) == z3.IntVal(1))
