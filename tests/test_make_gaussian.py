"""mechanisms.make_gaussian: refusals, values, the exact zCDP map rounded up once, the sampler's
distribution, and comparison with OpenDP's integer Gaussian."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from scipy import stats

from mechanisms.domains import AtomDomain
from mechanisms.errors import DomainError, ScaleError
from mechanisms.make_gaussian import make_gaussian
from mechanisms.measures import ZeroConcentratedDivergence
from mechanisms.metrics import AbsoluteDistance

ALPHA = 1e-6
"""False-alarm rate of each statistical test (the draws are seeded, so a run is reproducible)."""


@pytest.mark.parametrize("scale", [-1.0, -1e-300, math.nan, math.inf, 1, True, None])
def test_bad_scale_is_refused(scale):
    with pytest.raises(ScaleError) as info:
        make_gaussian(scale)
    assert info.value.scale is scale


def test_domains_metric_measure():
    m = make_gaussian(1.0)
    assert m.input_domain == AtomDomain(int) and m.output_domain == AtomDomain(int)
    assert m.input_metric == AbsoluteDistance()
    assert m.output_measure == ZeroConcentratedDivergence()


@pytest.mark.parametrize("arg", [1.0, False, "3", math.nan])
def test_non_int_input_is_refused(arg):
    with pytest.raises(DomainError):
        make_gaussian(1.0)(arg, random.Random(0))


@pytest.mark.parametrize("arg", [0, -5, 10 ** 25])
def test_output_is_an_int_near_the_input(arg):
    rng = random.Random(2)
    outputs = [make_gaussian(2.0)(arg, rng) for _ in range(200)]
    assert all(type(y) is int for y in outputs)
    # |Y| > 30 = 15 sigma has probability below 1e-40 per draw
    assert all(abs(y - arg) <= 30 for y in outputs)


def test_zero_scale_adds_no_noise_as_opendp_does():
    m = make_gaussian(0.0)
    assert m(17, random.Random(0)) == 17
    assert m.map(0) == 0 and m.map(1) == math.inf


def test_map_is_the_exact_rho_rounded_up_once():
    rng = random.Random(4)
    for _ in range(500):
        scale = rng.uniform(1e-2, 1e2)
        d_in = rng.randrange(1, 10 ** 4)
        exact = Fraction(d_in) ** 2 / (2 * Fraction(scale) ** 2)
        value = make_gaussian(scale).map(d_in)
        assert Fraction(value) >= exact > Fraction(math.nextafter(value, 0.0))


def exact_pmf(z: int, sigma: float) -> float:
    weights = {y: math.exp(-y * y / (2 * sigma * sigma)) for y in range(-int(40 * sigma) - 40,
                                                                          int(40 * sigma) + 41)}
    return weights[z] / math.fsum(weights.values())


@pytest.mark.slow  # over 2 s: make test-slow
@pytest.mark.parametrize("sigma, arg", [(0.6, 0), (1.0, 3), (3.7, -10 ** 9)])
def test_sampler_draws_the_exact_pmf(sigma, arg):
    """Chi-square goodness of fit of 20 000 seeded draws, bins ``-K..K`` and the tails, at
    false-alarm rate ALPHA."""
    m = make_gaussian(sigma)
    rng = random.Random(int(sigma * 100) + 3)
    n = 20_000
    draws = [m(arg, rng) - arg for _ in range(n)]
    k = max(2, int(2.5 * sigma))
    observed = [sum(1 for z in draws if z == v) for v in range(-k, k + 1)]
    observed.append(n - sum(observed))
    expected = [n * exact_pmf(v, sigma) for v in range(-k, k + 1)]
    expected.append(n - sum(expected))
    statistic, p_value = stats.chisquare(observed, expected)
    assert p_value > ALPHA, (statistic, p_value)


SCALES = [1e-3, 0.1, 0.3, 0.5, 1.0, 2.0, 3.0, 7.3, 1e3]
DISTANCES = [0, 1, 2, 3, 7, 1000]


def test_map_agrees_with_opendp():
    """OpenDP's map on ``atom_domain(T=int)`` is also ``(d_in / scale)^2 / 2`` rounded up: the two
    are equal on the grid, and never below the exact value."""
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    for scale in [*SCALES, 0.0]:
        theirs = dp.m.make_gaussian(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale)
        ours = make_gaussian(scale)
        for d_in in DISTANCES:
            assert ours.map(d_in) == theirs.map(d_in), (scale, d_in)
            if scale > 0:
                assert Fraction(ours.map(d_in)) >= Fraction(d_in) ** 2 / (2 * Fraction(scale) ** 2)
