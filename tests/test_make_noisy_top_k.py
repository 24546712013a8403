"""make_noisy_top_k: values, edge cases, typed errors, the law computed from the running code, the
drawn distribution (seeded), and agreement with opendp 0.16's make_noisy_top_k.

Statistical tests are seeded (deterministic); each would raise a false alarm with probability at
most ``ALPHA = 1e-6`` on a correct sampler under a fresh seed."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import mpmath
import pytest
from scipy import stats

from mechanisms.errors import (CarrierError, DomainError, MonotonicFlagError, OptimizeError,
                               SelectionMeasureError, SelectionScaleError, TopKError)
from mechanisms.make_noisy_top_k import NoisyTopK, make_noisy_top_k
from mechanisms.make_report_noisy_max import make_report_noisy_max
from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence
from mechanisms.metrics import LInfDistance, MonotonicLInfDistance
from obligations.make_noisy_top_k import (ScriptedSelector, code_paths, code_top_k_distribution,
                                          law_gap, pure_loss, stated_top_k_distribution,
                                          zcdp_excess)
from obligations.noisy_max import ScriptedRng, code_distribution

ALPHA = 1e-6
"""False-alarm rate of each statistical test."""
ZCDP = ZeroConcentratedDivergence()


ULPS = 1 + Fraction(4, 2 ** 52)
"""The maps round each of at most three float operations up: within 4 ulps of the exact value."""


def test_pure_map_is_two_k_d_in_over_scale_rounded_up():
    m = make_noisy_top_k(3, 0.7)
    exact = Fraction(2 * 3) * Fraction(0.1) / Fraction(0.7)
    assert exact <= Fraction(m.map(0.1)) <= exact * ULPS
    assert m.map(0) == 0 and m.map(math.inf) == math.inf
    assert make_noisy_top_k(2, 2, T=int).map(3) == 6.0
    assert make_noisy_top_k(2, 3, T=int).map(10 ** 400) == math.inf


def test_zcdp_map_is_k_eta_squared_over_eight_rounded_up():
    m = make_noisy_top_k(3, 0.7, measure=ZCDP)
    exact = 3 * (2 * Fraction(0.3) / Fraction(0.7)) ** 2 / 8
    assert exact <= Fraction(m.map(0.3)) <= exact * ULPS
    assert make_noisy_top_k(2, 2.0, measure=ZCDP).map(1) == 2 * (2 * 1 / 2.0) ** 2 / 8
    assert m.map(0) == 0 and m.map(math.inf) == math.inf


def test_monotonic_metric_halves_the_range():
    pure = make_noisy_top_k(3, 0.7, monotonic=True)
    zcdp = make_noisy_top_k(3, 0.7, measure=ZCDP, monotonic=True)
    assert pure.input_metric == MonotonicLInfDistance()
    assert make_noisy_top_k(3, 0.7).input_metric == LInfDistance()
    exact = 3 * Fraction(0.1) / Fraction(0.7)
    assert exact <= Fraction(pure.map(0.1)) <= exact * ULPS
    exact = 3 * (Fraction(0.3) / Fraction(0.7)) ** 2 / 8
    assert exact <= Fraction(zcdp.map(0.3)) <= exact * ULPS


def test_monotonic_distance_is_infinite_when_scores_move_both_ways():
    metric = MonotonicLInfDistance()
    assert metric.distance([1.0, 2.0], [0.5, 2.0]) == Fraction(1, 2)
    assert metric.distance([0.5, 2.0], [1.0, 2.5]) == Fraction(1, 2)
    assert metric.distance([1.0, 2.0], [1.5, 1.0]) == math.inf
    assert metric.distance([1.0], [1.0, 2.0]) == math.inf


def test_k_one_has_report_noisy_max_law_and_map():
    scores = [0.5, 2.0, -1.0]
    top1 = code_top_k_distribution(make_noisy_top_k(1, 1.5), scores)
    noisy_max = code_distribution(make_report_noisy_max(1.5), scores)
    assert all(abs(top1[(i,)] - p) < mpmath.mpf(10) ** -40 for i, p in enumerate(noisy_max))
    assert make_noisy_top_k(1, 1.5).map(2.0) == make_report_noisy_max(1.5).map(2.0)


def test_equal_scores_peel_the_scripted_positions():
    m = make_noisy_top_k(3, 1.0)
    # each round: the proposal, then the 0 that Bernoulli(exp(-0)) draws (always accepts)
    assert m([0.0] * 4, ScriptedRng(2, 0, 2, 0, 0, 0)) == [2, 3, 0]
    assert m([0.0] * 3, ScriptedRng(0, 0, 0, 0, 0, 0)) == [0, 1, 2]


def test_outputs_are_k_distinct_indices():
    rng = random.Random(1)
    for k in (1, 2, 4):
        m = make_noisy_top_k(k, 1.0, measure=ZCDP if k == 2 else MaxDivergence())
        for _ in range(50):
            out = m([0.5, 2.0, -1.0, 3.0], rng)
            assert len(out) == k and len(set(out)) == k
            assert all(type(i) is int and 0 <= i < 4 for i in out)
            assert m.output_domain.member(out)


def test_k_equal_to_n_is_a_permutation_and_huge_scores_are_exact():
    rng = random.Random(2)
    assert sorted(make_noisy_top_k(3, 1.0)([1.0, 2.0, 3.0], rng)) == [0, 1, 2]
    assert make_noisy_top_k(2, 1.0)([-1e308, 1e308, 0.0], rng) == [1, 2]
    assert make_noisy_top_k(2, 1, optimize="min", T=int)([10 ** 40, 0, -10 ** 40], rng) == [2, 1]


def test_law_from_the_running_code_is_the_stated_one():
    for optimize in ("max", "min"):
        scores = [0.0, 1.0, 3.0, -2.0]
        for k in (1, 2, 3, 4):
            m = make_noisy_top_k(k, 0.8, optimize=optimize)
            code = code_top_k_distribution(m, scores)
            stated = stated_top_k_distribution(k, 0.8, optimize, scores)
            assert set(code) == set(stated) == set(itertools.permutations(range(4), k))
            assert law_gap(code, stated) < mpmath.mpf(10) ** -40
            with mpmath.workdps(50):
                assert abs(mpmath.fsum(code.values()) - 1) < mpmath.mpf(10) ** -40


def test_paths_show_each_round_the_remaining_scores():
    scores = [5.0, 6.0, 7.0]
    paths = code_paths(make_noisy_top_k(2, 1.0).function, scores)
    assert len(paths) == 6
    for positions, seen, output in paths:
        assert seen[0] == scores
        assert seen[1] == [scores[i] for i in range(3) if i != output[0]]
        assert output[1] == [i for i in range(3) if i != output[0]][positions[1]]
    selector = ScriptedSelector([1])
    assert selector([1.0, 2.0]) == 1 and selector.seen == [[1.0, 2.0]]


def test_sampler_draws_the_peeled_exponential_mechanism():
    """Chi-square goodness of fit of 6000 seeded draws of top-2 of 3 against the stated law."""
    scores, scale = [0.0, 1.0, -0.5], 1.0
    m = make_noisy_top_k(2, scale)
    rng = random.Random(11)
    counts = Counter(tuple(m(scores, rng)) for _ in range(6000))
    stated = stated_top_k_distribution(2, scale, "max", scores)
    outcomes = sorted(stated)
    expected = [float(stated[y]) * 6000 for y in outcomes]
    assert set(counts) <= set(outcomes)
    assert stats.chisquare([counts[y] for y in outcomes], expected).pvalue > ALPHA


def test_worst_loss_stays_below_the_maps():
    m_pure = make_noisy_top_k(2, 1.0)
    m_zcdp = make_noisy_top_k(2, 1.0, measure=ZCDP)
    worst_pure = worst_excess = mpmath.mpf(-1)
    laws = {s: code_top_k_distribution(m_pure, list(s))
            for s in itertools.product((0.0, 1.0), repeat=4)}
    for p, q in itertools.product(laws.values(), repeat=2):
        worst_pure = max(worst_pure, pure_loss(p, q))
        worst_excess = max(worst_excess, zcdp_excess(p, q, m_zcdp.map(1.0))[0])
    assert 0 < worst_pure <= m_pure.map(1.0)
    assert worst_excess <= 0
    # on 4 candidates two rounds lose more than one round's bound: the factor k is needed
    assert worst_pure > make_report_noisy_max(1.0).map(1.0)


def test_monotonic_worst_loss_stays_below_the_halved_maps():
    m_pure = make_noisy_top_k(2, 1.0, monotonic=True)
    m_zcdp = make_noisy_top_k(2, 1.0, measure=ZCDP, monotonic=True)
    laws = {s: code_top_k_distribution(m_pure, list(s))
            for s in itertools.product((0.0, 1.0), repeat=4)}
    worst_pure = worst_excess = mpmath.mpf(-1)
    for s, s2 in itertools.product(laws, repeat=2):
        if m_pure.input_metric.distance(s, s2) <= 1:
            worst_pure = max(worst_pure, pure_loss(laws[s], laws[s2]))
            worst_excess = max(worst_excess, zcdp_excess(laws[s], laws[s2], m_zcdp.map(1.0))[0])
    assert 0 < worst_pure <= m_pure.map(1.0) and worst_excess <= 0


@pytest.mark.parametrize("k", [0, -1, True, 1.0, "2", None])
def test_bad_k_is_refused(k):
    with pytest.raises(TopKError) as error:
        make_noisy_top_k(k, 1.0)
    assert error.value.k is k


@pytest.mark.parametrize("scale", [0.0, -1.0, math.inf, math.nan, True, "1"])
def test_bad_scale_is_refused(scale):
    with pytest.raises(SelectionScaleError):
        make_noisy_top_k(1, scale)


def test_bad_measure_optimize_and_carrier_are_refused():
    with pytest.raises(SelectionMeasureError) as error:
        make_noisy_top_k(1, 1.0, measure="zCDP")
    assert error.value.measure == "zCDP"
    with pytest.raises(OptimizeError):
        make_noisy_top_k(1, 1.0, optimize="argmax")
    with pytest.raises(CarrierError):
        make_noisy_top_k(1, 1.0, T=str)
    with pytest.raises(MonotonicFlagError) as error:
        make_noisy_top_k(1, 1.0, monotonic=1)
    assert error.value.monotonic == 1


@pytest.mark.parametrize("k", [1, 2, 3, 5])
@pytest.mark.parametrize("T", [float, int])
def test_too_few_candidates_are_outside_the_domain(k, T):
    """The input domain holds exactly the vectors the function handles, those of at least k
    scores: a shorter one is refused by ``Measurement.__call__`` (DomainError) before the
    function runs."""
    m = make_noisy_top_k(k, 1.0, T=T)
    assert m.input_domain.min_size == k and f"min_size={k}" in str(m.input_domain)
    for n in range(k):
        scores = [T(i) for i in range(n)]
        assert not m.input_domain.member(scores)
        with pytest.raises(DomainError) as error:
            m(scores, random.Random(0))
        assert error.value.value == scores and error.value.domain == m.input_domain
    assert m.input_domain.member([T(i) for i in range(k)])


@pytest.mark.parametrize("measure", [MaxDivergence(), ZCDP])
@pytest.mark.parametrize("monotonic", [False, True])
@pytest.mark.parametrize("optimize", ["max", "min"])
def test_every_admitted_input_returns_k_distinct_indices(measure, monotonic, optimize):
    """No admitted input raises: every vector of n >= k scores (ties, huge and int scores
    included) gives k distinct int indices in [0, n), a member of the output domain."""
    rng = random.Random(6)
    for k in (1, 2, 3, 4):
        for T in (float, int):
            m = make_noisy_top_k(k, 0.5, optimize=optimize, measure=measure,
                                 monotonic=monotonic, T=T)
            for n in range(k, k + 5):
                for scores in ([T(rng.randint(-2, 2)) for _ in range(n)], [T(0)] * n,
                               [T(10 ** 6 * (-1) ** i) for i in range(n)]):
                    assert m.input_domain.member(scores)
                    out = m(scores, rng)
                    assert len(out) == k and len(set(out)) == k
                    assert all(type(i) is int and 0 <= i < n for i in out)
                    assert m.output_domain.member(out)


def test_non_finite_scores_are_outside_the_domain():
    m = make_noisy_top_k(1, 1.0)
    for scores in ([math.inf, 0.0], [math.nan], [1, 2.0]):
        with pytest.raises(DomainError):
            m(scores)


def test_function_is_a_noisy_top_k_holding_k():
    m = make_noisy_top_k(4, 2.0, optimize="min")
    assert isinstance(m.function, NoisyTopK) and m.function.k == 4
    assert m.function.selector.scale == 2.0 and m.function.selector.sign == -1


# --- opendp 0.16 --------------------------------------------------------------------------

dp = pytest.importorskip("opendp.prelude")
dp.enable_features("contrib")


def opendp_top_k(k, scale, measure, T=float, negate=False, monotonic=False):
    domain = dp.vector_domain(dp.atom_domain(T=T, nan=False) if T is float
                              else dp.atom_domain(T=T))
    return dp.m.make_noisy_top_k(domain, dp.linf_distance(T=T, monotonic=monotonic), measure,
                                 k=k, scale=scale, negate=negate)


GRID = [(k, scale, d_in) for k in (1, 2, 3, 7) for scale in (0.1, 0.7, 1.0, 3.3)
        for d_in in (0.0, 0.1, 1.0, 2.5)]


@pytest.mark.parametrize("monotonic", [False, True])
@pytest.mark.parametrize("k,scale,d_in", GRID)
def test_maps_equal_opendp_and_never_below_exact(k, scale, d_in, monotonic):
    """Same formulas (k w d_in / scale; k (w d_in / scale)^2 / 8 under zCDP; w = 2, or 1 for the
    monotonic metric), computed in the same order with every float operation rounded up: equal
    to opendp's, and never below the exact value."""
    w = 1 if monotonic else 2
    for ours, theirs, exact in (
            (make_noisy_top_k(k, scale, monotonic=monotonic),
             opendp_top_k(k, scale, dp.max_divergence(), monotonic=monotonic),
             w * k * Fraction(d_in) / Fraction(scale)),
            (make_noisy_top_k(k, scale, measure=ZCDP, monotonic=monotonic),
             opendp_top_k(k, scale, dp.zero_concentrated_divergence(), monotonic=monotonic),
             k * (w * Fraction(d_in) / Fraction(scale)) ** 2 / 8)):
        mine, other = ours.map(d_in), theirs.map(d_in)
        assert exact <= Fraction(mine)
        assert mine == other


