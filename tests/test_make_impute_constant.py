"""mechanisms.make_impute_constant: the function, its domains and map, the refusals, agreement
with OpenDP."""

from __future__ import annotations

import math

import opendp.prelude as dp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import ConstantTypeError, DomainError, NaNConstantError
from mechanisms.make_impute_constant import make_impute_constant
from mechanisms.metrics import SymmetricDistance

dp.enable_features("contrib")

NAN, INF = math.nan, math.inf


def same_floats(a: list[float], b: list[float]) -> bool:
    """Equal entry by entry, NaN equal to NaN, and the sign of zero compared too."""
    return len(a) == len(b) and all(
        (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) == math.copysign(1, y))
        for x, y in zip(a, b))


def test_nan_is_replaced_and_everything_else_kept():
    t = make_impute_constant(7.5)
    out = t([NAN, INF, -INF, -0.0, 0.0, 5e-324, 1e308, float("nan")])
    assert same_floats(out, [7.5, INF, -INF, -0.0, 0.0, 5e-324, 1e308, 7.5])
    assert all(type(y) is float for y in out)
    assert t([]) == []


@pytest.mark.parametrize("constant", [INF, -INF, -0.0, 0.0, 5e-324, -1e308])
def test_special_constants_are_allowed(constant):
    out = make_impute_constant(constant)([NAN, 1.0])
    assert same_floats(out, [constant, 1.0])


def test_domains_and_metrics():
    t = make_impute_constant(0.0)
    assert t.input_domain == VectorDomain(AtomDomain(float, nan=True))
    assert t.output_domain == VectorDomain(AtomDomain(float))
    assert t.input_metric == t.output_metric == SymmetricDistance()
    assert t.output_domain.member(t([NAN, NAN]))


@pytest.mark.parametrize("data", [[1.0, 2], [1.0, "a"], [True], 3.0, [None]])
def test_rejects_input_outside_domain(data):
    t = make_impute_constant(0.0)
    with pytest.raises(DomainError) as info:
        t(data)
    assert info.value.value is data and info.value.domain == t.input_domain


@pytest.mark.parametrize("constant", [0, 1, True, "0.0", None])
def test_constant_type_error(constant):
    with pytest.raises(ConstantTypeError) as info:
        make_impute_constant(constant)
    assert info.value.constant is constant and isinstance(info.value, ValueError)


def test_nan_constant_error():
    with pytest.raises(NaNConstantError) as info:
        make_impute_constant(NAN)
    assert math.isnan(info.value.constant)


def test_map_and_check():
    t = make_impute_constant(0.0)
    for d in (0, 1, 2, 17, 10 ** 20):
        assert t.map(d) == d and t.check(d, d)
    assert not t.check(3, 2)


specials = st.sampled_from([NAN, INF, -INF, -0.0, 0.0, 1.0, 2.0])


@settings(max_examples=150, derandomize=True)
@given(v=st.lists(specials, max_size=7), w=st.lists(specials, max_size=7),
       constant=st.sampled_from([0.0, 1.0, INF, -0.0]))
def test_is_1_stable_and_lands_in_the_output_domain(v, w, constant):
    # the pool shares 0.0 and 1.0 with the constants, so imputed NaN can merge with real rows
    t = make_impute_constant(constant)
    assert t.output_domain.member(t(v))
    d_in = t.input_metric.distance(v, w)
    assert t.output_metric.distance(t(v), t(w)) <= t.map(d_in)


# --- agreement with OpenDP ---------------------------------------------------------------------

INPUT_DOMAIN = dp.vector_domain(dp.atom_domain(T=float, nan=True))
GRID = [[], [NAN], [NAN, 1.0, INF, -INF, -0.0, NAN], [5e-324, -2.5]]


@pytest.mark.parametrize("constant", [0.0, -0.0, 1.5, -1e300, INF, -INF])
def test_agrees_with_opendp(constant):
    ours = make_impute_constant(constant)
    theirs = dp.t.make_impute_constant(INPUT_DOMAIN, dp.symmetric_distance(), constant)
    for d_in in (0, 1, 2, 3, 10, 1000, 2 ** 32 - 1):
        assert ours.map(d_in) == theirs.map(d_in)
    for data in GRID:
        assert same_floats(ours(data), theirs(data))


def test_opendp_refuses_a_nan_constant_too():
    with pytest.raises(dp.OpenDPException):
        dp.t.make_impute_constant(INPUT_DOMAIN, dp.symmetric_distance(), NAN)
    with pytest.raises(NaNConstantError):
        make_impute_constant(NAN)
