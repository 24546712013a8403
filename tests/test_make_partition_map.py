"""mechanisms.make_partition_map: per-partition function, product domain, and the choice of map."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanisms.domains import AtomDomain, ProductDomain, VectorDomain
from mechanisms.errors import CombinatorError, DomainError
from mechanisms.make_clamp import make_clamp
from mechanisms.make_partition_map import make_partition_map
from mechanisms.make_randomized_response import make_randomized_response
from mechanisms.metrics import AbsoluteDistance, ProductMetric, SymmetricDistance
from obligations.witnesses import make_count_capped, make_count_scaled


def test_function_applies_component_i_to_partition_i():
    pm = make_partition_map([make_clamp(0, 10), make_count_scaled(3), make_clamp(-1.0, 1.0)])
    out = pm(([-5, 20, 4], [7, 8], [math.nan, 0.5, 9.0]))
    assert out == ([0, 10, 4], 6, [-1.0, 0.5, 1.0])
    assert isinstance(out, tuple)


def test_domains_and_metrics_are_products():
    clamp, count = make_clamp(0, 10), make_count_scaled(2)
    pm = make_partition_map([clamp, count])
    assert pm.input_domain == ProductDomain((clamp.input_domain, count.input_domain))
    assert pm.output_domain == ProductDomain((clamp.output_domain, count.output_domain))
    assert pm.input_metric == ProductMetric((SymmetricDistance(), SymmetricDistance()))
    assert pm.output_metric == ProductMetric((SymmetricDistance(), AbsoluteDistance()))


@pytest.mark.parametrize("data", [
    ([1, 2],),                      # too few partitions
    ([1], [2], [3]),                # too many
    ([1.0], [2]),                   # float in the int clamp's partition
    ([1], [True]),                  # bool in the count's partition
    "ab",
])
def test_input_domain_membership(data):
    pm = make_partition_map([make_clamp(0, 10), make_count_scaled(1)])
    assert not pm.input_domain.member(data)
    with pytest.raises(DomainError):
        pm(data)


def test_input_domain_accepts_members():
    pm = make_partition_map([make_clamp(0, 10), make_count_scaled(1)])
    assert pm.input_domain.member(([1, 2], []))
    assert pm.input_domain.member([[], [5]])


@pytest.mark.parametrize("components, d_in, expected", [
    ([make_clamp(0, 10), make_count_scaled(3)], 2, 6),            # max(2 * 1, 2 * 3)
    ([make_count_scaled(5), make_count_scaled(2)], 1, 5),
    ([make_count_scaled(2), make_clamp(0.0, 1.0), make_count_scaled(4)], 3, 12),
    ([make_clamp(0, 10)], 7, 7),
])
def test_map_is_max_when_all_components_are_linear(components, d_in, expected):
    assert all(c.stability_map.is_linear for c in components)
    pm = make_partition_map(components)
    assert pm.map(d_in) == expected
    assert pm.map(d_in) == max(c.map(d_in) for c in components)
    assert pm.map(0) == 0


@pytest.mark.parametrize("components, d_in, expected", [
    ([make_count_capped(1), make_count_capped(1)], 2, 2),         # min(2,1) + min(2,1)
    ([make_count_capped(1), make_count_scaled(2)], 3, 1 + 6),
    ([make_clamp(0, 10), make_count_capped(5)], 3, 3 + 3),
    ([make_count_capped(2)], 9, 2),
])
def test_map_is_sum_when_any_component_is_not_linear(components, d_in, expected):
    pm = make_partition_map(components)
    assert pm.map(d_in) == expected
    assert pm.map(d_in) == sum(c.map(d_in) for c in components)


def test_max_would_be_unsound_for_capped_counts():
    pm = make_partition_map([make_count_capped(1), make_count_capped(1)])
    v, w = ([], []), ([0], [0])                                  # one record added to each partition
    d_in = pm.input_metric.distance(v, w)
    d_out = pm.output_metric.distance(pm(v), pm(w))
    assert (d_in, d_out) == (2, 2)
    assert max(c.map(d_in) for c in (make_count_capped(1),) * 2) < d_out   # the seed's max: 1
    assert d_out <= pm.map(d_in)
    assert pm.check(d_in, d_out)


def test_empty_list_is_refused():
    with pytest.raises(CombinatorError):
        make_partition_map([])
    with pytest.raises(CombinatorError):
        make_partition_map(())


@pytest.mark.parametrize("bad", ["x", None, 3])
def test_non_transformation_is_refused(bad):
    with pytest.raises(CombinatorError) as info:
        make_partition_map([make_clamp(0, 1), bad])
    assert info.value.position == 1


def test_measurement_component_is_refused():
    with pytest.raises(CombinatorError) as info:
        make_partition_map([make_randomized_response([0, 1], 0.75)])
    assert info.value.position == 0


def test_non_sequence_is_refused():
    with pytest.raises(CombinatorError):
        make_partition_map(make_clamp(0, 1))


# --- empirical soundness of the map -----------------------------------------------------------

small_list = st.lists(st.integers(0, 2), max_size=4)
partitioned = st.tuples(small_list, small_list)


@pytest.mark.parametrize("components", [
    (make_count_capped(1), make_count_capped(1)),
    (make_count_capped(2), make_count_scaled(3)),
    (make_count_scaled(1), make_count_scaled(2)),
], ids=["capped-capped", "capped-scaled", "scaled-scaled"])
@settings(max_examples=100, derandomize=True)
@given(v=partitioned, w=partitioned)
def test_output_distance_within_map(components, v, w):
    pm = make_partition_map(list(components))
    d_in = pm.input_metric.distance(v, w)
    d_out = pm.output_metric.distance(pm(v), pm(w))
    assert isinstance(d_out, (int, Fraction))
    assert d_out <= pm.map(d_in)


def test_sum_of_float_maps_is_rounded_up():
    from mechanisms.core import Map, Transformation

    def tenth(d_in):
        return 0.1 * d_in

    def seven_tenths(d_in):
        return 0.7 * d_in

    def component(rule):
        vectors = VectorDomain(AtomDomain(int))
        return Transformation(vectors, vectors, SymmetricDistance(), SymmetricDistance(),
                              lambda v: v, Map(rule=rule))

    pm = make_partition_map([component(tenth), component(seven_tenths)])
    assert Fraction(0.1 + 0.7) < Fraction(0.1) + Fraction(0.7)  # round-to-nearest falls below
    assert Fraction(pm.map(1)) >= Fraction(0.1) + Fraction(0.7)
