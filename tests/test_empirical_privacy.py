"""The statistical tester catches each wrong measurement and stays quiet on its correct partner.

Every audit here is seeded (the targets draw from NumPy's global generator, which the auditor
seeds), so these tests are deterministic: they cannot flake. Each audit's false-alarm
probability, over the randomness of sampling, is alpha = 1e-3.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from bench import targets
from checker.audit import audit
from checker.empirical.distribution import test_distribution as fit_distribution
from checker.empirical.privacy import Pair, PrivacyTester
from checker.empirical.shapes import NAN, key
from checker.empirical.statistics import (clopper_pearson_lower, clopper_pearson_upper,
                                          loss_lower_bound)

SAMPLES = 20_000

WRONG_AND_RIGHT = [
    ("laplace", targets.laplace_half_noise, targets.laplace_correct, targets.EPSILON, targets.EPSILON),
    ("report noisy max", targets.noisy_max_value, targets.noisy_max_index, targets.EPSILON,
     targets.EPSILON),
    ("randomized response, 3 categories", targets.randomized_response, targets.randomized_response,
     targets.RR_TWO_CATEGORY_EPSILON, targets.RR_EPSILON),
]


@pytest.mark.slow  # over 2 s: make test-slow
@pytest.mark.parametrize("name, wrong, right, wrong_claim, right_claim", WRONG_AND_RIGHT,
                         ids=[w[0] for w in WRONG_AND_RIGHT])
def test_wrong_variant_is_caught_and_partner_is_not(name, wrong, right, wrong_claim, right_claim):
    caught = audit(wrong, wrong_claim, samples=SAMPLES, seed=1)
    assert caught.violations, caught.summary()
    assert all(v.loss_lower > v.claim for v in caught.violations)
    clean = audit(right, right_claim, samples=SAMPLES, seed=1)
    assert not clean.violations, clean.summary()
    assert "sampling cannot prove privacy" in clean.summary()


@pytest.mark.slow
def test_no_false_alarm_across_seeds_on_exact_claims():
    """A mechanism tested against its exact privacy loss: 20 seeded audits, none alarms."""
    for seed in range(20):
        assert not audit(targets.laplace_correct, targets.EPSILON, samples=5_000, seed=seed).violations


def test_a_claim_just_below_the_true_loss_is_caught_with_enough_samples():
    result = audit(targets.laplace_correct, 0.8, pairs=[(0.0, 1.0)], samples=50_000, seed=2)
    assert result.violations


def test_seeded_audits_are_reproducible():
    first = audit(targets.laplace_half_noise, 1.0, samples=2_000, seed=7)
    second = audit(targets.laplace_half_noise, 1.0, samples=2_000, seed=7)
    assert [r.loss_lower for r in first.results] == [r.loss_lower for r in second.results]


def test_runs_are_counted_per_input():
    result = audit(targets.laplace_correct, 1.0, pairs=[(0.0, 1.0), (0.0, -1.0)], samples=1_000)
    assert result.runs_per_input == 1_000
    assert set(result.runs.values()) == {1_000} and len(result.runs) == 3


def test_clopper_pearson_matches_closed_forms():
    n, alpha = 50, 0.05
    assert clopper_pearson_upper(0, n, alpha) == pytest.approx(1 - alpha ** (1 / n))
    assert clopper_pearson_lower(n, n, alpha) == pytest.approx(alpha ** (1 / n))
    assert clopper_pearson_lower(0, n, alpha) == 0.0 and clopper_pearson_upper(n, n, alpha) == 1.0
    assert loss_lower_bound(0, 10, 100, 0.01) == -math.inf


def test_tester_rejects_bad_parameters():
    with pytest.raises(ValueError):
        PrivacyTester(lambda x, n, rng: [0] * n, samples=5)
    with pytest.raises(ValueError):
        PrivacyTester(lambda x, n, rng: [0] * n, alpha=1.5)


def test_a_leak_in_one_coordinate_of_a_tuple_is_found():
    def pair_of_noisy(x, n, rng):
        return [(float(x) + a, b) for a, b in zip(rng.laplace(0, 0.5, n), rng.laplace(0, 1, n))]
    result = PrivacyTester(pair_of_noisy, samples=10_000, seed=3).audit([Pair(0.0, 1.0, 1.0)])
    assert result.violations  # by a threshold on output[0], a projection or a learned score


def test_sampler_is_checked_against_its_stated_distribution():
    def biased(x, n, rng):  # stated: 'a' with 0.75; draws it with 0.70
        return np.where(rng.random(n) < 0.70, "a", "b").tolist()
    stated = lambda x: {"a": 0.75, "b": 0.25}  # noqa: E731
    assert fit_distribution(biased, stated, ["x"], samples=20_000).mismatches
    honest = lambda x, n, rng: np.where(rng.random(n) < 0.75, "a", "b").tolist()  # noqa: E731
    assert not fit_distribution(honest, stated, ["x"], samples=20_000).mismatches
    stray = lambda x, n, rng: ["a"] * (n - 1) + ["c"]  # noqa: E731
    assert any(m.outcome == "c" for m in fit_distribution(stray, stated, ["x"], 1_000).mismatches)


def nan_when_above_half(x):
    """Leaks through NaN alone: NaN exactly when x > 0.5, else a uniform draw."""
    return math.nan if x > 0.5 else float(np.random.random())


def nan_coin(x):
    """NaN with probability 0.5 whatever x: NaN is an output value of its own, 0-DP."""
    return math.nan if np.random.random() < 0.5 else 1.0


def test_a_leak_through_nan_is_found_and_nan_is_a_value_of_its_own():
    """Seeded; each audit's false-alarm probability is at most alpha = 1e-3."""
    leak = audit(nan_when_above_half, 1.0, pairs=[(0.0, 1.0), (2.0, 3.0)], samples=2000, seed=3)
    assert any("is NaN" in r.event for r in leak.violations)  # from x = 1: Pr[NaN] 1 vs 0
    assert all(r.event for r in leak.results)  # the all-NaN pair (2, 3) is audited, not an abort
    coin = audit(nan_coin, 0.0, pairs=[(0.0, 1.0)], samples=2000, seed=3)
    assert not coin.violations and not coin.errors and len(coin.results) == 2
    assert key(math.nan) is key(float("nan")) is NAN  # NaN counted as one value


