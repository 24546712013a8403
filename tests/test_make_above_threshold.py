"""make_above_threshold: values, edge cases, typed errors, the noise scales against the textbook,
the drawn distribution, and the exact privacy loss on hard neighbour pairs.

OpenDP has no AboveThreshold constructor (its make_laplace_threshold releases the noisy counts of
a histogram above a threshold, a different mechanism), so the map is compared with Dwork and Roth
(2014, Algorithm 1 and Theorem 3.23) instead: threshold noise 2 Delta / epsilon, query noise
4 Delta / epsilon, epsilon-DP.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import mpmath
import pytest
from scipy import stats

import mechanisms.make_above_threshold as module
from checker.results import Verdict
from checker.runner import Task, check_obligation
from mechanisms import ops
from mechanisms.errors import DomainError, SelectionScaleError, ThresholdError
from mechanisms.make_above_threshold import (AboveThreshold, build_above_threshold,
                                             make_above_threshold)
from obligations.make_above_threshold import (above_threshold_obligations, code_distribution,
                                              neighbour_pairs, stated_distribution, worst_loss)

ALPHA = 1e-6
"""False-alarm rate of each statistical test."""


@pytest.mark.parametrize("epsilon, sensitivity", [(1.0, 1), (0.5, 1), (2.0, 3), (0.1, 2)])
def test_noise_scales_and_map_are_the_textbook_ones(epsilon, sensitivity):
    scale = 2 * sensitivity / epsilon
    f = make_above_threshold(scale, 0).function
    assert f.threshold_noise_scale(f.scale) == Fraction(2 * sensitivity / epsilon)
    assert f.query_noise_scale(f.scale) == 2 * Fraction(2 * sensitivity / epsilon)
    d_out = make_above_threshold(scale, 0).map(sensitivity)
    assert Fraction(d_out) >= 2 * Fraction(sensitivity) / Fraction(scale)
    assert math.isclose(d_out, epsilon, rel_tol=1e-15)


def test_the_sampler_draws_rho_once_and_nu_per_query_with_the_stated_scales(monkeypatch):
    drawn = []

    def spy(scale, rng):
        drawn.append(Fraction(scale))
        return 0
    monkeypatch.setattr(module, "sample_discrete_laplace", spy)
    assert make_above_threshold(1.5, 10)([1, 2, 3], random.Random(0)) == 3
    assert drawn == [Fraction(3, 2), Fraction(3), Fraction(3), Fraction(3)]
    drawn.clear()
    assert make_above_threshold(1.5, 2)([1, 2, 3], random.Random(0)) == 1
    assert drawn == [Fraction(3, 2), Fraction(3), Fraction(3)]


def test_ties_count_as_above(monkeypatch):
    monkeypatch.setattr(module, "sample_discrete_laplace", lambda scale, rng: 0)
    assert make_above_threshold(1.0, 5)([4, 5, 6], random.Random(0)) == 1


def test_far_above_far_below_and_empty():
    rng = random.Random(3)
    m = make_above_threshold(1.0, 0)
    assert m([10 ** 30, 0], rng) == 0
    assert m([-10 ** 30] * 4, rng) == 4
    assert m([], rng) == 0
    assert make_above_threshold(1, -10 ** 40)([-10 ** 30], rng) == 0


def test_output_is_an_int_in_range():
    rng = random.Random(4)
    m = make_above_threshold(2.0, 3)
    for _ in range(300):
        out = m([0, 2, 4, 1], rng)
        assert type(out) is int and 0 <= out <= 4


@pytest.mark.slow  # over 2 s: make test-slow
def test_sampler_draws_the_stated_distribution():
    """Chi-square goodness of fit against the exact distribution, seeded; false alarm <= ALPHA."""
    m, answers, n = make_above_threshold(1.5, 3), [1, 3, 2, 5], 20000
    rng = random.Random(21)
    counts = Counter(m(answers, rng) for _ in range(n))
    probabilities, tail = code_distribution(m, answers)
    assert tail < 1e-20 and abs(sum(probabilities) - 1) < 1e-20
    expected = [float(p) * n for p in probabilities]
    _, p_value = stats.chisquare([counts[i] for i in range(len(answers) + 1)], expected)
    assert p_value > ALPHA


@pytest.mark.slow  # over 2 s: make test-slow
@pytest.mark.parametrize("scale, delta", [(1.0, 1), (2.0, 1), (0.5, 1), (3, 2)])
def test_exact_loss_on_hard_pairs_stays_below_the_map(scale, delta):
    m = make_above_threshold(scale, 0)
    loss, _ = worst_loss(m, neighbour_pairs(delta))
    assert loss <= mpmath.mpf(m.map(delta))
    assert loss > 0.5 * m.map(delta)  # the pairs are hard: the bound is not vacuous here


@pytest.mark.parametrize("scale", [0.0, -1.0, math.nan, math.inf, True, "2", None])
def test_bad_scale_is_refused(scale):
    with pytest.raises(SelectionScaleError) as error:
        make_above_threshold(scale, 0)
    assert error.value.scale is scale


@pytest.mark.parametrize("threshold", [0.5, 1.0, True, "3", None, math.nan])
def test_non_int_threshold_is_refused(threshold):
    with pytest.raises(ThresholdError) as error:
        make_above_threshold(1.0, threshold)
    assert error.value.threshold is threshold


@pytest.mark.parametrize("answers", [[1.0], [True], [0, math.nan], "12"])
def test_non_int_answers_are_outside_the_domain(answers):
    with pytest.raises(DomainError):
        make_above_threshold(1.0, 0)(answers, random.Random(0))


def test_map_of_infinite_distance_is_infinite():
    assert make_above_threshold(1.0, 0).map(math.inf) == math.inf
    assert make_above_threshold(1.0, 0).map(0) == 0


def test_opendp_has_no_above_threshold_constructor():
    """The comparison is with the textbook (above); opendp's make_laplace_threshold is a
    different mechanism (noisy histogram counts above a threshold)."""
    import opendp.prelude as dp
    names = [name for name in dir(dp.m) if name.startswith("make_")]
    assert "make_laplace_threshold" in names
    assert not [name for name in names if "above" in name or "sparse" in name or "svt" in name]


class _SubtractedNoise(AboveThreshold):
    """Correct, written differently: ``q - nu >= T - rho`` (both noises symmetric)."""

    above = staticmethod(lambda answer, nu, threshold, rho: ops.le(threshold - rho, answer - nu))


def test_a_correct_variant_with_subtracted_noise_is_proved():
    """The distribution obligation is about the law, not the sign convention of the noise."""
    def build(scale, threshold):
        return replace(build_above_threshold(scale, threshold),
                       function=_SubtractedNoise(scale, threshold))
    variant = make_above_threshold.variant("make_at_subtracted", build)
    obligations = above_threshold_obligations(variant, "at_subtracted")
    verdicts = {o.id: check_obligation(Task("make_at_subtracted", o), seconds=60).verdict
                for o in obligations}
    assert set(verdicts.values()) == {Verdict.PROVED}, verdicts
    m = variant(1.0, 2)
    code, tail = code_distribution(m, [1, 3])
    assert max(abs(a - b) for a, b in zip(code, stated_distribution(1.0, 2, [1, 3]))) < 4 * tail + 1e-30
