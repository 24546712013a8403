"""mechanisms.make_bounded_mean: value, sized domain, stability map and the constructor's refusals."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from mechanisms.errors import (BoundsOrderError, BoundTypeError, DomainError, NaNBoundError,
                               OverflowRiskError, SizeError)
from mechanisms.make_bounded_mean import make_bounded_mean
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance


def test_mean_value():
    mean = make_bounded_mean(0.0, 10.0, 3)
    assert mean([1.0, 2.0, 6.0]) == 3.0
    assert mean([10.0, 10.0, 10.0]) == 10.0
    assert mean([0.0, 0.0, 0.0]) == 0.0
    assert make_bounded_mean(-1.0, 1.0, 4)([-1.0, 1.0, 0.5, 0.5]) == 0.25


def test_mean_domains_and_metrics():
    mean = make_bounded_mean(0.0, 10.0, 3)
    assert mean.input_domain == SizedDomain(VectorDomain(AtomDomain(float, bounds=(0.0, 10.0))), 3)
    assert mean.output_domain == AtomDomain(float)
    assert mean.input_metric == SymmetricDistance()
    assert mean.output_metric == AbsoluteDistance()


@pytest.mark.parametrize("data", [
    [1.0, 2.0],                       # too short
    [1.0, 2.0, 3.0, 4.0],             # too long
    [1.0, 2.0, 11.0],                 # out of bounds
    [1.0, 2.0, math.nan],
    [1.0, 2.0, 3],                    # an int
])
def test_mean_rejects_input_outside_domain(data):
    with pytest.raises(DomainError):
        make_bounded_mean(0.0, 10.0, 3)(data)


@pytest.mark.parametrize("lower, upper, n", [(0.0, 10.0, 3), (-5.0, 5.0, 1), (2.0, 2.5, 7)])
def test_mean_map_is_the_seed_term_plus_the_rounding_term_rounded_up(lower, upper, n):
    mean = make_bounded_mean(lower, upper, n)
    magnitude = max(abs(Fraction(lower)), abs(Fraction(upper)))
    error = Fraction(n * n, 2 ** 52) * magnitude
    relaxation = 2 * error / n + 2 * Fraction(1, 2 ** 53) * (magnitude + error / n) \
        + Fraction(1, 2 ** 1074)
    for d_in in (0, 1, 2, 5):
        exact = Fraction(d_in) * (Fraction(upper) - Fraction(lower)) / (2 * n) + relaxation
        value = Fraction(mean.map(d_in))
        assert value >= exact  # never below the exact map
        assert Fraction(math.nextafter(mean.map(d_in), 0.0)) < exact  # the least such float
    assert mean.check(2, mean.map(2)) is True
    assert mean.check(2, (upper - lower) / n) is False  # the seed's real map falls short


def test_mean_map_zero_width_is_the_rounding_term():
    map_ = make_bounded_mean(1.0, 1.0, 2).map(4)
    assert 0.0 < map_ < 1e-14


def test_seed_pair_is_within_the_map():
    """The seed's real map is exceeded by these float means (1/3 < 0.33333333333333337);
    the catalogue's map is not."""
    mean = make_bounded_mean(0.0, 1.0, 3)
    v, w = [0.0, 1.0, 0.5], [0.0, 0.0, 0.5]
    assert Fraction(abs(mean(v) - mean(w))) > Fraction(1, 3)
    assert abs(mean(v) - mean(w)) <= mean.map(2)


@pytest.mark.parametrize("n", [0, -1])
def test_size_error_for_non_positive_n(n):
    with pytest.raises(SizeError) as info:
        make_bounded_mean(0.0, 1.0, n)
    assert info.value.n == n


@pytest.mark.parametrize("n", [2.0, True, "3", None])
def test_size_error_for_non_int_n(n):
    with pytest.raises(SizeError) as info:
        make_bounded_mean(0.0, 1.0, n)
    assert info.value.n is n


@pytest.mark.parametrize("lower, upper, bound", [(0.0, 1e308, 1e308), (-1e308, 0.0, 1e308),
                                                 (-1e308, 1e308, 1e308)])
def test_overflow_risk_error(lower, upper, bound):
    with pytest.raises(OverflowRiskError) as info:
        make_bounded_mean(lower, upper, 10)
    assert info.value.bound == bound and info.value.n == 10


def test_no_overflow_error_when_sum_fits():
    make_bounded_mean(0.0, 1e307, 10)


def test_bounds_order_error():
    with pytest.raises(BoundsOrderError) as info:
        make_bounded_mean(5.0, 1.0, 3)
    assert (info.value.lower, info.value.upper) == (5.0, 1.0)


def test_nan_bound_error():
    with pytest.raises(NaNBoundError):
        make_bounded_mean(math.nan, 1.0, 3)


@pytest.mark.parametrize("lower, upper", [(0, 10), (0.0, 10), (0, 10.0), (False, True)])
def test_bound_type_error(lower, upper):
    with pytest.raises(BoundTypeError):
        make_bounded_mean(lower, upper, 3)


# --- empirical stability ----------------------------------------------------------------------

@st.composite
def neighbouring_vectors(draw):
    lower = draw(st.floats(-100.0, 100.0))
    upper = lower + draw(st.floats(1.0, 100.0))
    n = draw(st.integers(1, 6))
    element = st.one_of(st.floats(lower, upper), st.sampled_from([lower, upper]))
    v = draw(st.lists(element, min_size=n, max_size=n))
    # w: v with some entries replaced, then shuffled
    w = [draw(element) if draw(st.booleans()) else x for x in v]
    w = draw(st.permutations(w))
    return lower, upper, n, v, w


@settings(max_examples=200, derandomize=True)
@given(case=neighbouring_vectors())
def test_mean_moves_at_most_map(case):
    lower, upper, n, v, w = case
    mean = make_bounded_mean(lower, upper, n)
    d_in = SymmetricDistance().distance(v, w)
    d_out = AbsoluteDistance().distance(mean(v), mean(w))
    # The map is proved over the reals; the float sum and division round (even a reordering of
    # the same values can move the mean when d_in = 0), so allow 1e-9 * (U - L) for rounding.
    assert d_out <= Fraction(mean.map(d_in)) + Fraction(1e-9) * (Fraction(upper) - Fraction(lower))
