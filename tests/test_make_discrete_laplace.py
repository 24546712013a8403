"""mechanisms.make_discrete_laplace: refusals, values, upward rounding of the map, the exact
distribution of the sampler, and agreement with OpenDP's integer Laplace."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from scipy import stats

from mechanisms.domains import AtomDomain
from mechanisms.errors import DomainError, ScaleError
from mechanisms.arith import div_up, float_up
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import AbsoluteDistance

ALPHA = 1e-6
"""False-alarm rate of each statistical test (the draws are seeded, so a run is reproducible)."""


# --- construction -----------------------------------------------------------------------------

@pytest.mark.parametrize("scale", [-1.0, -0.0 - 1e-300, math.nan, math.inf, -math.inf])
def test_bad_scale_is_refused(scale):
    with pytest.raises(ScaleError) as info:
        make_discrete_laplace(scale)
    assert info.value.scale is scale


@pytest.mark.parametrize("scale", [1, True, "1.0", Fraction(1)])
def test_scale_must_be_a_float(scale):
    with pytest.raises(ScaleError) as info:
        make_discrete_laplace(scale)
    assert info.value.scale is scale


def test_domains_metric_measure():
    m = make_discrete_laplace(1.0)
    assert m.input_domain == AtomDomain(int) and m.output_domain == AtomDomain(int)
    assert m.input_metric == AbsoluteDistance() and m.output_measure == MaxDivergence()


@pytest.mark.parametrize("arg", [1.0, True, "1", None, 2 ** 0.5])
def test_non_int_input_is_refused(arg):
    with pytest.raises(DomainError):
        make_discrete_laplace(1.0)(arg, random.Random(0))


# --- values -----------------------------------------------------------------------------------

@pytest.mark.parametrize("arg", [0, -7, 10 ** 30, -(10 ** 40)])
def test_output_is_an_int_near_the_input(arg):
    rng = random.Random(1)
    outputs = [make_discrete_laplace(2.0)(arg, rng) for _ in range(200)]
    assert all(type(y) is int for y in outputs)
    # |Y| > 60 has probability 2 e^{-30} / (1 + e^{-1/2}) < 1e-12 per draw
    assert all(abs(y - arg) <= 60 for y in outputs)
    assert len(set(outputs)) > 5


def test_zero_scale_adds_no_noise_as_opendp_does():
    m = make_discrete_laplace(0.0)
    assert [m(x, random.Random(0)) for x in (-3, 0, 10 ** 20)] == [-3, 0, 10 ** 20]
    assert m.map(0) == 0 and m.map(1) == math.inf and m.map(5e-324) == math.inf


def test_negative_zero_scale_is_zero():
    m = make_discrete_laplace(-0.0)
    assert m(4, random.Random(0)) == 4 and m.map(0) == 0 and m.map(2) == math.inf


def test_same_seed_same_output():
    m = make_discrete_laplace(3.5)
    assert [m(0, random.Random(7)) for _ in range(3)] == [m(0, random.Random(7))] * 3


# --- the map: d_in / scale, rounded up ---------------------------------------------------------

@pytest.mark.parametrize("q", [Fraction(1, 3), Fraction(2, 3), Fraction(10, 7), Fraction(1, 10),
                               Fraction(5, 1), Fraction(1, 2 ** 1074), Fraction(3, 2 ** 1076),
                               Fraction(10 ** 400, 3)])
def test_float_up_is_the_least_float_not_below(q):
    up = float_up(q)
    assert Fraction(up) >= q if math.isfinite(up) else q > Fraction(2 ** 1023)
    below = math.nextafter(up, -math.inf)
    assert Fraction(below) < q


def test_map_is_never_below_d_in_over_scale():
    rng = random.Random(3)
    for _ in range(500):
        scale = rng.uniform(1e-3, 1e3)
        d_in = rng.randrange(1, 10 ** 6)
        value = make_discrete_laplace(scale).map(d_in)
        assert Fraction(value) >= Fraction(d_in) / Fraction(scale)
        assert Fraction(math.nextafter(value, 0.0)) < Fraction(d_in) / Fraction(scale)


def test_div_up_overflows_to_inf_and_zero_is_zero():
    assert div_up(10 ** 300, 1e-300) == math.inf
    assert div_up(0, 0.0) == 0.0 and div_up(0, 2.0) == 0.0


def test_map_examples():
    assert make_discrete_laplace(1.0).map(0) == 0
    assert make_discrete_laplace(2.0).map(3) == 1.5
    assert make_discrete_laplace(3.0).map(1) == math.nextafter(1 / 3, 1.0)  # 1/3 rounded up


# --- distribution -------------------------------------------------------------------------------

def exact_pmf(z: int, scale: float) -> float:
    """``exp(-|z|/s) (1 - e^{-1/s}) / (1 + e^{-1/s})``."""
    r = math.exp(-1 / scale)
    return (1 - r) / (1 + r) * r ** abs(z)


@pytest.mark.parametrize("scale, arg", [(0.7, 0), (2.5, -4), (10.0, 10 ** 12)])
def test_sampler_draws_the_exact_pmf(scale, arg):
    """Chi-square goodness of fit of 20 000 seeded draws against the exact pmf, bins
    ``z = -K..K`` and the two tails together, at false-alarm rate ALPHA."""
    m = make_discrete_laplace(scale)
    rng = random.Random(int(scale * 1000) + 11)
    n = 20_000
    draws = [m(arg, rng) - arg for _ in range(n)]
    k = max(2, int(4 * scale))
    observed = [sum(1 for z in draws if z == v) for v in range(-k, k + 1)]
    observed.append(n - sum(observed))
    expected = [n * exact_pmf(v, scale) for v in range(-k, k + 1)]
    expected.append(n - sum(expected))
    statistic, p_value = stats.chisquare(observed, expected)
    assert p_value > ALPHA, (statistic, p_value)


def test_sampler_mean_and_symmetry():
    """The noise is symmetric: the number of positive draws among the non-zero ones is
    Binomial(m, 1/2); two-sided test at ALPHA."""
    m = make_discrete_laplace(4.0)
    rng = random.Random(5)
    draws = [m(0, rng) for _ in range(20_000)]
    nonzero = [z for z in draws if z != 0]
    positive = sum(1 for z in nonzero if z > 0)
    assert stats.binomtest(positive, len(nonzero), 0.5).pvalue > ALPHA


# --- agreement with OpenDP ----------------------------------------------------------------------

SCALES = [1e-3, 0.1, 0.3, 0.5, 1.0, 2.0, 3.0, 7.3, 1e3, 123456.789]
DISTANCES = [0, 1, 2, 3, 7, 10 ** 6]


def test_map_agrees_with_opendp():
    """OpenDP's ``make_laplace`` on ``atom_domain(T=int)`` has map ``d_in / scale`` rounded up,
    and so do we: the two maps are equal on the whole grid."""
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    for scale in [*SCALES, 0.0]:
        theirs = dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale)
        ours = make_discrete_laplace(scale)
        for d_in in DISTANCES:
            assert ours.map(d_in) == theirs.map(d_in), (scale, d_in)


def test_opendp_refuses_what_we_refuse():
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    for scale in [-1.0, math.nan, math.inf]:
        with pytest.raises(Exception):
            dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale)
        with pytest.raises(ScaleError):
            make_discrete_laplace(scale)


def test_noise_subtracted_has_the_same_law_and_is_proved():
    """Class 7: ``x - Y`` has the law of ``x + Y`` for a symmetric ``Y``; the kernel's noise rule
    reads the law, so this correct variant is proved, not refuted for its shape."""
    from dataclasses import dataclass, replace

    from mechanisms.make_discrete_laplace import (IntegerNoise, build_discrete_laplace,
                                                  make_discrete_laplace)
    from mechanisms.samplers import sample_discrete_laplace
    from obligations.base import Entry
    from tests.helpers import statements_by_claim

    @dataclass(frozen=True)
    class Subtracted(IntegerNoise):
        @staticmethod
        def shift(arg, noise):
            return arg - noise

    variant = make_discrete_laplace.variant(
        "make_dl_subtracted", lambda scale: replace(build_discrete_laplace(scale),
                                                    function=Subtracted(scale, sample_discrete_laplace)))
    certified = statements_by_claim(Entry("make_dl_subtracted", variant))
    assert certified and all(c.proved for c in certified.values()), certified
