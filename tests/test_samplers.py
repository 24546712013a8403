"""mechanisms.samplers: each exact sampler against its exact distribution (seeded; every test's
false-alarm probability is at most ALPHA), and its refusals."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from scipy import stats

from mechanisms.samplers import (sample_bernoulli_exp, sample_bernoulli_rational,
                                 sample_discrete_gaussian, sample_discrete_laplace, system_rng)

ALPHA = 1e-6
RUNS = 10_000


def fits(counts: Counter, pmf: dict[int, float]) -> bool:
    """Chi-square goodness of fit on the support ``pmf`` (plus one cell for the rest)."""
    observed = [counts.get(y, 0) for y in pmf] + [sum(counts.values()) - sum(counts.get(y, 0)
                                                                              for y in pmf)]
    expected = [RUNS * p for p in pmf.values()] + [RUNS * (1 - sum(pmf.values()))]
    cells = [(o, e) for o, e in zip(observed, expected) if e > 0]
    statistic = sum((o - e) ** 2 / e for o, e in cells)
    return stats.chi2.sf(statistic, len(cells) - 1) > ALPHA


@pytest.mark.parametrize("gamma", [Fraction(0), Fraction(1, 3), Fraction(1), Fraction(5, 2)])
def test_bernoulli_exp_draws_exp_minus_gamma(gamma):
    rng = random.Random(7)
    hits = sum(sample_bernoulli_exp(gamma, rng) for _ in range(RUNS))
    assert stats.binomtest(hits, RUNS, math.exp(-gamma)).pvalue > ALPHA


def _bernoulli_exp_as_written(gamma: Fraction, rng: random.Random) -> bool:
    """CKS 2020, Algorithm 1, in fractions: the draws the integer sampler must make."""
    while gamma > 1:
        if not _bernoulli_exp_as_written(Fraction(1), rng):
            return False
        gamma -= 1
    k = 1
    while sample_bernoulli_rational(gamma / k, rng):
        k += 1
    return k % 2 == 1


@pytest.mark.parametrize("gamma", [Fraction(0), Fraction(3, 5), Fraction(6, 7), Fraction(7, 3),
                                   Fraction(5, 2)])
def test_bernoulli_exp_in_ints_makes_the_draws_of_the_algorithm_in_fractions(gamma):
    """The same ``randrange`` calls, hence the same outputs, on one seed: a seeded run of any
    sampler built on it is the algorithm's. ``3/5`` and ``6/7`` have coins ``gamma / k`` that
    reduce by an odd factor (``3/15 = 1/5``), where an unreduced draw would differ (a draw below
    ``2n`` reads the same bits as one below ``n``)."""
    ours, written = random.Random(3), random.Random(3)
    assert [sample_bernoulli_exp(gamma, ours) for _ in range(2000)] == \
        [_bernoulli_exp_as_written(gamma, written) for _ in range(2000)]
    assert ours.getstate() == written.getstate()


@pytest.mark.parametrize("sigma", [Fraction(1, 3), Fraction(1), Fraction(7, 2), 0.7])
def test_discrete_gaussian_accepts_as_the_algorithm_in_fractions(sigma):
    """Its acceptance coin, computed in ints, draws as CKS 2020's Algorithm 3 written with
    fractions: ``Bernoulli(exp(-(|y| - sigma^2/t)^2 / (2 sigma^2)))``."""
    exact = Fraction(sigma)
    t = math.floor(exact) + 1

    def written(rng: random.Random) -> int:
        while True:
            y = sample_discrete_laplace(Fraction(t), rng)
            if sample_bernoulli_exp((abs(y) - exact ** 2 / t) ** 2 / (2 * exact ** 2), rng):
                return y
    ours, theirs = random.Random(5), random.Random(5)
    assert [sample_discrete_gaussian(sigma, ours) for _ in range(500)] == \
        [written(theirs) for _ in range(500)]


def test_bernoulli_rational_is_a_threshold_on_the_denominator():
    class Fixed:
        def randrange(self, n: int) -> int:
            assert n == 4
            return 2
    assert sample_bernoulli_rational(Fraction(3, 4), Fixed()) is True
    assert sample_bernoulli_rational(Fraction(1, 4), Fixed()) is False


def two_sided(weight, support: range) -> dict[int, float]:
    total = sum(weight(y) for y in range(-400, 401))
    return {y: weight(y) / total for y in support}


@pytest.mark.parametrize("scale", [Fraction(1, 3), Fraction(1), Fraction(7, 2)])
def test_discrete_laplace_draws_its_pmf(scale):
    rng = random.Random(11)
    counts = Counter(sample_discrete_laplace(scale, rng) for _ in range(RUNS))
    assert fits(counts, two_sided(lambda y: math.exp(-abs(y) / scale), range(-8, 9)))


@pytest.mark.slow  # over 2 s: make test-slow
@pytest.mark.parametrize("sigma", [Fraction(1, 2), Fraction(2), Fraction(9, 2)])
def test_discrete_gaussian_draws_its_pmf(sigma):
    rng = random.Random(13)
    counts = Counter(sample_discrete_gaussian(sigma, rng) for _ in range(RUNS))
    assert fits(counts, two_sided(lambda y: math.exp(-y * y / (2 * sigma * sigma)),
                                  range(-12, 13)))


def test_a_sampler_that_is_off_fails_the_same_fit():
    """The control: discrete Laplace draws of scale 1.2 do not fit the scale-1 pmf."""
    rng = random.Random(11)
    counts = Counter(sample_discrete_laplace(Fraction(6, 5), rng) for _ in range(RUNS))
    assert not fits(counts, two_sided(lambda y: math.exp(-abs(y)), range(-8, 9)))


@pytest.mark.parametrize("call", [
    lambda rng: sample_bernoulli_exp(Fraction(-1), rng),
    lambda rng: sample_bernoulli_rational(Fraction(3, 2), rng),
    lambda rng: sample_discrete_laplace(Fraction(0), rng),
    lambda rng: sample_discrete_gaussian(Fraction(-1), rng),
])
def test_parameters_outside_the_distributions_are_refused(call):
    with pytest.raises(ValueError):
        call(random.Random(0))


def test_the_default_generator_is_the_systems():
    import secrets
    assert isinstance(system_rng(None), secrets.SystemRandom)
    rng = random.Random(1)
    assert system_rng(rng) is rng
