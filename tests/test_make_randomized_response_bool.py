"""mechanisms.make_randomized_response_bool: refusals, sampling, exact output law, privacy map, the
path method on samplers written otherwise, and the comparison with the opendp package."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from fractions import Fraction

import mpmath
import pytest

from checker.results import Verdict
from checker.runner import Task, check_obligation
from mechanisms.domains import AtomDomain
from mechanisms.errors import BoolProbabilityError, DomainError, ProbabilityError
from mechanisms.make_randomized_response import make_randomized_response
from mechanisms.make_randomized_response_bool import (RandomizedResponseBool,
                                                      build_randomized_response_bool,
                                                      make_randomized_response_bool)
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteMetric
from mechanisms.samplers import sample_bernoulli_rational, system_rng
from obligations.path_enumeration import exact_distribution as rr_exact_distribution
from obligations.make_randomized_response_bool import (randomized_response_bool_obligations,
                                                       stated_law)
from obligations.running_laws import exact_distribution, outcomes
from tests.helpers import FixedDraw, time_limit

PROBS = [0.5, math.nextafter(0.5, 1.0), 0.5 + 2 ** -20, 0.6, 0.75, 0.9, 0.99, 0.999999,
         math.nextafter(1.0, 0.0)]


def exact_log(q: Fraction) -> mpmath.mpf:
    return mpmath.log(mpmath.mpf(q.numerator) / q.denominator)


# --- construction -----------------------------------------------------------------------------

@pytest.mark.parametrize("prob", [0.25, 0.0, -0.5, -1e308, math.nextafter(0.5, 0.0), 1 / 3])
def test_prob_below_one_half_is_refused(prob):
    with pytest.raises(BoolProbabilityError) as info:
        make_randomized_response_bool(prob)
    assert info.value.prob is prob and info.value.num_categories == 2
    assert isinstance(info.value, ProbabilityError)           # caught as randomized response's


@pytest.mark.parametrize("prob", [1.0, math.nextafter(1.0, 2.0), 1.5, 1e308])
def test_prob_at_least_one_is_refused(prob):
    with pytest.raises(BoolProbabilityError, match=r"1/2 <= prob < 1"):
        make_randomized_response_bool(prob)


@pytest.mark.parametrize("prob", [math.nan, math.inf, -math.inf])
def test_non_finite_prob_is_refused(prob):
    with pytest.raises(BoolProbabilityError) as info:
        make_randomized_response_bool(prob)
    assert info.value.prob is prob


@pytest.mark.parametrize("prob", [Fraction(3, 4), 1, True, "0.75", None])
def test_prob_must_be_a_float(prob):
    with pytest.raises(BoolProbabilityError) as info:
        make_randomized_response_bool(prob)
    assert info.value.prob is prob


def test_prob_one_half_is_accepted_with_epsilon_zero():
    m = make_randomized_response_bool(0.5)
    assert m.map(0) == 0 and m.map(1) == 0.0 and m.map(7) == 0.0
    assert exact_distribution(m, True) == exact_distribution(m, False) \
        == {True: Fraction(1, 2), False: Fraction(1, 2)}


def test_prob_just_above_one_half_constructs_quickly_and_rounds_up():
    prob = math.nextafter(0.5, 1.0)
    with time_limit(1.0):
        m = make_randomized_response_bool(prob)
    odds = Fraction(prob) / (1 - Fraction(prob))
    with mpmath.workdps(60):
        assert 0 < mpmath.mpf(m.map(1)) and mpmath.mpf(m.map(1)) >= exact_log(odds)


def test_domains_metric_measure():
    m = make_randomized_response_bool(0.75)
    assert m.input_domain == AtomDomain(bool) and m.output_domain == AtomDomain(bool)
    assert m.input_metric == DiscreteMetric()
    assert m.output_measure == MaxDivergence()
    assert m.function == RandomizedResponseBool(0.75)


# --- sampling ---------------------------------------------------------------------------------

def test_seeded_sampling_is_reproducible_and_returns_bools():
    m = make_randomized_response_bool(0.6)
    for x in (True, False):
        first = [m(x, random.Random(seed)) for seed in range(200)]
        assert first == [m(x, random.Random(seed)) for seed in range(200)]
        assert all(type(y) is bool for y in first)
        assert set(first) == {True, False}                    # both answers occur


@pytest.mark.parametrize("arg", [1, 0, 1.0, "True", None, [True]])
def test_input_that_is_not_a_bool_is_refused(arg):
    with pytest.raises(DomainError):
        make_randomized_response_bool(0.75)(arg, random.Random(0))


def test_default_rng_is_used():
    m = make_randomized_response_bool(0.75)
    assert m(True) in (True, False) and m(False) in (True, False)


@pytest.mark.parametrize("value, honest", [(0, True), (1, True), (2, True), (3, False)])
def test_one_exact_coin_decides_truth_or_flip(value, honest):
    """p = 3/4: one draw below the float's dyadic denominator 4, honest iff it is below 3."""
    m = make_randomized_response_bool(0.75)
    for x in (True, False):
        rng = FixedDraw(value)
        assert m(x, rng) is (x if honest else not x)
        assert rng.calls == [4]


