"""mechanisms.make_gaussian_threshold: the release, domains and measure, typed refusals, the map
against its formula, seeded release frequencies, chaining after make_count_by, and the comparison
with OpenDP 0.16's ``make_gaussian_threshold`` (its input metric is L02Inf: compared where
l1 = l2, one changed key).

Statistical test: seeded (``random.Random``), so deterministic; were the seed drawn at random,
each frequency check (a 6-sigma binomial band) would fail with probability below 2e-9 under a
correct sampler."""

from __future__ import annotations

import math
import random

import mpmath
import opendp.prelude as dp
import pytest

from mechanisms.domains import AtomDomain, MapDomain
from mechanisms.errors import CarrierError, ReleaseThresholdError, ThresholdScaleError
from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_count_by import make_count_by
from mechanisms.make_gaussian_threshold import make_gaussian_threshold
from mechanisms.measures import ApproximateZeroConcentratedDivergence
from mechanisms.metrics import L01InfDistance

dp.enable_features("contrib")


def discrete_gaussian_tail(s: int, scale: float) -> mpmath.mpf:
    """Pr[Z >= s] for the discrete Gaussian, summed from the pmf (40 digits)."""
    with mpmath.workdps(40):
        s2 = 2 * mpmath.mpf(scale) ** 2
        norm = mpmath.nsum(lambda y: mpmath.exp(-y ** 2 / s2), [-mpmath.inf, mpmath.inf])
        return mpmath.nsum(lambda y: mpmath.exp(-y ** 2 / s2), [s, mpmath.inf]) / norm


def test_domains_and_measure():
    m = make_gaussian_threshold(int, 2.0, 10)
    histograms = MapDomain(AtomDomain(int), AtomDomain(int))
    assert m.input_domain == histograms and m.output_domain == histograms
    assert m.input_metric == L01InfDistance()
    assert m.output_measure == ApproximateZeroConcentratedDivergence()


def test_release_keeps_large_counts_and_drops_small_ones():
    m = make_gaussian_threshold(str, 1.0, 20)
    out = m({"big": 1000, "zero": 0, "mid": 500}, random.Random(3))
    assert set(out) == {"big", "mid"} and all(type(v) is int for v in out.values())
    assert abs(out["big"] - 1000) < 10 and m.output_domain.member(out)


@pytest.mark.parametrize("scale", [0.0, -2.0, math.inf, math.nan, 2])
def test_refuses_bad_scales(scale):
    with pytest.raises(ThresholdScaleError):
        make_gaussian_threshold(str, scale, 10)


@pytest.mark.parametrize("threshold", [-3, 2.0, False])
def test_refuses_bad_thresholds(threshold):
    with pytest.raises(ReleaseThresholdError):
        make_gaussian_threshold(str, 1.0, threshold)


def test_refuses_float_keys():
    with pytest.raises(CarrierError):
        make_gaussian_threshold(float, 1.0, 3)


@pytest.mark.parametrize("scale, threshold, d_in", [
    (1.0, 10, (1, 1, 1)), (2.0, 10, (2, 3, 2)), (0.5, 4, (3, 3, 1)), (3.0, 30, (2, 10, 4)),
    (7.25, 50, (4, 100, 9)), (1.0, 5, (2, 0, 0)),
])
def test_map_is_the_formula_rounded_up(scale, threshold, d_in):
    """rho >= l1' linf' / (2 scale^2); delta >= min(1, l0 exp(-(s-1)^2/(2 scale^2))/2), which is
    at or above l0 Pr[Z >= s] (the tail summed from the pmf here)."""
    m = make_gaussian_threshold(str, scale, threshold)
    rho, delta = m.map(d_in)
    l0, l1, linf = d_in
    l1 = min(l1, l0 * linf)
    linf = min(linf, l1)
    exact_rho = l1 * linf / (2 * scale * scale)
    assert exact_rho <= rho <= exact_rho * (1 + 1e-15)
    s = threshold - linf
    with mpmath.workdps(50):
        bound = min(1, l0 * mpmath.exp(-mpmath.mpf(s - 1) ** 2 / (2 * mpmath.mpf(scale) ** 2)) / 2)
        assert bound <= delta <= bound * (1 + 1e-9) + 1e-300
    assert delta >= min(1, l0 * discrete_gaussian_tail(s, scale))
    assert m.map((0, 0, 0)) == (0.0, 0.0)


@pytest.mark.parametrize("count, scale, threshold", [(8, 2.0, 10), (10, 1.0, 10), (3, 1.5, 5)])
def test_release_frequency_matches_the_tail(count, scale, threshold):
    m = make_gaussian_threshold(str, scale, threshold)
    rng, n = random.Random(21 + count), 3000
    released = sum("k" in m({"k": count}, rng) for _ in range(n))
    p = float(discrete_gaussian_tail(threshold - count, scale))
    assert abs(released - n * p) <= 6 * math.sqrt(n * p * (1 - p))


def test_chains_after_count_by():
    count_by, m = make_count_by(str), make_gaussian_threshold(str, 2.0, 10)
    release = make_chain_mt(m, count_by)
    assert release.map(1) == m.map((1, 1, 1))
    out = release(["a"] * 40 + ["b"], random.Random(5))
    assert "a" in out and release.output_domain.member(out)


def test_compared_with_opendp():
    """OpenDP's input metric is L02Inf (l0, l2, linf); on one changed key by c (ours
    (1, c, c), theirs (1, c, c)) the rho agree exactly. Our delta is larger: OpenDP bounds
    Pr[Z > threshold - c] (release is >= threshold, opendp issue #2922) by erfc, ours bounds
    Pr[Z >= threshold - c] by exp(-(s - 1)^2 / (2 scale^2)) / 2; both are above the true tail
    Pr[Z > threshold - c] that theirs targets. Where the tail is below 2^-53, ours is the smaller:
    OpenDP computes 1 - (1 - tail)^l0 in floats, rounded so that it stays above 1.1e-16."""
    domain = dp.map_domain(dp.atom_domain(T=str), dp.atom_domain(T=int))
    metric = dp.l02inf_distance(dp.absolute_distance(T=int))
    larger = smaller = 0
    for scale in (0.5, 1.0, 2.0, 5.0):
        for threshold in (5, 10, 30):
            for c in (1, 2, 4):
                theirs = dp.m.make_gaussian_threshold(domain, metric, scale=scale,
                                                      threshold=threshold)
                ours = make_gaussian_threshold(str, scale, threshold)
                (their_rho, their_delta), (rho, delta) = theirs.map((1, c, c)), ours.map((1, c, c))
                assert rho == their_rho
                assert delta >= float(discrete_gaussian_tail(threshold - c, scale))
                if delta >= their_delta:
                    larger += 1
                else:  # only below their float floor
                    assert 2 ** -53 <= their_delta <= 1e-14
                    smaller += 1
    assert (larger, smaller) == (24, 12)
