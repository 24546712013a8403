"""mechanisms.make_select_private_candidate: refusals, the running law (path by path, exact),
seeded sampling, the privacy map, the exact loss on a real three-outcome measurement, and the
comparison with the opendp package."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from mechanisms.domains import OptionDomain
from mechanisms.errors import (CandidateMeasurementError, CandidateThresholdError, DomainError,
                               StopProbabilityError)
from mechanisms.make_basic_composition import make_basic_composition
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_select_private_candidate import make_select_private_candidate
from checker.results import Verdict
from obligations.make_select_private_candidate import (make_scored_choice, make_text_scored,
                                                       running_law, scripted_measurement,
                                                       selection_loss, selection_loss_whole,
                                                       stated_selection_law)


def runs():
    return make_basic_composition([make_discrete_laplace(2.0), make_discrete_laplace(1.0)])


# --- construction -----------------------------------------------------------------------------

@pytest.mark.parametrize("gamma", [0.0, 1.0, -0.25, 1.5, math.nan, math.inf, -0.0])
def test_stop_probability_outside_the_open_unit_interval_is_refused(gamma):
    with pytest.raises(StopProbabilityError) as info:
        make_select_private_candidate(runs(), gamma, 1)
    assert info.value.stop_probability is gamma


@pytest.mark.parametrize("gamma", [Fraction(1, 4), 1, True, "0.25", None])
def test_stop_probability_must_be_a_float(gamma):
    with pytest.raises(StopProbabilityError):
        make_select_private_candidate(runs(), gamma, None)


@pytest.mark.parametrize("threshold", [math.inf, -math.inf, math.nan, True, "1", Fraction(1)])
def test_bad_threshold_is_refused(threshold):
    with pytest.raises(CandidateThresholdError) as info:
        make_select_private_candidate(runs(), 0.25, threshold)
    assert info.value.threshold is threshold


@pytest.mark.parametrize("measurement, reason", [
    (make_discrete_laplace(1.0), "output domain"),                       # not pairs
    (make_basic_composition([make_gaussian(1.0), make_gaussian(2.0)]), "MaxDivergence"),  # zCDP
    ("a measurement", "not a Measurement"),
])
def test_runs_must_be_pure_dp_pairs(measurement, reason):
    with pytest.raises(CandidateMeasurementError, match=reason):
        make_select_private_candidate(measurement, 0.25, 1)


def test_text_scores_are_refused():
    """Runs whose scores are text: with a threshold every comparison would raise."""
    with pytest.raises(CandidateMeasurementError, match="output domain"):
        make_select_private_candidate(make_text_scored(), 0.25, 1)


@pytest.mark.parametrize("obligation", ["runtime_errors", "distribution", "privacy"])
def test_bounded_checks_count_only_the_cases_that_ran(obligation, checked):
    """A selection that refuses every scripted case (it reads the candidate as the score, mutant
    make_select_private_candidate:114:31:constant:0->1) checked nothing on them: unknown, never
    'every path'."""
    result = checked(f"spc_score_of_candidate.{obligation}")
    assert result.verdict is Verdict.UNKNOWN, result.message
    assert any("nothing was checked" in g.message for g in result.goals), \
        [g.message for g in result.goals]


def test_domains_and_maps():
    inner = runs()
    m = make_select_private_candidate(inner, 0.25, 1)
    assert m.input_domain == inner.input_domain and m.input_metric == inner.input_metric
    assert m.output_domain == OptionDomain(inner.output_domain)
    assert m.map(1) == 2 * inner.map(1) == 3.0 and m.map(0) == 0
    best = make_select_private_candidate(inner, 0.25, None)
    assert best.map(1) == 4.5 and best.map(2) == 9.0
    assert Fraction(best.map(1)) >= 3 * Fraction(inner.map(1))
    with pytest.raises(DomainError):
        m(1.5, random.Random(0))


def test_map_rounds_up_where_three_eps_is_inexact():
    rng = random.Random(3)
    for _ in range(300):
        part = make_discrete_laplace(rng.uniform(0.01, 100.0))
        inner = make_basic_composition([part, part])
        best = make_select_private_candidate(inner, 0.5, None)
        d_in = rng.randint(1, 1000)
        assert Fraction(best.map(d_in)) >= 3 * Fraction(inner.map(d_in))


# --- the law, path by path ----------------------------------------------------------------------

def test_threshold_law_is_the_stopped_search():
    m = make_select_private_candidate(scripted_measurement((0, 0, 2, 0, 0)), 0.25, 1)
    law, truncated = running_law(m, 0)
    g = Fraction(1, 4)
    assert law == {None: g + (1 - g) * g, (2, "run 2"): (1 - g) ** 2} and truncated == 0


def test_best_of_law_keeps_the_latest_maximum():
    scores = (1, 0, 1, 3, 3)
    m = make_select_private_candidate(scripted_measurement(scores), 0.5, None)
    law, truncated = running_law(m, 0)
    h = Fraction(1, 2)
    assert law == {(1, "run 0"): h + h ** 2, (1, "run 2"): h ** 3, (3, "run 3"): h ** 4,
                   (3, "run 4"): h ** 5}
    assert truncated == h ** 5
    assert (law, truncated) == stated_selection_law(scores, 0.5, None)


@pytest.mark.parametrize("gamma", [0.1, 2.0 ** -1074, 1 - 2.0 ** -53])
def test_number_of_runs_is_geometric_with_the_exact_float(gamma):
    """All scores below the threshold: Pr[None after k runs] = (1 - g)^(k-1) g, g the rational
    the float denotes (so 0.1 is not 1/10)."""
    m = make_select_private_candidate(scripted_measurement((0,) * 5), gamma, 1)
    law, truncated = running_law(m, 0)
    g = Fraction(gamma)
    assert law == {None: 1 - (1 - g) ** 5} and truncated == (1 - g) ** 5
    assert Fraction(0.1) != Fraction(1, 10)


def test_seeded_sampling_matches_the_exact_law():
    """Seeded (random.Random(7)), 4000 runs: the frequency of None for threshold 1 with real runs
    (scores DL(2)) is compared with its exact value within 5 standard deviations (false-alarm
    probability below 1e-6 by a normal approximation of the binomial)."""
    inner = make_scored_choice()
    m = make_select_private_candidate(inner, 0.25, 1)
    law, tail = running_law(m, False)
    p_none = float(law[None])
    rng = random.Random(7)
    n = 4000
    hits = sum(m(False, rng) is None for _ in range(n))
    sd = math.sqrt(n * p_none * (1 - p_none))
    assert abs(hits - n * p_none) <= 5 * sd + n * float(tail)


def test_outputs_are_in_the_output_domain():
    m = make_select_private_candidate(runs(), 0.25, 1)
    rng = random.Random(1)
    outputs = [m(3, rng) for _ in range(200)]
    assert all(m.output_domain.member(y) for y in outputs)
    assert all(y is None or y[0] >= 1 for y in outputs)
    assert any(y is None for y in outputs) and any(y is not None for y in outputs)


# --- privacy -------------------------------------------------------------------------------------

@pytest.mark.parametrize("gamma", [0.25, 0.0625])
def test_threshold_loss_exceeds_eps_but_not_two_eps(gamma):
    """The exact loss (lower bound) of the real code on the ln 3-DP scored runs: above the runs'
    eps (a selection is not free), within 2 eps (Liu and Talwar's bound)."""
    inner = make_scored_choice()
    m = make_select_private_candidate(inner, gamma, 1)
    loss, _ = selection_loss(m)
    assert math.log(3) < loss <= m.map(1) == 2 * inner.map(1)


def test_best_of_loss_within_three_eps():
    m = make_select_private_candidate(make_scored_choice(), 0.5, None)
    loss, _ = selection_loss(m)
    assert 0 < loss <= m.map(1)


def test_loss_bounds_are_from_cut_off_paths():
    """The number of runs is geometric: the laws are never computed whole, so a loss bound above
    a map is never a confirmed refutation."""
    for threshold in (1, None):
        _, _, whole = selection_loss_whole(make_select_private_candidate(make_scored_choice(),
                                                                         0.5, threshold))
        assert not whole


# --- opendp 0.16 --------------------------------------------------------------------------------

def test_maps_equal_opendp_with_a_threshold():
    """Thresholded maps equal opendp's (2 eps: a doubling is exact in floats) on a grid of runs'
    epsilons; opendp admits stop_probability 0, ours refuses it; opendp has no best-of variant in
    0.16 (ours: 3 eps)."""
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib", "honest-but-curious")
    space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    rng = random.Random(5)
    for _ in range(20):
        scale = rng.uniform(0.1, 10.0)
        ours_inner = make_discrete_laplace(scale)
        eps = ours_inner.map(1)
        theirs_inner = dp.m.make_user_measurement(
            *space, dp.max_divergence(), function=lambda x: (1.0, "a"),
            privacy_map=lambda d_in, eps=eps: eps * d_in,
            TO=dp.RuntimeType.parse("(f64, ExtrinsicObject)"))
        theirs = dp.c.make_select_private_candidate(theirs_inner, stop_probability=0.25,
                                                    threshold=0.5)
        ours = make_select_private_candidate(
            make_basic_composition([ours_inner, ours_inner]), 0.25, 0.5)
        pair_eps = make_basic_composition([ours_inner, ours_inner]).map(1)
        assert theirs.map(1.0) == 2 * eps
        assert ours.map(1) == 2 * pair_eps
    dp.c.make_select_private_candidate(theirs_inner, stop_probability=0.0, threshold=0.5)
    with pytest.raises(StopProbabilityError):
        make_select_private_candidate(runs(), 0.0, 0.5)
