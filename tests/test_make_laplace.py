"""mechanisms.make_laplace (floats through the grid 2^k): refusals, values on edge inputs, the
grid rounding, the map and its relaxation, the distribution of the noise, agreement with OpenDP."""

from __future__ import annotations

import math
import random
import sys
from fractions import Fraction

import pytest
from scipy import stats

from mechanisms.domains import AtomDomain
from mechanisms.errors import DomainError, GranularityError, ScaleError
from mechanisms.make_laplace import (GRID_UNIT, float_units, grid_index, grid_to_float,
                                     make_laplace)
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import AbsoluteDistance

ALPHA = 1e-6
"""False-alarm rate of each statistical test (the draws are seeded, so a run is reproducible)."""
MAX = sys.float_info.max


@pytest.mark.parametrize("scale", [-1.0, math.nan, math.inf, 1, True])
def test_bad_scale_is_refused(scale):
    with pytest.raises(ScaleError) as info:
        make_laplace(scale)
    assert info.value.scale is scale


@pytest.mark.parametrize("k", [-1075, -2000, 1.0, True, None, "0"])
def test_bad_k_is_refused(k):
    with pytest.raises(GranularityError) as info:
        make_laplace(1.0, k)
    assert info.value.k is k


def test_domains_metric_measure():
    m = make_laplace(1.0)
    assert m.input_domain == AtomDomain(float) and m.output_domain == AtomDomain(float)
    assert m.input_metric == AbsoluteDistance() and m.output_measure == MaxDivergence()


@pytest.mark.parametrize("arg", [math.nan, 1, True, "1.0"])
def test_nan_and_non_floats_are_refused(arg):
    with pytest.raises(DomainError):
        make_laplace(1.0)(arg, random.Random(0))


@pytest.mark.parametrize("k", [-1074, -52, -10, 0, 3, 1000, 1100])
@pytest.mark.parametrize("arg", [0.0, -0.0, 5e-324, 0.3, -2.5, 1e300, MAX, -MAX, math.inf,
                                 -math.inf])
def test_output_is_a_non_nan_float(arg, k):
    y = make_laplace(1.0, k)(arg, random.Random(3))
    assert type(y) is float and not math.isnan(y)


def test_infinite_inputs_are_clamped_to_max_float():
    assert float_units(math.inf) == float_units(MAX) and float_units(-math.inf) == float_units(-MAX)
    m = make_laplace(0.0)
    assert m(math.inf, random.Random(0)) == MAX and m(-math.inf, random.Random(0)) == -MAX


def test_zero_scale_rounds_to_the_grid_only():
    assert make_laplace(0.0)(0.1, random.Random(0)) == 0.1  # k = -1074: the grid holds every float
    assert make_laplace(0.0, -2)(0.3, random.Random(0)) == 0.25
    assert make_laplace(0.0, -2)(0.375, random.Random(0)) == 0.5  # a tie goes up
    assert make_laplace(0.0, -2)(-0.375, random.Random(0)) == -0.25
    m = make_laplace(0.0, -2)
    assert m.map(0.0) == 0 and m.map(1e-300) == math.inf


def test_grid_index_is_the_nearest_grid_point_ties_up():
    rng = random.Random(8)
    for _ in range(2000):
        multiple = 2 ** rng.randrange(0, 60)
        units = rng.randrange(-(2 ** 70), 2 ** 70)
        index = grid_index(units, multiple)
        assert abs(Fraction(units, multiple) - index) <= Fraction(1, 2)
        assert Fraction(units, multiple) - index != Fraction(1, 2)  # ties go up


def test_grid_to_float_rounds_to_nearest_and_overflows_to_inf():
    assert grid_to_float(3, 2 ** 1074) == 3.0
    assert grid_to_float(1, 1) == 5e-324
    assert grid_to_float(2 ** 1024, 2 ** 1074) == math.inf
    assert grid_to_float(-(2 ** 1024), 2 ** 1074) == -math.inf
    assert grid_to_float(2 ** 53 + 1, 2 ** 1074) == 2.0 ** 53  # a tie goes to even


def test_map_is_never_below_the_exact_bound():
    rng = random.Random(9)
    for _ in range(300):
        scale, k, d_in = rng.uniform(1e-3, 1e3), rng.randrange(-1074, 60), rng.uniform(0, 1e6)
        exact = (Fraction(d_in) + Fraction(2) ** k - GRID_UNIT) / Fraction(scale)
        value = make_laplace(scale, k).map(d_in)
        assert Fraction(value) >= exact > Fraction(math.nextafter(value, 0.0))


