"""mechanisms.make_bounded_int_sum: exact int sums of any length, the map, the refusals, and
agreement of the map with opendp's ``make_sum`` on an unsized int vector domain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, BoundTypeError, DomainError, IntBoundTypeError
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance

GRID = [(-5, 3), (0, 10), (-7, -2), (4, 4), (0, 0), (-3, 9), (-10, 10), (-100, 1)]
"""Bounds: mixed signs, non-negative, all negative, zero-width, both zero."""


def test_sum_values_and_type():
    t = make_bounded_int_sum(-5, 3)
    assert t([1, -5, 3, 0]) == -1
    assert t([]) == 0 and type(t([])) is int
    assert type(t([3, 3])) is int
    assert t([-5] * 1000) == -5000


def test_huge_ints_do_not_overflow():
    big = 2 ** 100
    t = make_bounded_int_sum(-big, big)
    assert t([big] * 10) == 10 * big
    assert t.map(3) == 3 * big


def test_domains_and_metrics():
    t = make_bounded_int_sum(-2, 7)
    assert t.input_domain == VectorDomain(AtomDomain(int, bounds=(-2, 7)))
    assert t.output_domain == AtomDomain(int)
    assert t.input_metric == SymmetricDistance()
    assert t.output_metric == AbsoluteDistance()


@pytest.mark.parametrize("data", [[1, 8], [-3], [1, 2.0], [1, True], [float("nan")], 3, [1, None]])
def test_rejects_input_outside_domain(data):
    t = make_bounded_int_sum(-2, 7)
    with pytest.raises(DomainError) as info:
        t(data)
    assert info.value.value is data


@pytest.mark.parametrize("lower, upper", GRID)
def test_map_is_d_in_times_largest_magnitude(lower, upper):
    t = make_bounded_int_sum(lower, upper)
    for d_in in range(11):
        assert t.map(d_in) == d_in * max(abs(lower), abs(upper))
        assert type(t.map(d_in)) is int


def test_bounds_order_error():
    with pytest.raises(BoundsOrderError) as info:
        make_bounded_int_sum(3, 2)
    assert (info.value.lower, info.value.upper) == (3, 2)


@pytest.mark.parametrize("lower, upper", [(0.0, 1.0), (0, 1.0), (False, True), (0, True),
                                          ("0", "1"), (None, 1), (float("nan"), 1)])
def test_int_bound_type_error(lower, upper):
    with pytest.raises(IntBoundTypeError) as info:
        make_bounded_int_sum(lower, upper)
    assert info.value.lower is lower and info.value.upper is upper
    assert isinstance(info.value, BoundTypeError) and isinstance(info.value, ValueError)
    assert "must both be int" in str(info.value)


# --- agreement with opendp ----------------------------------------------------------------------

@pytest.mark.parametrize("lower, upper", GRID)
def test_map_agrees_with_opendp(lower, upper):
    """opendp's make_sum on an unsized int vector domain (monotonic/ordered/split sum) has the
    same map, d_in * max(|L|, |U|), for every d_in in 0..10."""
    import opendp.prelude as dp
    dp.enable_features("contrib")
    theirs = dp.t.make_sum(dp.vector_domain(dp.atom_domain(bounds=(lower, upper))),
                           dp.symmetric_distance())
    ours = make_bounded_int_sum(lower, upper)
    assert [ours.map(d) for d in range(11)] == [theirs.map(d) for d in range(11)]
    data = [lower, upper, lower]
    assert ours(data) == theirs(data)


# --- properties ---------------------------------------------------------------------------------

@st.composite
def close_vectors(draw):
    lower = draw(st.integers(-20, 20))
    upper = lower + draw(st.integers(0, 20))
    row = st.integers(lower, upper)
    return lower, upper, draw(st.lists(row, max_size=8)), draw(st.lists(row, max_size=8))


@settings(max_examples=200, derandomize=True)
@given(case=close_vectors())
def test_stability_on_any_two_vectors(case):
    lower, upper, v, w = case
    t = make_bounded_int_sum(lower, upper)
    d_in = t.input_metric.distance(v, w)
    assert t.output_metric.distance(t(v), t(w)) <= t.map(d_in)
    assert type(t(v)) is int


def test_map_is_tight():
    """d_in insertions of the bound of largest magnitude reach the map exactly."""
    t = make_bounded_int_sum(-7, 3)
    for d in range(6):
        assert t.output_metric.distance(t([]), t([-7] * d)) == t.map(d)
