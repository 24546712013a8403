"""mechanisms.make_sized_bounded_int_sum: exact int sums of a known size, OpenDP's map
``(d_in // 2) (U - L)``, the refusals, and agreement with opendp's ``make_sum`` on a sized domain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, DatasetSizeError, DomainError, IntBoundTypeError
from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance

GRID = [(-5, 3), (0, 10), (-7, -2), (4, 4), (0, 0), (-3, 9), (-10, 10), (-100, 1)]
"""Bounds: mixed signs, non-negative, all negative, zero-width, both zero."""


def test_sum_values_and_type():
    t = make_sized_bounded_int_sum(3, -5, 3)
    assert t([1, -5, 3]) == -1
    assert type(t([3, 3, 3])) is int
    assert make_sized_bounded_int_sum(0, 0, 1)([]) == 0


def test_huge_ints_do_not_overflow():
    big = 2 ** 100
    t = make_sized_bounded_int_sum(4, -big, big)
    assert t([big] * 4) == 4 * big
    assert t.map(3) == 2 * big


def test_domains_and_metrics():
    t = make_sized_bounded_int_sum(2, -2, 7)
    assert t.input_domain == SizedDomain(VectorDomain(AtomDomain(int, bounds=(-2, 7))), 2)
    assert t.output_domain == AtomDomain(int)
    assert (t.input_metric, t.output_metric) == (SymmetricDistance(), AbsoluteDistance())


@pytest.mark.parametrize("data", [[1], [1, 2, 3], [1, 8], [-3, 0], [1, 2.0], [1, True],
                                  [float("nan"), 1], (1, None)])
def test_rejects_input_outside_domain(data):
    t = make_sized_bounded_int_sum(2, -2, 7)
    with pytest.raises(DomainError) as info:
        t(data)
    assert info.value.value is data


@pytest.mark.parametrize("lower, upper", GRID)
def test_map_is_half_d_in_times_width(lower, upper):
    t = make_sized_bounded_int_sum(3, lower, upper)
    for d_in in range(11):
        assert t.map(d_in) == (d_in // 2) * (upper - lower)
        assert type(t.map(d_in)) is int


@pytest.mark.parametrize("size", [-1, -10])
def test_dataset_size_error_for_negative_size(size):
    with pytest.raises(DatasetSizeError) as info:
        make_sized_bounded_int_sum(size, 0, 1)
    assert info.value.size == size


@pytest.mark.parametrize("size", [2.0, True, "3", None])
def test_dataset_size_error_for_non_int_size(size):
    with pytest.raises(DatasetSizeError) as info:
        make_sized_bounded_int_sum(size, 0, 1)
    assert info.value.size is size and ">= 0" in str(info.value)


def test_bounds_order_error():
    with pytest.raises(BoundsOrderError) as info:
        make_sized_bounded_int_sum(2, 3, 2)
    assert (info.value.lower, info.value.upper) == (3, 2)


@pytest.mark.parametrize("lower, upper", [(0.0, 1.0), (0, 1.0), (False, True), (None, 1)])
def test_int_bound_type_error(lower, upper):
    with pytest.raises(IntBoundTypeError) as info:
        make_sized_bounded_int_sum(2, lower, upper)
    assert info.value.lower is lower and info.value.upper is upper


# --- agreement with opendp ----------------------------------------------------------------------

@pytest.mark.parametrize("size", [0, 1, 3])
@pytest.mark.parametrize("lower, upper", GRID)
def test_map_agrees_with_opendp(size, lower, upper):
    """opendp's make_sum on a sized int vector domain has the same map, (d_in // 2) (U - L), for
    every d_in in 0..10 (opendp does not cap it at 2 size either)."""
    import opendp.prelude as dp
    dp.enable_features("contrib")
    theirs = dp.t.make_sum(dp.vector_domain(dp.atom_domain(bounds=(lower, upper)), size=size),
                           dp.symmetric_distance())
    ours = make_sized_bounded_int_sum(size, lower, upper)
    assert [ours.map(d) for d in range(11)] == [theirs.map(d) for d in range(11)]
    data = [upper] * size
    assert ours(data) == theirs(data)


# --- properties ---------------------------------------------------------------------------------

@st.composite
def same_size_vectors(draw):
    lower = draw(st.integers(-20, 20))
    upper = lower + draw(st.integers(0, 20))
    size = draw(st.integers(0, 6))
    row = st.integers(lower, upper)
    v = draw(st.lists(row, min_size=size, max_size=size))
    w = draw(st.permutations([draw(row) if draw(st.booleans()) else x for x in v]))
    return size, lower, upper, v, w


@settings(max_examples=200, derandomize=True)
@given(case=same_size_vectors())
def test_stability_on_same_size_vectors(case):
    size, lower, upper, v, w = case
    t = make_sized_bounded_int_sum(size, lower, upper)
    d_in = t.input_metric.distance(v, w)
    assert d_in % 2 == 0
    assert t.output_metric.distance(t(v), t(w)) <= t.map(d_in)


def test_map_is_tight():
    """k substitutions of lower by upper reach the map at d_in = 2k exactly."""
    t = make_sized_bounded_int_sum(4, -3, 5)
    for k in range(5):
        w = [5] * k + [-3] * (4 - k)
        assert t.output_metric.distance(t([-3] * 4), t(w)) == t.map(2 * k) == t.map(2 * k + 1)