def test_map_of_infinite_distance_is_infinite():
    assert make_laplace(1.0).map(math.inf) == math.inf
    assert make_laplace(1.0, 5).map(math.inf) == math.inf


def test_worst_rounding_pair_is_covered_by_the_relaxation():
    """``x = 2^(k-1)`` rounds up, ``x' = 2^(k-1) - 2^-1074`` down: one grid step apart at distance
    ``2^-1074``; the map pays exactly ``2^k / scale`` there."""
    k, scale = -3, 0.5
    m = make_laplace(scale, k)
    x = 2.0 ** (k - 1)
    x2 = math.nextafter(x, 0.0)
    multiple = m.function.multiple
    i, i2 = grid_index(float_units(x), multiple), grid_index(float_units(x2), multiple)
    assert i - i2 == 1
    assert Fraction(m.map(5e-324)) >= Fraction(2) ** k / Fraction(scale)


@pytest.mark.parametrize("scale, k, arg", [(1.0, -3, 0.3), (0.5, -4, -2.0), (3.0, 0, 10.0)])
def test_noise_on_the_grid_has_the_exact_pmf(scale, k, arg):
    """Chi-square of 20 000 seeded draws of the grid index against the discrete Laplace pmf of
    scale ``scale / 2^k``, at false-alarm rate ALPHA."""
    m = make_laplace(scale, k)
    rng = random.Random(k + 100)
    step = 2.0 ** k
    center = grid_index(float_units(arg), m.function.multiple)
    n = 20_000
    draws = [round(m(arg, rng) / step) - center for _ in range(n)]
    r = math.exp(-step / scale)
    pmf = lambda z: (1 - r) / (1 + r) * r ** abs(z)  # noqa: E731
    width = max(2, int(3 * scale / step))
    observed = [sum(1 for z in draws if z == v) for v in range(-width, width + 1)]
    observed.append(n - sum(observed))
    expected = [n * pmf(v) for v in range(-width, width + 1)]
    expected.append(n - sum(expected))
    assert stats.chisquare(observed, expected).pvalue > ALPHA


# --- agreement with OpenDP ----------------------------------------------------------------------

GRID = [(scale, k) for scale in (0.1, 1.0, 3.0, 1e3) for k in (None, -1074, -1000, -52, -10, 0, 3)]
DISTANCES = [1e-300, 0.1, 1.0, 2.5, 1e6]


def test_map_agrees_with_opendp_for_positive_distances():
    """Same relaxation ``2^k - 2^-1074`` (OpenDP's get_discretization_consts); OpenDP rounds the
    sum and the quotient up, we round the exact value once, so ours is never larger; on this
    grid the two are equal."""
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    for scale, k in GRID:
        theirs = dp.m.make_laplace(dp.atom_domain(T=float, nan=False),
                                   dp.absolute_distance(T=float), scale, k=k)
        ours = make_laplace(scale) if k is None else make_laplace(scale, k)
        for d_in in DISTANCES:
            assert ours.map(d_in) <= theirs.map(d_in), (scale, k, d_in)
            assert ours.map(d_in) == theirs.map(d_in), (scale, k, d_in)


def test_map_at_zero_is_below_opendp_when_k_is_coarse():
    """At ``d_in = 0`` OpenDP still adds the relaxation; ours is 0, because distance 0 means the
    same input (or 0.0 and -0.0, which round to the same grid point)."""
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    theirs = dp.m.make_laplace(dp.atom_domain(T=float, nan=False),
                               dp.absolute_distance(T=float), 1.0, k=-10)
    assert make_laplace(1.0, -10).map(0.0) == 0 < theirs.map(0.0) == 2.0 ** -10
    assert float_units(0.0) == float_units(-0.0)


def test_opendp_clamps_infinite_inputs_as_we_do():
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    theirs = dp.m.make_laplace(dp.atom_domain(T=float, nan=False),
                               dp.absolute_distance(T=float), 0.0)
    ours = make_laplace(0.0)
    for x in (math.inf, -math.inf, 0.1, -3.5):
        assert theirs(x) == ours(x, random.Random(0))


@pytest.mark.parametrize("other", [0.0, -MAX, MAX, 1e-300, -math.inf])
def test_an_infinite_input_is_infinitely_far_from_any_other(other):
    """The proof's step for +-inf inputs: a pair at finite distance with an infinite member is one
    value twice, so clamping +-inf to +-max float cannot break privacy."""
    metric = make_laplace(1.0).input_metric
    assert metric.distance(math.inf, other) == math.inf
    assert metric.distance(math.inf, math.inf) == 0
    assert make_laplace(1.0).map(metric.distance(math.inf, other)) == math.inf
