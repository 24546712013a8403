"""mechanisms.make_resize: the function, its domains and map, the refusals, and opendp's map."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from mechanisms.errors import ConstantDomainError, DomainError, RowDomainError, SizeError
from mechanisms.make_bounded_mean import make_bounded_mean
from mechanisms.make_resize import make_resize
from mechanisms.metrics import SymmetricDistance, multiset_key

NAN, INF = math.nan, math.inf
UNIT = AtomDomain(float, bounds=(0.0, 1.0))


def test_pads_short_vectors_with_the_constant():
    t = make_resize(3, 0.5, UNIT)
    assert t([]) == [0.5, 0.5, 0.5]
    assert t([1.0]) == [1.0, 0.5, 0.5]


def test_keeps_the_least_rows_of_long_vectors():
    t = make_resize(2, 0.5, UNIT)
    assert t([1.0, 0.25, 0.75, 0.0]) == [0.0, 0.25]
    assert t([0.75, 0.25]) == [0.25, 0.75]


def test_nan_rows_sort_last_and_negative_zero_ties_zero():
    t = make_resize(2, 0.0, AtomDomain(float, nan=True))
    assert t([NAN, 3.0, -INF]) == [-INF, 3.0]
    out = t([NAN, NAN, NAN])
    assert len(out) == 2 and all(math.isnan(x) for x in out)
    assert [multiset_key(x) for x in t([0.0, -0.0, 1.0])] == [0.0, 0.0]


def test_ints_and_huge_ints():
    t = make_resize(2, 0, AtomDomain(int))
    assert t([10 ** 40, -10 ** 40, 3]) == [-10 ** 40, 3]
    assert all(type(x) is int for x in t([]))


def test_domains_and_map():
    t = make_resize(4, 0.5, UNIT)
    assert t.input_domain == VectorDomain(UNIT)
    assert t.output_domain == SizedDomain(VectorDomain(UNIT), 4)
    assert t.input_metric == t.output_metric == SymmetricDistance()
    assert [t.map(d) for d in range(5)] == [0, 2, 4, 6, 8]


def test_rejects_rows_outside_the_row_domain():
    t = make_resize(2, 0.5, UNIT)
    for data in ([2.0], [NAN], [1], 0.5):
        with pytest.raises(DomainError):
            t(data)


def test_chains_into_a_sized_bounded_mean():
    chain = make_resize(3, 0.5, UNIT) >> make_bounded_mean(0.0, 1.0, 3)
    assert chain([1.0]) == pytest.approx(2.0 / 3.0)
    assert chain.map(1) == pytest.approx(2 * (1.0 / 6.0))


@pytest.mark.parametrize("size", [0, -1, 2.0, True, None])
def test_size_error(size):
    with pytest.raises(SizeError) as info:
        make_resize(size, 0.5, UNIT)
    assert info.value.n is size


@pytest.mark.parametrize("constant", [1.5, NAN, 1, "a", -0.5])
def test_constant_domain_error(constant):
    with pytest.raises(ConstantDomainError) as info:
        make_resize(2, constant, UNIT)
    assert info.value.constant is constant and info.value.domain == UNIT


@pytest.mark.parametrize("domain", [AtomDomain(str), VectorDomain(UNIT), float, None])
def test_row_domain_error(domain):
    with pytest.raises(RowDomainError) as info:
        make_resize(2, 0.5, domain)
    assert info.value.domain is domain


def test_nan_constant_allowed_when_the_domain_admits_nan():
    out = make_resize(1, NAN, AtomDomain(float, nan=True))([])
    assert math.isnan(out[0])


pool = st.sampled_from([NAN, -0.0, 0.0, 1.0, 2.0, -INF])


@settings(max_examples=300, derandomize=True)
@given(v=st.lists(pool, max_size=6), w=st.lists(pool, max_size=6), size=st.integers(1, 5))
def test_two_stable_and_in_the_output_domain(v, w, size):
    t = make_resize(size, 1.0, AtomDomain(float, nan=True))
    assert t.output_domain.member(t(v))
    d_in = SymmetricDistance().distance(v, w)
    assert SymmetricDistance().distance(t(v), t(w)) <= t.map(d_in)


@settings(max_examples=100, derandomize=True)
@given(v=st.lists(pool, max_size=6), size=st.integers(1, 5))
def test_depends_on_the_multiset_only(v, size):
    t = make_resize(size, 1.0, AtomDomain(float, nan=True))
    assert SymmetricDistance().distance(t(v), t(v[::-1])) == 0


# --- agreement with opendp --------------------------------------------------------------------

dp = pytest.importorskip("opendp.prelude")
dp.enable_features("contrib")


@pytest.mark.parametrize("size", [1, 2, 5, 100])
@pytest.mark.parametrize("bounds", [(0.0, 1.0), (-10.0, 10.0)])
def test_map_agrees_with_opendp(size, bounds):
    ours = make_resize(size, bounds[0], AtomDomain(float, bounds=bounds))
    theirs = dp.t.make_resize(dp.vector_domain(dp.atom_domain(bounds=bounds)),
                              dp.symmetric_distance(), size, constant=bounds[0])
    for d_in in (0, 1, 2, 3, 10, 1000):
        assert ours.map(d_in) == theirs.map(d_in) == 2 * d_in


def test_int_map_agrees_with_opendp():
    ours = make_resize(3, 0, AtomDomain(int))
    theirs = dp.t.make_resize(dp.vector_domain(dp.atom_domain(T=int)), dp.symmetric_distance(),
                              3, constant=0)
    assert [ours.map(d) for d in range(8)] == [theirs.map(d) for d in range(8)]


def test_short_vectors_agree_with_opendp_as_multisets():
    """Padding is deterministic in both; only which rows a long vector keeps differs."""
    ours = make_resize(4, 0.5, UNIT)
    theirs = dp.t.make_resize(dp.vector_domain(dp.atom_domain(bounds=(0.0, 1.0))),
                              dp.symmetric_distance(), 4, constant=0.5)
    for v in ([], [0.25], [1.0, 0.0, 0.75], [0.1, 0.2, 0.3, 0.4]):
        assert SymmetricDistance().distance(ours(v), theirs(v)) == 0


def test_long_vectors_keep_a_subset_in_both():
    """opendp keeps a random subset, ours the least rows: both keep size rows of v."""
    ours = make_resize(2, 0.5, UNIT)
    theirs = dp.t.make_resize(dp.vector_domain(dp.atom_domain(bounds=(0.0, 1.0))),
                              dp.symmetric_distance(), 2, constant=0.5)
    v = [0.9, 0.1, 0.5, 0.3]
    assert ours(v) == [0.1, 0.3]
    kept = theirs(v)
    assert len(kept) == 2 and set(kept) <= set(v)