def svt_releasing_gaussian_value(queries):
    """Leaky sparse vector: answers above a threshold of 1 with Gaussian query noise, and
    releases the noisy value after the first True, a tuple of bools then a float."""
    out = []
    for q in queries:
        noisy = q + float(np.random.normal(0, 1))
        out.append(noisy > 1)
        if noisy > 1:
            return tuple(out) + (noisy,)
    return tuple(out)


def svt_answers_only(queries, epsilon=1.0):
    """Lyu, Su and Li's Algorithm 1 (c = 1): threshold noise Lap(2/e1), query noise Lap(4/e2),
    e1 = e2 = epsilon / 2; the answers only, variable length (stops at the first True)."""
    threshold = 1 + float(np.random.laplace(0, 2 / (epsilon / 2)))
    out = []
    for q in queries:
        out.append(q + float(np.random.laplace(0, 4 / (epsilon / 2))) >= threshold)
        if out[-1]:
            break
    return out


def test_tuple_outputs_of_varying_shape_are_audited():
    """Seeded; each audit's false-alarm probability is at most alpha = 1e-3. The leak needs the
    shape events (length and value together); the correct partner raises no alarm."""
    pairs = [([1.0] * 5, [2.0, 2.0, 0.0, 0.0, 0.0]), ([0.0, 0.0, 1.0, 1.0, 1.0],
                                                      [1.0, 1.0, 0.0, 0.0, 0.0])]
    leak = audit(svt_releasing_gaussian_value, 1.0, pairs=pairs, samples=4000, seed=1)
    assert leak.violations and any("output[" in r.event or "len(" in r.event
                                   for r in leak.violations)
    correct = audit(svt_answers_only, 1.0, pairs=pairs, samples=4000, seed=1)
    assert not correct.violations, correct.summary()