def test_the_coin_uses_the_floats_exact_denominator():
    numerator, denominator = (0.6).as_integer_ratio()
    m = make_randomized_response_bool(0.6)
    rng = FixedDraw(numerator - 1)
    assert m(False, rng) is False and rng.calls == [denominator] and denominator == 2 ** 53
    assert m(False, FixedDraw(numerator)) is True


def test_sampled_frequency_of_the_truth():
    """The real object, not the enumeration: 20,000 seeded runs at p = 0.6 stay within the
    Hoeffding band of false-alarm probability 1e-6 (t = sqrt(ln(2e6) / (2 n)) = 0.0269)."""
    m = make_randomized_response_bool(0.6)
    rng = random.Random(11)
    n = 20_000
    truthful = sum(m(True, rng) for _ in range(n // 2)) + sum(not m(False, rng)
                                                                for _ in range(n // 2))
    assert abs(truthful / n - 0.6) < math.sqrt(math.log(2e6) / (2 * n))


# --- exact law and privacy --------------------------------------------------------------------

@pytest.mark.parametrize("prob", PROBS)
def test_exact_distribution_is_the_stated_law(prob):
    m = make_randomized_response_bool(prob)
    p = Fraction(prob)
    for x in (True, False):
        assert exact_distribution(m, x) == stated_law(prob, x) == {x: p, not x: 1 - p}
        assert outcomes(exact_distribution(m, x)) == outcomes(stated_law(prob, x))


@pytest.mark.parametrize("prob", PROBS)
def test_privacy_map_bounds_the_exact_loss_which_is_the_odds(prob):
    m = make_randomized_response_bool(prob)
    assert m.map(0) == 0
    epsilon = m.map(1)
    assert m.map(2) == m.map(1000) == epsilon             # the discrete metric: any change is 1
    p = Fraction(prob)
    odds = p / (1 - p)
    worst = MaxDivergence().max_ratio(exact_distribution(m, True), exact_distribution(m, False))
    assert worst == odds                                   # attained: the map is tight
    with mpmath.workdps(60):
        assert mpmath.mpf(epsilon) >= exact_log(odds)
        assert mpmath.mpf(epsilon) - exact_log(odds) <= 2 * mpmath.mpf(math.ulp(epsilon)) \
            + mpmath.mpf(2) ** -1074
    assert m.check(1, epsilon) and not m.check(1, math.nextafter(epsilon, -1.0))


@pytest.mark.parametrize("prob", PROBS)
def test_same_law_and_map_as_randomized_response_on_two_categories(prob):
    """A boolean with a flip is two-category randomized response: equal exact laws and maps."""
    ours = make_randomized_response_bool(prob)
    theirs = make_randomized_response([True, False], prob)
    for x in (True, False):
        assert exact_distribution(ours, x) == rr_exact_distribution(theirs, x)
    assert [ours.map(d) for d in (0, 1, 2)] == [theirs.map(d) for d in (0, 1, 2)]


# --- the law of the running call: samplers written otherwise ----------------------------------

@dataclass(frozen=True)
class _WarnerTwoCoins(RandomizedResponseBool):
    """Correct, written otherwise: the truth with probability q = 2p - 1, else a fair coin;
    Pr[M(x) = x] = q + (1 - q)/2 = p."""

    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        if sample_bernoulli_rational(Fraction(2 * self.prob - 1), rng):
            return arg
        return rng.randrange(2) == 1


@dataclass(frozen=True)
class _ReleasesAbove(RandomizedResponseBool):
    """A branch on the probability that the preconditions do not decide."""

    def __call__(self, arg, rng=None):
        if self.prob > 0.9:
            return arg
        return super().__call__(arg, rng)


@dataclass(frozen=True)
class _KeepsState(RandomizedResponseBool):
    """Wrong: draws from a generator of its own, not from the rng it is given."""

    def __call__(self, arg, rng=None):
        return super().__call__(arg, _OWN)


_OWN = random.Random(0)


def _variant(kind):
    def build(prob):
        return replace(build_randomized_response_bool(prob), function=kind(prob))
    return make_randomized_response_bool.variant(f"make_rrb_{kind.__name__.strip('_').lower()}",
                                                 build)


def _verdicts(kind):
    variant = _variant(kind)
    return {o.id.split(".")[1]: check_obligation(Task(variant.name, o, variant), seconds=60)
            for o in randomized_response_bool_obligations(variant,
                                                          variant.name.removeprefix("make_"))}


def test_a_correct_sampler_of_another_shape_is_proved_from_its_running_code():
    verdicts = _verdicts(_WarnerTwoCoins)
    assert {r.verdict for r in verdicts.values()} == {Verdict.PROVED}, \
        {k: r.message for k, r in verdicts.items()}
    paths = [g.message for g in verdicts["distribution"].goals if "every path" in g.name]
    assert paths == ["3 paths, each returns a bool"] * 2      # the coin's two sides, the fair one's
    m = _variant(_WarnerTwoCoins)(0.75)
    for x in (True, False):
        assert exact_distribution(m, x) == stated_law(0.75, x)


@dataclass(frozen=True)
class _FloatCoin(RandomizedResponseBool):
    """Correct: ``prob > rng.random()`` (the draw on the right). ``random()`` is ``k / 2^53`` and
    a float in ``[1/2, 1)`` a multiple of ``2^-53``, so the coin is exactly ``prob``."""

    def __call__(self, arg: bool, rng=None) -> bool:
        rng = system_rng(rng)
        return arg if self.prob > rng.random() else not arg


@dataclass(frozen=True)
class _FloatCoinOffGrid(RandomizedResponseBool):
    """Wrong: the coin ``random() < prob / 3`` compares with a rational off the ``2^-53`` grid:
    its law is ``ceil(p 2^53 / 3) / 2^53`` (not ``p / 3``), outside the method on solver terms."""

    def __call__(self, arg: bool, rng=None) -> bool:
        rng = system_rng(rng)
        return arg if rng.random() < self.prob / 3 else not arg


def test_a_float_coin_on_the_grid_is_proved_from_the_model_of_random():
    verdicts = _verdicts(_FloatCoin)
    assert {r.verdict for r in verdicts.values()} == {Verdict.PROVED}, \
        {k: r.message for k, r in verdicts.items()}
    refusals = [g for g in verdicts["distribution"].goals if "Decimal" in g.name]
    assert refusals and refusals[0].verdict is Verdict.PROVED    # the float premise is checked
    m = _variant(_FloatCoin)(0.75)
    for x in (True, False):
        assert exact_distribution(m, x) == stated_law(0.75, x)


def test_a_float_coin_off_the_grid_is_never_proved_and_its_law_is_exact():
    verdicts = _verdicts(_FloatCoinOffGrid)
    assert verdicts["distribution"].verdict in (Verdict.UNKNOWN, Verdict.REFUTED)
    assert verdicts["privacy"].verdict in (Verdict.UNKNOWN, Verdict.REFUTED)
    law = exact_distribution(_variant(_FloatCoinOffGrid)(0.6), True)
    third = Fraction(0.6) / 3
    assert law[True] == Fraction(math.ceil(third * 2 ** 53), 2 ** 53) != third


def test_a_branch_the_preconditions_do_not_decide_is_never_proved():
    """The symbolic enumeration stops at ``prob > 0.9`` (unknown, never proved); privacy is
    refuted too, by the exact loss at p = 0.99, where the input is released as it is."""
    verdicts = _verdicts(_ReleasesAbove)
    for obligation in ("output_domain", "runtime_errors", "distribution"):
        assert verdicts[obligation].verdict is Verdict.UNKNOWN, verdicts[obligation].message
        assert "depends on the parameters" in verdicts[obligation].message
    privacy = verdicts["privacy"]
    assert privacy.verdict is Verdict.REFUTED
    assert any(g.confirmed and "+inf  > claimed" in g.report for g in privacy.goals)


def test_a_sampler_with_its_own_generator_is_not_enumerable():
    from obligations.path_enumeration import NotEnumerable
    m = _variant(_KeepsState)(0.75)
    with pytest.raises(NotEnumerable):
        exact_distribution(m, True)
    assert _verdicts(_KeepsState)["distribution"].verdict is Verdict.UNKNOWN


# --- the opendp package (0.16) ----------------------------------------------------------------

def _opendp():
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    return dp


def _grid() -> list[float]:
    rng = random.Random(5)
    seeded = [rng.uniform(0.5, 1.0) for _ in range(300)]
    near_half = [0.5 + k * 2 ** -53 for k in range(0, 40)] + [0.5 + 2 ** -e for e in range(1, 53)]
    near_one = [1 - k * 2 ** -53 for k in range(1, 40)]
    return [p for p in [*PROBS, *seeded, *near_half, *near_one] if 0.5 <= p < 1]


def test_map_is_never_above_opendps_and_never_below_the_exact_value():
    """Both compute ln(p / (1 - p)) rounded up: opendp rounds 1 - p down, the quotient up and
    the logarithm up, one step each; ours takes the certified ln_up of the exact odds. So ours is
    at least the exact value and at most opendp's, equal on part of the grid and a few ulps
    lower elsewhere (measured: equal at 161 of the 300 seeded p, at most 8.9e-16 lower). The
    difference stays within 2 ulps of opendp's value plus 2^-51: near p = 1/2, where epsilon is
    about 1e-16, opendp's rounding of the quotient alone is a third of its epsilon."""
    dp = _opendp()
    equal = lower = 0
    for prob in _grid():
        ours = make_randomized_response_bool(prob)
        theirs = dp.m.make_randomized_response_bool(prob)
        assert ours.map(0) == theirs.map(0) == 0
        a, b = ours.map(1), theirs.map(1)
        assert a <= b, prob
        assert b - a <= 2 * math.ulp(b) + 2 ** -51, prob
        odds = Fraction(prob) / (1 - Fraction(prob))
        with mpmath.workdps(60):
            assert mpmath.mpf(a) >= exact_log(odds)
        equal, lower = equal + (a == b), lower + (a < b)
    assert equal and lower                                 # both happen: ours is tighter


def test_opendp_refuses_what_we_refuse_except_prob_one():
    dp = _opendp()
    for prob in (math.nextafter(0.5, 0.0), 0.25, math.nan, -1.0, 1.5):
        with pytest.raises(Exception):
            dp.m.make_randomized_response_bool(prob)
        with pytest.raises(BoolProbabilityError):
            make_randomized_response_bool(prob)
    # opendp admits prob = 1 with epsilon = inf (the bit itself is released); ours refuses it
    assert dp.m.make_randomized_response_bool(1.0).map(1) == math.inf
    with pytest.raises(BoolProbabilityError):
        make_randomized_response_bool(1.0)


def test_domains_and_input_types_agree_with_opendp():
    dp = _opendp()
    theirs = dp.m.make_randomized_response_bool(0.75)
    assert str(theirs.input_domain) == "AtomDomain(T=bool)"
    assert str(theirs.input_metric) == "DiscreteDistance()"
    assert str(theirs.output_measure) == "MaxDivergence"
    with pytest.raises(TypeError):
        theirs(1)
    with pytest.raises(DomainError):
        make_randomized_response_bool(0.75)(1)


def test_outputs_agree_with_opendp_in_law():
    """Nothing is deterministic below p = 1, so the outputs are compared in law: at p = 0.75, on
    each input, the truth's frequency in 2,000 opendp runs and in 2,000 of ours is within the
    Hoeffding band of false-alarm probability 1e-6 (t = sqrt(ln(2e6) / 4000) = 0.060); at
    p = 1 - 2^-53 both return the input on each of 100 runs per input (a flip has probability
    1.1e-16 per run)."""
    dp = _opendp()
    n = 2_000
    band = math.sqrt(math.log(2e6) / (2 * n))
    theirs = dp.m.make_randomized_response_bool(0.75)
    ours = make_randomized_response_bool(0.75)
    rng = random.Random(3)
    for x in (True, False):
        assert abs(sum(theirs(x) == x for _ in range(n)) / n - 0.75) < band
        assert abs(sum(ours(x, rng) == x for _ in range(n)) / n - 0.75) < band
    almost = math.nextafter(1.0, 0.0)
    theirs, ours = dp.m.make_randomized_response_bool(almost), make_randomized_response_bool(almost)
    for x in (True, False):
        assert all(theirs(x) is x for _ in range(100))
        assert all(ours(x, rng) is x for _ in range(100))