def test_maps_equal_opendp_on_seeded_random_parameters():
    rng = random.Random(5)
    for _ in range(150):
        k, scale, d_in = rng.randint(1, 50), rng.uniform(0.01, 100), rng.uniform(0, 100)
        monotonic = rng.random() < 0.5
        assert make_noisy_top_k(k, scale, monotonic=monotonic).map(d_in) == opendp_top_k(
            k, scale, dp.max_divergence(), monotonic=monotonic).map(d_in)
        assert make_noisy_top_k(k, scale, measure=ZCDP, monotonic=monotonic).map(d_in) == \
            opendp_top_k(k, scale, dp.zero_concentrated_divergence(),
                         monotonic=monotonic).map(d_in)


def test_int_maps_agree_with_opendp():
    for k, scale, d_in in ((1, 2, 3), (3, 1, 1), (2, 5, 7)):
        assert make_noisy_top_k(k, scale, T=int).map(d_in) == \
            opendp_top_k(k, float(scale), dp.max_divergence(), T=int).map(d_in)


def test_opendp_agrees_on_the_favoured_indices():
    scores = [1.0, 200.0, -50.0, 100.0, -20.0]  # gaps >= 21: a swap has probability < 1e-9
    rng = random.Random(3)
    for negate, optimize, expected in ((False, "max", [1, 3]), (True, "min", [2, 4])):
        assert make_noisy_top_k(2, 1.0, optimize=optimize)(scores, rng) == expected
        assert opendp_top_k(2, 1.0, dp.max_divergence(), negate=negate)(scores) == expected


def test_opendp_returns_fewer_than_k_where_our_domain_refuses():
    assert opendp_top_k(3, 1.0, dp.max_divergence())([1.0, 2.0]) in ([0, 1], [1, 0])
    with pytest.raises(DomainError):
        make_noisy_top_k(3, 1.0)([1.0, 2.0])
