"""Where the untrusted search for a refutation looks (obligations/refutation_search.py): rows where
arithmetic breaks, rows that are new objects, int arguments given as floats, and catalogue
components for a chain; each search below ends in a refutation that the kernel's refuter
confirmed on the running code."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from mechanisms.core import Constructor, Map, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_chain_tt import build_chain_tt, make_chain_tt
from mechanisms.make_clamp import make_clamp
from mechanisms.metrics import SymmetricDistance
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, ObjectKind, standard_statements
from obligations.refutation_search import _values, propose_refutation
from obligations.refuters.stability import refute_stability_of_constructor


def _statement(constructor: Constructor, claim: Claim):
    statement, = [s for s in standard_statements(constructor, ObjectKind.TRANSFORMATION)
                  if s.claim is claim]
    return statement


def _row_transform(name: str, kernel, element: AtomDomain, output: AtomDomain) -> Constructor:
    def build(value):
        return Transformation(VectorDomain(element), VectorDomain(output), SymmetricDistance(),
                              SymmetricDistance(), RowTransform(kernel, {"value": value}),
                              Map(rule=lambda d_in: d_in))
    return Constructor(name, build)


def test_float_rows_hold_nan_signed_zero_and_infinities_each_a_new_object():
    rows = _values(AtomDomain(float, nan=True), {"value": 1000.0})
    nans = [v for v in rows if v != v]
    assert len(nans) == 1 and nans[0] is not math.nan
    assert any(v == 0 and math.copysign(1, v) < 0 for v in rows)
    assert {math.inf, -math.inf} <= set(rows)
    assert 1000.0 in rows and not any(v is r for v in rows for r in [1000.0])
    assert not any(v != v for v in _values(AtomDomain(float), {}))  # a domain without NaN


def test_int_rows_reach_past_64_bits_within_the_bounds_only():
    assert {10 ** 400, -10 ** 400, 2 ** 63} <= set(_values(AtomDomain(int), {}))
    assert max(_values(AtomDomain(int, bounds=(0, 9)), {})) <= 9


def test_a_nan_test_by_identity_is_refuted_on_a_nan_read_from_data():
    """``x is math.nan`` misses a NaN that is another object: the NaN reaches the output."""
    make_impute = _row_transform("make_impute_is", lambda x, value: value if x is math.nan else x,
                                 AtomDomain(float, nan=True), AtomDomain(float))
    found = propose_refutation(_statement(make_impute, Claim.OUTPUT_DOMAIN), make_impute,
                               [("make_impute_is(0.0)", make_impute(0.0))], seconds=5.0).refutation
    assert found is not None and "nan" in found.witness


def test_an_equality_test_by_identity_is_refuted_on_one_multiset_of_other_objects():
    """``x is value``: ``[v]`` and a row equal to ``v`` read as another object are at distance 0,
    and their outputs are not."""
    make_is = _row_transform("make_is_equal_is", lambda x, value: x is value,
                             AtomDomain(int), AtomDomain(bool))
    value = int("1000")
    found = propose_refutation(_statement(make_is, Claim.STABILITY), make_is,
                               [("make_is_equal_is(1000)", make_is(value))], seconds=5.0).refutation
    assert found is not None and "1000" in found.witness


def test_int_bounds_given_as_floats_are_tried():
    """A build that admits float bounds of an int domain releases a float bound: the search tries
    the example's int bounds as floats."""
    def build(bounds):
        lower, upper = bounds
        return Transformation(VectorDomain(AtomDomain(int)),
                              VectorDomain(AtomDomain(int, bounds=bounds)), SymmetricDistance(),
                              SymmetricDistance(),
                              RowTransform(lambda x, lower, upper: max(min(x, upper), lower),
                                           {"lower": lower, "upper": upper}),
                              Map(rule=lambda d_in: d_in))
    make_floored = Constructor("make_floored", build)
    found = propose_refutation(_statement(make_floored, Claim.OUTPUT_DOMAIN), make_floored,
                               [("make_floored((0, 10))", make_floored((0, 10)))],
                               seconds=5.0).refutation
    assert found is not None and "0.0" in found.witness


