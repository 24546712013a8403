"""mechanisms.make_laplace_threshold: the release, its domains and measure, typed refusals, the
map against its formula (exact, mpmath), seeded release frequencies, chaining after
make_count_by, and the comparison with OpenDP 0.16's ``make_laplace_threshold`` on a grid.

Statistical test: seeded (``random.Random``), so deterministic; were the seed drawn at random,
each frequency check (a 6-sigma binomial band) would fail with probability below 2e-9 under a
correct sampler, below 1e-8 for the whole file."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import mpmath
import opendp.prelude as dp
import pytest

from mechanisms.domains import AtomDomain, MapDomain
from mechanisms.errors import CarrierError, ReleaseThresholdError, ThresholdScaleError
from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_count_by import make_count_by
from mechanisms.make_laplace_threshold import exp_lower, make_laplace_threshold
from mechanisms.measures import FixedSmoothedMaxDivergence
from mechanisms.metrics import L01InfDistance

dp.enable_features("contrib")


def stated_tail(s: int, scale: float) -> mpmath.mpf:
    """Pr[Z >= s] of the discrete Laplace, summed from the pmf (60 digits)."""
    with mpmath.workdps(60):
        q = mpmath.exp(-1 / mpmath.mpf(scale))
        return mpmath.nsum(lambda z: (1 - q) / (1 + q) * q ** abs(int(z)),
                           [s, mpmath.inf]) if s > -200 else mpmath.mpf(1)


def test_domains_and_measure():
    m = make_laplace_threshold(str, 2.0, 10)
    histograms = MapDomain(AtomDomain(str), AtomDomain(int))
    assert m.input_domain == histograms and m.output_domain == histograms
    assert m.input_metric == L01InfDistance()
    assert m.output_measure == FixedSmoothedMaxDivergence()


def test_release_keeps_large_counts_and_drops_small_ones():
    m = make_laplace_threshold(str, 1.0, 20)
    out = m({"big": 1000, "zero": 0, "mid": 500}, random.Random(3))
    assert set(out) == {"big", "mid"} and all(type(v) is int for v in out.values())
    assert abs(out["big"] - 1000) < 40 and m.output_domain.member(out)
    assert m({}, random.Random(0)) == {}


@pytest.mark.parametrize("scale", [0.0, -1.0, math.inf, math.nan, 1, True, "1.0"])
def test_refuses_bad_scales(scale):
    with pytest.raises(ThresholdScaleError) as info:
        make_laplace_threshold(str, scale, 10)
    assert info.value.scale is scale


@pytest.mark.parametrize("threshold", [-1, 1.5, True, "3", None])
def test_refuses_bad_thresholds(threshold):
    with pytest.raises(ReleaseThresholdError) as info:
        make_laplace_threshold(str, 1.0, threshold)
    assert info.value.threshold is threshold


def test_refuses_float_keys():
    with pytest.raises(CarrierError):
        make_laplace_threshold(float, 1.0, 3)


@pytest.mark.parametrize("scale, threshold, d_in", [
    (1.0, 10, (1, 1, 1)), (2.0, 10, (2, 3, 2)), (0.5, 4, (3, 3, 1)), (3.0, 30, (2, 10, 4)),
    (1.0, 200, (1, 1, 1)), (7.25, 50, (4, 100, 9)), (1.0, 5, (2, 0, 0)),
])
def test_map_is_the_formula_rounded_up(scale, threshold, d_in):
    """epsilon >= l1'/scale and delta >= min(1, l0 Pr[Z >= threshold - linf']) (the tail summed
    from the pmf here), each within a relative 1e-9 (or the few extra orders of exp_lower's
    Taylor bound far in the tail)."""
    m = make_laplace_threshold(str, scale, threshold)
    epsilon, delta = m.map(d_in)
    l0, l1, linf = d_in
    l1 = min(l1, l0 * linf)
    linf = min(linf, l1)
    assert epsilon >= l1 / scale and epsilon <= l1 / scale * (1 + 1e-15)
    exact = min(1, l0 * stated_tail(threshold - linf, scale))
    slack = 1e-9 if (threshold - linf) / scale < 100 else 0.05  # exp_lower's Taylor bound
    assert exact <= delta <= exact * (1 + slack) + 1e-300
    assert m.map((0, 0, 0)) == (0.0, 0.0)


def test_map_extremes():
    assert make_laplace_threshold(str, 1.0, 0).map((1, 1, 1))[1] == 1.0  # threshold - linf <= 0
    assert make_laplace_threshold(str, 1e-300, 10).map((1, 1, 1)) == (1e300, 5e-324)
    big = make_laplace_threshold(str, 1e300, 10 ** 9).map((1, 1, 1))
    assert big[0] == 1e-300 and big[1] == 0.5


def test_exp_lower_is_below_exp():
    with mpmath.workdps(80):
        for y in (Fraction(0), Fraction(1, 3), Fraction(1), Fraction(5), Fraction(20),
                  Fraction(100), Fraction(300)):
            value = exp_lower(y)
            assert isinstance(value, Fraction) and value >= 1
            assert mpmath.mpf(value.numerator) / value.denominator <= mpmath.exp(
                mpmath.mpf(y.numerator) / y.denominator)
        close = exp_lower(Fraction(20))
        assert mpmath.mpf(close.numerator) / close.denominator >= mpmath.exp(20) * (1 - 1e-12)


@pytest.mark.parametrize("count, scale, threshold", [(8, 2.0, 10), (10, 1.0, 10), (3, 1.5, 5)])
def test_release_frequency_matches_the_tail(count, scale, threshold):
    m = make_laplace_threshold(str, scale, threshold)
    rng, n = random.Random(11 + count), 3000
    released = sum("k" in m({"k": count}, rng) for _ in range(n))
    p = float(stated_tail(threshold - count, scale))
    assert abs(released - n * p) <= 6 * math.sqrt(n * p * (1 - p))


def test_chains_after_count_by():
    count_by, m = make_count_by(str), make_laplace_threshold(str, 2.0, 10)
    release = make_chain_mt(m, count_by)
    assert release.map(1) == m.map((1, 1, 1))
    out = release(["a"] * 40 + ["b"], random.Random(5))
    assert "a" in out and release.output_domain.member(out)
    assert (count_by >> m).map(3) == m.map((3, 3, 3))


GRID = [(scale, threshold, d_in) for scale in (0.5, 1.0, 2.0, 5.0) for threshold in (5, 10, 30)
        for d_in in ((1, 1, 1), (2, 2, 1), (3, 5, 2), (2, 4, 4))]


def test_compared_with_opendp():
    """Same epsilon on the whole grid. Delta: ours is larger where OpenDP's is above 1e-14:
    OpenDP's is Pr[Z > threshold - linf'] where the release is noisy >= threshold (opendp issue
    #2922), so ours is exp(1/scale) times theirs for l0 = 1, and the union bound l0 * tail is at
    or above their 1 - (1 - tail)^l0. Ours is smaller where the tail is below 2^-53: OpenDP
    computes 1 - (1 - tail)^l0 in floats, rounded so that it never drops below 1.1e-16."""
    domain = dp.map_domain(dp.atom_domain(T=str), dp.atom_domain(T=int))
    metric = dp.l01inf_distance(dp.absolute_distance(T=int))
    larger = smaller = 0
    for scale, threshold, d_in in GRID:
        theirs = dp.m.make_laplace_threshold(domain, metric, scale=scale, threshold=threshold)
        ours = make_laplace_threshold(str, scale, threshold)
        (their_eps, their_delta), (eps, delta) = theirs.map(d_in), ours.map(d_in)
        assert eps == their_eps
        if their_delta > 1e-14:
            assert delta >= their_delta
            larger += 1
            if d_in[0] == 1 and delta < 1 and their_delta > 1e-8:  # far from their float floor
                assert delta / their_delta == pytest.approx(math.exp(1 / scale), rel=1e-6)
        else:
            assert delta < their_delta and their_delta >= 2 ** -53
            smaller += 1
    assert (larger, smaller) == (44, 4)
    # OpenDP charges nothing when l1 = 0; a key with count 0 in one map only may still be
    # released (0 + Z >= threshold), which ours charges
    theirs = dp.m.make_laplace_threshold(domain, metric, scale=1.0, threshold=5)
    assert tuple(theirs.map((1, 0, 0))) == (0.0, 0.0)
    assert make_laplace_threshold(str, 1.0, 5).map((1, 0, 0))[1] > 0
