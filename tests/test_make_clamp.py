"""mechanisms.make_clamp: the function, its domains and map, and the constructor's refusals."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, BoundTypeError, DomainError, NaNBoundError
from mechanisms.make_clamp import make_clamp
from mechanisms.metrics import SymmetricDistance

NAN = math.nan
INF = math.inf


def test_clamp_floats_with_special_values():
    clamp = make_clamp(0.0, 10.0)
    out = clamp([NAN, INF, -INF, 5.0, 11.0, -1.0, 0.0, 10.0])
    assert out == [0.0, 10.0, 0.0, 5.0, 10.0, 0.0, 0.0, 10.0]
    assert all(type(y) is float for y in out)


def test_clamp_nan_goes_to_lower():
    clamp = make_clamp(-3.5, 2.0)
    assert clamp([NAN, float("nan")]) == [-3.5, -3.5]


def test_clamp_negative_zero_follows_python_min_max():
    out = make_clamp(0.0, 10.0)([-0.0])
    assert out == [0.0]                                   # inside [0.0, 10.0]
    assert math.copysign(1.0, out[0]) == math.copysign(1.0, max(min(-0.0, 10.0), 0.0))
    assert make_clamp(-1.0, 1.0)([-0.0, 0.0]) == [0.0, 0.0]


def test_clamp_ints():
    clamp = make_clamp(-2, 3)
    out = clamp([-10, -2, 0, 3, 4, 10 ** 30])
    assert out == [-2, -2, 0, 3, 3, 3]
    assert all(type(y) is int for y in out)
    assert clamp.input_domain == VectorDomain(AtomDomain(int))
    assert clamp.output_domain == VectorDomain(AtomDomain(int, bounds=(-2, 3)))


def test_clamp_float_domains():
    clamp = make_clamp(0.0, 1.0)
    assert clamp.input_domain == VectorDomain(AtomDomain(float, nan=True))
    assert clamp.output_domain == VectorDomain(AtomDomain(float, bounds=(0.0, 1.0)))
    assert clamp.input_metric == clamp.output_metric == SymmetricDistance()


@pytest.mark.parametrize("bounds, data", [
    ((0.0, 10.0), [1.0, "a"]),
    ((0.0, 10.0), [1.0, 2]),          # an int in float data
    ((0.0, 10.0), 3.0),               # not a vector
    ((0, 10), [1, 2.5]),
    ((0, 10), [1, True]),
])
def test_clamp_rejects_input_outside_domain(bounds, data):
    clamp = make_clamp(*bounds)
    with pytest.raises(DomainError) as info:
        clamp(data)
    assert info.value.value is data
    assert info.value.domain == clamp.input_domain


def test_clamp_map_and_check():
    clamp = make_clamp(0.0, 10.0)
    for d in (0, 1, 2, 17):
        assert clamp.map(d) == d
        assert clamp.check(d, d) is True
        assert clamp.check(d, d + 1) is True
    assert clamp.check(3, 2) is False


def test_clamp_single_point_interval():
    assert make_clamp(4.0, 4.0)([NAN, -INF, 100.0]) == [4.0, 4.0, 4.0]


def test_bounds_order_error():
    with pytest.raises(BoundsOrderError) as info:
        make_clamp(10.0, 0.0)
    assert info.value.lower == 10.0 and info.value.upper == 0.0
    with pytest.raises(BoundsOrderError) as info:
        make_clamp(3, 2)
    assert (info.value.lower, info.value.upper) == (3, 2)


@pytest.mark.parametrize("lower, upper, name", [(NAN, 1.0, "lower"), (0.0, NAN, "upper"),
                                                (NAN, NAN, "lower")])
def test_nan_bound_error(lower, upper, name):
    with pytest.raises(NaNBoundError) as info:
        make_clamp(lower, upper)
    assert info.value.name == name


@pytest.mark.parametrize("lower, upper", [(0, 1.0), (0.0, 1), (False, True), (0, True),
                                          ("a", "b"), (None, None)])
def test_bound_type_error(lower, upper):
    with pytest.raises(BoundTypeError) as info:
        make_clamp(lower, upper)
    assert info.value.lower is lower and info.value.upper is upper


def test_constructor_errors_are_value_errors():
    with pytest.raises(ValueError):
        make_clamp(1.0, 0.0)


# --- properties -------------------------------------------------------------------------------

specials = st.sampled_from([NAN, INF, -INF, -0.0, 0.0, 10.0, 5.0, -1.0, 11.0, 5e-324])
any_float = st.one_of(st.floats(allow_nan=True, allow_infinity=True), specials)
bounds = st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6)).map(sorted)


@settings(max_examples=150, derandomize=True)
@given(data=st.lists(any_float, max_size=8), lu=bounds)
def test_output_is_in_output_domain(data, lu):
    lower, upper = lu
    clamp = make_clamp(lower, upper)
    out = clamp(data)
    assert len(out) == len(data)
    assert clamp.output_domain.member(out)


@settings(max_examples=150, derandomize=True)
@given(v=st.lists(specials, max_size=6), w=st.lists(specials, max_size=6))
def test_row_transform_is_1_stable(v, w):
    # drawn from a small pool so that v and w share elements
    clamp = make_clamp(0.0, 10.0)
    d_in = SymmetricDistance().distance(v, w)
    d_out = SymmetricDistance().distance(clamp(v), clamp(w))
    assert d_out <= clamp.map(d_in)


@settings(max_examples=100, derandomize=True)
@given(v=st.lists(st.integers(-5, 5), max_size=6), w=st.lists(st.integers(-5, 5), max_size=6))
def test_int_row_transform_is_1_stable(v, w):
    clamp = make_clamp(-1, 2)
    d_in = SymmetricDistance().distance(v, w)
    assert SymmetricDistance().distance(clamp(v), clamp(w)) <= clamp.map(d_in)
