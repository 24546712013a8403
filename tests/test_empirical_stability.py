"""Neighbour strategies and the stability search on the real transformations."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.empirical.stability import test_stability as search_stability
from checker.empirical.strategies import atoms, datasets, draw, neighbours
from mechanisms import make_bounded_mean, make_clamp, make_partition_map
from mechanisms.domains import AtomDomain, ProductDomain, SizedDomain, VectorDomain
from mechanisms.metrics import (AbsoluteDistance, DiscreteMetric, ProductMetric,
                                SymmetricDistance)
from obligations.witnesses import make_count_capped
from tests.wrong_variants import make_clamp_half_map, make_partition_map_seed_max

FLOATS = AtomDomain(float, nan=True)
CASES = [
    (VectorDomain(FLOATS), SymmetricDistance()),
    (SizedDomain(VectorDomain(AtomDomain(float, bounds=(0.0, 1.0))), 3), SymmetricDistance()),
    (AtomDomain(float, bounds=(-10.0, 10.0)), AbsoluteDistance()),
    (AtomDomain(int), DiscreteMetric()),
    (ProductDomain((VectorDomain(AtomDomain(int)), VectorDomain(FLOATS))),
     ProductMetric((SymmetricDistance(), SymmetricDistance()))),
]


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.data(), st.sampled_from(CASES), st.integers(0, 4))
def test_pairs_are_members_within_d_in(data, case, d_in):
    domain, metric = case
    v, w = data.draw(neighbours(domain, metric, d_in))
    assert domain.member(v) and domain.member(w)
    assert metric.distance(v, w) <= d_in


def test_atoms_reach_the_edges():
    values = draw(atoms(FLOATS), 400, seed=0)
    assert any(isinstance(x, float) and math.isnan(x) for x in values)
    assert any(x == math.inf for x in values) and any(x == 2.0 ** 50 for x in values)
    assert any(x == 0.0 and math.copysign(1, x) < 0 for x in values)
    bounded = draw(atoms(AtomDomain(float, bounds=(0.0, 1.0))), 200, seed=0)
    assert 0.0 in bounded and 1.0 in bounded and all(0.0 <= x <= 1.0 for x in bounded)


def test_product_pairs_change_several_partitions_at_once():
    domain, metric = CASES[-1]
    pairs = draw(neighbours(domain, metric, 4), 200, seed=1)
    assert any(all(metric.components[i].distance(v[i], w[i]) > 0 for i in range(2)) for v, w in pairs)


def test_sized_pairs_keep_the_size():
    domain, metric = CASES[1]
    assert all(len(v) == len(w) == 3 for v, w in draw(neighbours(domain, metric, 4), 100, seed=2))


def test_datasets_of_every_domain():
    for domain, _ in CASES:
        assert all(domain.member(x) for x in draw(datasets(domain), 30, seed=3))


@pytest.mark.slow  # over 2 s: make test-slow
def test_correct_transformations_raise_no_alarm():
    for t in (make_clamp(0.0, 1.0), make_clamp(-3, 3),
              make_partition_map([make_count_capped(1), make_count_capped(2)])):
        result = search_stability(t, examples=150, seed=0)
        assert result.violation is None, result.summary()
        assert "testing cannot prove stability" in result.summary()


def test_clamp_with_half_map_is_caught_with_a_bug_report():
    result = search_stability(make_clamp_half_map(0.0, 1.0), call="make_clamp_half_map(0.0, 1.0)",
                              seed=0)
    assert result.violation is not None
    report = result.violation.report
    assert "make_clamp_half_map(0.0, 1.0)" in report and "claimed  map(d_in) = 0.5" in report
    assert "reproduce:" in report


@pytest.mark.slow  # over 2 s: make test-slow
def test_seed_max_partition_map_is_caught():
    t = make_partition_map_seed_max([make_count_capped(1), make_count_capped(1)])
    assert search_stability(t, seed=0).violation is not None


@pytest.mark.slow  # over 2 s: make test-slow
def test_seed_mean_map_float_gap_is_found_and_the_catalogue_map_closes_it():
    """The seed's real-number map d_in (U - L) / (2n) is below what float means of neighbours can
    differ by: the search finds such a pair. The catalogue's map adds the rounding term."""
    from tests.twins.make_maps_rounded_to_nearest import make_mean_seed_map
    seed = search_stability(make_mean_seed_map(0.0, 1.0, 3), seed=0)
    assert seed.violation is not None
    assert "0.3333333333333333" in seed.violation.report
    assert search_stability(make_bounded_mean(0.0, 1.0, 3), seed=0).violation is None


def test_distances_that_bound_nothing_count_as_exceeding():
    from checker.empirical.stability import exceeds, ratio
    assert exceeds(math.nan, 1.0) and exceeds(0, math.nan)
    assert exceeds(math.inf, 1e300) and not exceeds(5, math.inf)
    assert not exceeds(0.1, 0.1) and exceeds(0.30000000000000004, 0.3)
    assert ratio(math.inf, 1.0) == ratio(1, 0) == 1e9 and ratio(0, 0) == 0.0