def test_a_correct_clamp_is_not_refuted_on_these_rows():
    statement = _statement(make_clamp, Claim.OUTPUT_DOMAIN)
    searched = propose_refutation(statement, make_clamp, [("make_clamp(0.0, 1.0)",
                                                           make_clamp(0.0, 1.0))], seconds=2.0)
    assert searched.refutation is None


def _swapped_chain() -> Constructor:
    """A chain whose map applies its components in the wrong order, ``inner(outer(d_in))``."""
    def build(outer, inner):
        return replace(build_chain_tt(outer, inner), stability_map=Map(
            rule=lambda d_in, outer, inner: inner(outer(d_in)),
            params={"outer": outer.stability_map, "inner": inner.stability_map}))
    return make_chain_tt.variant("make_chain_swapped", build)


def test_a_chain_is_refuted_on_catalogue_components_whose_maps_do_not_commute():
    """A resize (``2 d``) then a sized sum (``(d // 2) 10``): the swapped map is 0 at ``d_in =
    1``, and ``[]`` and ``[10]`` sum 10 apart."""
    chain = _swapped_chain()
    found = propose_refutation(_statement(chain, Claim.STABILITY), chain, [],
                               seconds=10.0).refutation
    assert found is not None
    assert "make_resize(size=2" in found.witness and "> map(1) = 0" in found.witness


def test_a_component_not_built_by_the_catalogue_refutes_nothing():
    """The statement of a chain assumes components that meet their own statements: a
    component the catalogue did not build may not, so nothing is confirmed with it."""
    chain = _swapped_chain()
    shrink = Transformation(VectorDomain(AtomDomain(int)), VectorDomain(AtomDomain(int)),
                            SymmetricDistance(), SymmetricDistance(), lambda v: v,
                            Map(rule=lambda d_in: 0))  # wrong: its own map is 0
    with pytest.raises(RuleRefused, match="not built by a catalogue constructor"):
        refute_stability_of_constructor(_statement(chain, Claim.STABILITY), chain,
                                        {"outer": make_clamp(0, 10), "inner": shrink}, [], [1], 1)


@pytest.mark.parametrize("twin, claim, witness", [
    ("make_sized_bounded_int_sum_absolute_input", Claim.COMPATIBILITY, "raises TypeError"),
    ("make_sized_bounded_int_sum_true_division", Claim.STABILITY, "> map(2) = 1e+20")])
def test_a_sized_domain_is_searched_from_the_first_depth_on_members_of_its_size(
        twin, claim, witness):
    """The first pairs of a sized domain are datasets of its size with one row replaced (the
    empty dataset is not a member): absolute distance between two int vectors raises, and a map
    ``d_in (U - L) / 2`` rounds below one substitution's move at ``U - L = 10^20 + 1``. Both are
    found at the first depth, within a fifth of the gate's time for one search (the second took
    4.8 s when the first depth tried only the empty dataset against one row)."""
    from tests.twins import make_sized_bounded_int_sum as twins
    constructor = getattr(twins, twin)
    searched = propose_refutation(_statement(constructor, claim), constructor, [], seconds=1.0)
    assert searched.refutation is not None and witness in searched.refutation.witness


@pytest.mark.parametrize("d_out, claimed, exceeded", [
    ((2, 2, 1), (1, 1, 1), True), ((0, 2, 0), (1, 1, 1), True), ((1, 1, 1), (1, 1, 1), False),
    ((1, 1), (1, 1, 1), False), (3, 2.5, True), (2, 2, False), (float("inf"), 10 ** 30, True),
    ((1, 1, 1), 1, False)])
def test_a_distance_exceeds_the_map_in_some_component(d_out, claimed, exceeded):
    """Pairs and triples of distances (``(l0, l1, linf)``) are bounded component by component:
    one component past its bound refutes; a shape that does not match refutes nothing."""
    from obligations.refuters.stability import exceeds
    assert exceeds(d_out, claimed) is exceeded
