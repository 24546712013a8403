"""mechanisms.make_count_by: the histogram, its domains, metric and map, refusals, the metric's
facts on random maps, and agreement with OpenDP 0.16's ``make_count_by`` (function and map)."""

from __future__ import annotations

import random
from collections import Counter

import opendp.prelude as dp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanisms.domains import AtomDomain, MapDomain, VectorDomain
from mechanisms.errors import CarrierError, DomainError
from mechanisms.make_count_by import make_count_by
from mechanisms.metrics import AbsoluteDistance, L01InfDistance, SymmetricDistance

dp.enable_features("contrib")


@pytest.mark.parametrize("carrier, data", [
    (int, [3, -1, 10 ** 40, 3, 0]), (str, ["", "a", "a", "NaN"]), (bool, [True, False, True]),
])
def test_count_by_is_the_histogram(carrier, data):
    t = make_count_by(carrier)
    assert t(data) == dict(Counter(data))
    assert all(type(c) is int and c >= 1 for c in t(data).values())
    assert t([]) == {}
    assert t.output_domain.member(t(data))


def test_count_by_domains_metrics_map():
    t = make_count_by(str)
    assert t.input_domain == VectorDomain(AtomDomain(str))
    assert t.output_domain == MapDomain(AtomDomain(str), AtomDomain(int))
    assert t.input_metric == SymmetricDistance()
    assert t.output_metric == L01InfDistance(AbsoluteDistance())
    assert [t.map(d) for d in (0, 1, 7)] == [(0, 0, 0), (1, 1, 1), (7, 7, 7)]


@pytest.mark.parametrize("carrier", [float, list, "str", None])
def test_count_by_refuses_other_carriers(carrier):
    with pytest.raises(CarrierError) as info:
        make_count_by(carrier)
    assert info.value.carrier is carrier


@pytest.mark.parametrize("carrier, data", [(int, [1, True]), (str, ["a", 1]), (bool, [0]),
                                           (str, "abc")])
def test_count_by_rejects_input_outside_domain(carrier, data):
    t = make_count_by(carrier)
    with pytest.raises(DomainError):
        t(data)


def test_map_domain_membership():
    domain = MapDomain(AtomDomain(str), AtomDomain(int))
    assert domain.member({}) and domain.member({"a": 3})
    assert not domain.member({"a": 1.0}) and not domain.member({1: 1}) and not domain.member([])


def test_l01inf_distance_examples():
    m = L01InfDistance()
    assert m.distance({"a": 2, "b": 1}, {"a": 1, "c": 3}) == (3, 5, 3)
    assert m.distance({"a": 0}, {}) == (1, 0, 0)  # a key in one map only counts in l0
    assert m.distance({"a": 4}, {"a": 4}) == (0, 0, 0)
    assert L01InfDistance.within((1, 2, 2), (1, 2, 3))
    assert not L01InfDistance.within((2, 0, 0), (1, 9, 9))  # not the lexicographic order
    assert m.compatible(MapDomain(AtomDomain(str), AtomDomain(int)))
    assert not m.compatible(VectorDomain(AtomDomain(int)))


maps = st.dictionaries(st.integers(0, 4), st.integers(-3, 5), max_size=5)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(maps, maps)
def test_l01inf_facts_on_random_maps(u, w):
    """The facts the obligation count_by.metric_facts proves: 0 <= linf <= l1 <= l0 * linf."""
    l0, l1, linf = L01InfDistance().distance(u, w)
    assert 0 <= linf <= l1 <= l0 * linf and l0 >= 0


rows = st.lists(st.integers(0, 5), max_size=12)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(rows, rows)
def test_stability_on_random_pairs(v, w):
    t = make_count_by(int)
    d_sym = SymmetricDistance().distance(v, w)
    observed = t.output_metric.distance(t(v), t(w))
    assert L01InfDistance.within(observed, t.map(d_sym))


@pytest.mark.parametrize("v, w, expected", [
    ([], [0, 0, 0], (1, 3, 3)), ([], [0, 1, 2], (3, 3, 1)), ([5], [5, 0], (1, 1, 1)),
])
def test_each_component_of_the_map_is_reached(v, w, expected):
    """The map is tight: each of l0, l1, linf equals d_in on some pair at distance d_in."""
    t = make_count_by(int)
    assert t.output_metric.distance(t(v), t(w)) == expected
    assert SymmetricDistance().distance(v, w) == max(expected)


def test_agrees_with_opendp():
    """opendp 0.16: same histogram on seeded random string vectors, same map (d, d, d) on a grid
    of d (their L01InfDistance<AbsoluteDistance<i32>> output metric)."""
    theirs = dp.t.make_count_by(dp.vector_domain(dp.atom_domain(T=str)), dp.symmetric_distance())
    ours = make_count_by(str)
    rng = random.Random(7)
    for _ in range(50):
        data = [rng.choice("abcde") for _ in range(rng.randrange(20))]
        assert ours(data) == theirs(data)
    for d in (0, 1, 2, 5, 100, 2 ** 20):
        assert ours.map(d) == tuple(theirs.map(d))
