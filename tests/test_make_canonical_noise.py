"""mechanisms.make_canonical_noise: refusals, the exact law of the sampler against Awan and
Vadhan's recursion, the rounding, seeded sampling, the map, and the comparison with opendp."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from mechanisms.errors import CanonicalPrivacyError, DomainError, SensitivityError
from mechanisms.make_canonical_noise import exp_ratio, make_canonical_noise
from mechanisms.measures import FixedSmoothedMaxDivergence
from obligations.make_canonical_noise import (interval_law, law_violation, output_violation,
                                              stated_cdf, stated_tradeoff)


# --- construction -----------------------------------------------------------------------------

@pytest.mark.parametrize("d_in", [0.0, -1.0, math.inf, math.nan, 1, True, "1.0"])
def test_bad_sensitivity_is_refused(d_in):
    with pytest.raises(SensitivityError) as info:
        make_canonical_noise(d_in, (1.0, 0.1))
    assert info.value.d_in is d_in


@pytest.mark.parametrize("d_out", [(0.0, 0.1), (-1.0, 0.0), (math.inf, 0.0), (math.nan, 0.0),
                                   (1.0, 1.0), (1.0, -0.1), (1.0, math.nan), (2.0 ** -8, 0.0),
                                   (513.0, 0.0), (1, 0.0), (1.0,), [1.0, 0.0], (1.0, 0)])
def test_bad_guarantee_is_refused(d_out):
    with pytest.raises(CanonicalPrivacyError) as info:
        make_canonical_noise(1.0, d_out)
    assert info.value.d_out is d_out


def test_domains_and_map():
    m = make_canonical_noise(2.0, (1.0, 1e-6))
    assert isinstance(m.output_measure, FixedSmoothedMaxDivergence)
    assert m.map(0.0) == m.map(2.0) == m.map(1.5) == (1.0, 1e-6)
    assert m.map(2.0000001) == (1.0, 1)                   # above the sensitivity: delta = 1
    with pytest.raises(DomainError):
        m(float("nan"), random.Random(0))


@pytest.mark.parametrize("epsilon", [2.0 ** -7, 0.1, 1.0, 7.5, 512.0])
def test_ratio_is_a_lower_bound_of_exp_eps(epsilon):
    r = exp_ratio(epsilon)
    assert 1 < r <= Fraction(math.exp(epsilon)) * (1 + Fraction(1, 2 ** 40))
    assert math.log(r) <= epsilon + 1e-12 and r.denominator <= 2 ** 64


# --- the law -----------------------------------------------------------------------------------

def test_tradeoff_and_fixed_point():
    r, delta = Fraction(3), Fraction(1, 10)
    c = (1 - delta) / (1 + r)
    assert stated_tradeoff(c, r, delta) == c
    assert stated_tradeoff(0, r, delta) == 1 - delta and stated_tradeoff(1 - delta, r, delta) == 0
    assert stated_cdf(Fraction(-1, 2), r, delta) == c and stated_cdf(Fraction(1, 2), r, delta) == 1 - c
    for x in (Fraction(1, 3), Fraction(7, 4), Fraction(5, 2)):            # symmetry of F
        assert stated_cdf(x, r, delta) == 1 - stated_cdf(-x, r, delta)


@pytest.mark.parametrize("d_out", [(1.0, 0.0), (1.0, 1e-6), (0.5, 0.1), (2.0, 0.3), (0.01, 0.0)])
def test_interval_law_is_awan_vadhan(d_out):
    assert law_violation(make_canonical_noise(1.0, d_out)) is None


def test_pure_dp_is_tulap_geometric():
    """delta = 0: Pr[|K| = j] / Pr[|K| = j - 1] = 1/r for j >= 2 (discrete Laplace of the
    Tulap)."""
    m = make_canonical_noise(1.0, (1.0, 0.0))
    law, _ = interval_law(m)
    r = exp_ratio(1.0)
    p = {k: w for (k, _, _), w in law.items()}
    assert p[2] / p[1] == p[3] / p[2] == 1 / r and p[-2] == p[2]


def test_bounded_support_with_delta():
    m = make_canonical_noise(1.0, (1.0, 0.3))
    law, truncated = interval_law(m)
    assert truncated == 0 and max(abs(k) for k, _, _ in law) <= 2
    assert sum(law.values()) == 1


def test_rounding_is_nearest():
    assert output_violation(make_canonical_noise(256.0, (1.0, 0.3)), 2.0 ** 60) is None


def test_seeded_sampling_matches_the_cdf():
    """Seeded (random.Random(11)), 800 draws at (1, 1e-6): the frequency of |N| <= 1/2 is within
    5 standard deviations of 1 - 2c (false-alarm probability below 1e-6, normal approximation)."""
    m = make_canonical_noise(1.0, (1.0, 1e-6))
    rng = random.Random(11)
    n = 800
    hits = sum(abs(m(0.0, rng)) <= 0.5 for _ in range(n))
    r, delta = exp_ratio(1.0), Fraction(1e-6)
    p = float(1 - 2 * (1 - delta) / (1 + r))
    assert abs(hits - n * p) <= 5 * math.sqrt(n * p * (1 - p))


def test_extreme_inputs_stay_finite():
    m = make_canonical_noise(1e300, (1.0, 0.1))
    rng = random.Random(2)
    outputs = [m(x, rng) for x in (math.inf, -math.inf, 1.7976931348623157e308, 0.0)]
    assert all(math.isfinite(y) for y in outputs)


# --- opendp 0.16 --------------------------------------------------------------------------------

def test_maps_equal_opendp_within_the_sensitivity():
    """Both maps return d_out for 0 <= d <= d_in; above, opendp raises, ours returns (eps, 1).
    opendp samples agree with our F in the central interval (5 sd, false alarm below 1e-6)."""
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    for d_in, d_out in [(1.0, (1.0, 1e-6)), (2.0, (0.5, 0.1)), (0.25, (3.0, 0.0))]:
        theirs = dp.m.make_canonical_noise(dp.atom_domain(T=float, nan=False),
                                           dp.absolute_distance(T=float), d_in, d_out)
        ours = make_canonical_noise(d_in, d_out)
        for d in (0.0, d_in / 2, d_in):
            assert tuple(theirs.map(d)) == ours.map(d) == d_out
        with pytest.raises(Exception):
            theirs.map(2 * d_in)
        assert ours.map(2 * d_in) == (d_out[0], 1)
    theirs = dp.m.make_canonical_noise(dp.atom_domain(T=float, nan=False),
                                       dp.absolute_distance(T=float), 1.0, (1.0, 1e-6))
    n = 800
    hits = sum(abs(theirs(0.0)) <= 0.5 for _ in range(n))
    p = float(1 - 2 * (1 - Fraction(1e-6)) / (1 + exp_ratio(1.0)))
    assert abs(hits - n * p) <= 5 * math.sqrt(n * p * (1 - p))


def test_laws_with_paths_cut_off_are_told_apart():
    """Only a law computed whole gives a definite violation (the project's rule: a cut-off path
    enumeration is never a confirmed refutation): infinite support (delta = 0) is cut off at
    DEPTH draws, bounded support (delta > 0 here) is whole."""
    from obligations.make_canonical_noise import law_check, output_check
    wrong, cut = law_check(make_canonical_noise(1.0, (1.0, 0.0)))
    assert wrong is None and cut > 0
    wrong, cut = law_check(make_canonical_noise(1.0, (0.5, 0.1)))
    assert wrong is None and cut == 0
    assert output_check(make_canonical_noise(256.0, (1.0, 0.3)), 2.0 ** 60) == (None, False)
