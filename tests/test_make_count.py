"""mechanisms.make_count: the function, its domains and map, the refusal, agreement with OpenDP."""

from __future__ import annotations

import math

import opendp.prelude as dp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import CarrierError, DomainError
from mechanisms.make_count import make_count
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance

dp.enable_features("contrib")

NAN, INF = math.nan, math.inf


@pytest.mark.parametrize("carrier, data", [
    (int, [3, -1, 10 ** 40, 0]),
    (float, [NAN, INF, -INF, -0.0, 0.0, 5e-324]),
    (str, ["", "a", "a", "NaN"]),
    (bool, [True, False, True]),
])
def test_count_is_the_number_of_rows_as_an_int(carrier, data):
    t = make_count(carrier)
    assert t(data) == len(data) and type(t(data)) is int
    assert t([]) == 0 and type(t([])) is int
    assert t.output_domain.member(t(data))


@pytest.mark.slow  # over 2 s: make test-slow
def test_count_is_an_unbounded_int():
    """OpenDP's default i32 count saturates at 2^31 - 1; ours is a Python int and exact (see the
    module docstring). A vector longer than 2^31 is out of reach here, so this checks that the
    fold's state is an int that does not wrap: it passes 2^8, 2^16 without change of type."""
    t = make_count(bool)
    for n in (255, 256, 65_536, 300_000):
        assert t([True] * n) == n and type(t([True] * n)) is int


def test_count_domains_and_metrics():
    t = make_count(float)
    assert t.input_domain == VectorDomain(AtomDomain(float, nan=True))
    assert make_count(str).input_domain == VectorDomain(AtomDomain(str))
    assert t.output_domain == AtomDomain(int)
    assert t.input_metric == SymmetricDistance() and t.output_metric == AbsoluteDistance()


@pytest.mark.parametrize("carrier, data", [
    (int, [1, True]), (int, [1.0]), (float, [1.0, 2]), (str, ["a", 1]), (bool, [0]),
    (float, 3.0), (str, "abc"),
])
def test_count_rejects_input_outside_domain(carrier, data):
    t = make_count(carrier)
    with pytest.raises(DomainError) as info:
        t(data)
    assert info.value.value is data and info.value.domain == t.input_domain


@pytest.mark.parametrize("carrier", [list, complex, type(None), "float", None, object])
def test_carrier_error(carrier):
    with pytest.raises(CarrierError) as info:
        make_count(carrier)
    assert info.value.carrier is carrier
    assert info.value.supported == (int, float, str, bool)
    assert isinstance(info.value, ValueError)


def test_count_map_and_check():
    t = make_count(int)
    for d in (0, 1, 2, 17, 10 ** 20):
        assert t.map(d) == d
        assert t.check(d, d)
    assert not t.check(3, 2)


@settings(max_examples=150, derandomize=True)
@given(v=st.lists(st.sampled_from([NAN, 0.0, -0.0, 1.0, INF]), max_size=7),
       w=st.lists(st.sampled_from([NAN, 0.0, -0.0, 1.0, INF]), max_size=7))
def test_count_is_1_stable(v, w):
    t = make_count(float)
    d_in = t.input_metric.distance(v, w)
    assert t.output_metric.distance(t(v), t(w)) <= t.map(d_in)


# --- agreement with OpenDP ---------------------------------------------------------------------

OPENDP_DOMAINS = {int: dp.atom_domain(T=int), float: dp.atom_domain(T=float, nan=True),
                  str: dp.atom_domain(T=str), bool: dp.atom_domain(T=bool)}
GRID = {int: [[], [0], [1, 2, 2, -5]], float: [[], [NAN], [NAN, 1.0, INF, -0.0]],
        str: [[], ["a"], ["a", "a", "b"]], bool: [[], [True], [True, False, True]]}


@pytest.mark.parametrize("carrier", [int, float, str, bool])
def test_agrees_with_opendp(carrier):
    ours = make_count(carrier)
    theirs = dp.t.make_count(dp.vector_domain(OPENDP_DOMAINS[carrier]), dp.symmetric_distance())
    for d_in in (0, 1, 2, 3, 10, 1000, 2 ** 31 - 1):
        assert ours.map(d_in) == theirs.map(d_in)
    for data in GRID[carrier]:
        assert ours(data) == theirs(data)
