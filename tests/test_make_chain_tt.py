"""mechanisms.make_chain_tt: outer after inner, its typed errors, ``>>``, and agreement with OpenDP."""

from __future__ import annotations

import pytest

from mechanisms.core import Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import CombinatorError, DomainError
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_chain_tt import make_chain_tt
from mechanisms.make_clamp import make_clamp
from mechanisms.make_count import make_count
from mechanisms.make_randomized_response import make_randomized_response
from mechanisms.metrics import AbsoluteDistance, DiscreteMetric, SymmetricDistance
from obligations.witnesses import make_count_capped, make_count_scaled, make_shift, make_times


def test_function_domains_metrics_and_map():
    chain = make_chain_tt(make_times(3), make_count_scaled(2))
    assert isinstance(chain, Transformation)
    assert chain([7, 8, 9]) == 18
    assert chain([]) == 0
    assert chain.input_domain == VectorDomain(AtomDomain(int))
    assert chain.output_domain == AtomDomain(int)
    assert (chain.input_metric, chain.output_metric) == (SymmetricDistance(), AbsoluteDistance())
    assert [chain.map(d) for d in range(5)] == [0, 6, 12, 18, 24]


def test_map_is_outer_after_inner_for_a_non_linear_inner():
    chain = make_chain_tt(make_times(-5), make_count_capped(2))
    assert [chain.map(d) for d in range(5)] == [0, 5, 10, 10, 10]
    assert chain([1] * 9) == -10


def test_real_distances_stay_within_the_map():
    chain = make_chain_tt(make_times(3), make_count_scaled(2))
    for d in range(6):
        v, w = [], [0] * d
        assert chain.output_metric.distance(chain(v), chain(w)) == chain.map(d)


def test_shifted_chain_lands_in_the_output_domain():
    chain = make_chain_tt(make_shift(200), make_shift(100))
    assert chain([0, 99, 5]) == [200, 299, 205]
    assert chain.output_domain.member(chain([0, 99]))
    assert chain([]) == []
    with pytest.raises(DomainError):
        chain([100])


def test_rshift_is_make_chain_tt():
    clamp, total = make_clamp(0, 10), make_bounded_int_sum(0, 10)
    by_operator, by_constructor = clamp >> total, make_chain_tt(total, clamp)
    assert by_operator.map(3) == by_constructor.map(3) == 30
    assert by_operator([-4, 3, 40]) == by_constructor([-4, 3, 40]) == 13


def test_huge_ints_are_exact():
    chain = make_chain_tt(make_times(3), make_count_scaled(2))
    assert chain.map(10 ** 30) == 6 * 10 ** 30


def test_domain_mismatch_is_a_combinator_error_with_both_domains():
    clamp = make_clamp(0.0, 1.0)
    with pytest.raises(CombinatorError, match="output domain") as info:
        make_chain_tt(make_count(int), clamp)
    assert info.value.inner == clamp.output_domain
    assert info.value.outer == make_count(int).input_domain


def test_metric_mismatch_is_a_combinator_error_with_both_metrics():
    inner = make_count_scaled(1)
    outer = Transformation(AtomDomain(int), AtomDomain(int), DiscreteMetric(), DiscreteMetric(),
                           abs, make_times(1).stability_map)
    with pytest.raises(CombinatorError, match="metric") as info:
        make_chain_tt(outer, inner)
    assert (info.value.inner, info.value.outer) == (AbsoluteDistance(), DiscreteMetric())


@pytest.mark.parametrize("outer, inner", [
    (make_randomized_response([0, 1], 0.75), make_count_capped(1)),  # a measurement outside
    (make_times(2), make_randomized_response([0, 1], 0.75)),         # a measurement inside
    (make_times(2), "count"),
])
def test_non_transformations_are_refused(outer, inner):
    with pytest.raises(CombinatorError):
        make_chain_tt(outer, inner)


# --- the chain's function: any code that applies inner, then outer ----------------------------

def _statements(name, constructor):
    from obligations.base import Entry
    from tests.helpers import statements_by_claim
    return statements_by_claim(Entry(name, constructor), searched=())


@pytest.mark.parametrize("name", ["make_chain_tt_closure", "make_chain_tt_overridden"])
def test_right_twin_function_outside_chained_function_is_proved(name):
    """A closure ``x -> outer(inner(x))``, and a ``ChainedFunction`` subclass whose ``__call__``
    is rewritten to the same composition: every standard statement proved by the chain rule."""
    from tests.twins import make_chain_tt as twins
    certified = _statements(name, getattr(twins, name))
    assert certified and all(c.proved for c in certified.values()), [
        c.why for c in certified.values()]
    t = getattr(twins, name)(make_times(3), make_count_scaled(2))
    assert t([1, 2]) == make_chain_tt(make_times(3), make_count_scaled(2))([1, 2]) == 12


def test_a_function_that_branches_on_its_input_is_never_proved():
    """``if x > 0`` on a solver term: the chain rule refuses the function, nothing is proved."""
    from dataclasses import replace
    from mechanisms.make_chain_tt import build_chain_tt

    def build(outer, inner):
        first, second = inner.function, outer.function
        return replace(build_chain_tt(outer, inner),
                       function=lambda x: second(first(x)) if x > 0 else second(first(x)))
    certified = _statements("branching", make_chain_tt.variant("branching", build))
    assert not any(c.proved for c in certified.values())
    assert all("branch" in c.why for c in certified.values()), [c.why for c in certified.values()]


# --- agreement with OpenDP ---------------------------------------------------------------------

dp = pytest.importorskip("opendp.prelude")
dp.enable_features("contrib")


@pytest.mark.parametrize("lower, upper", [(0, 10), (-3, 3), (-100, 7), (5, 5)])
def test_clamp_then_sum_map_agrees_with_opendp(lower, upper):
    """Clamp then bounded sum, in both libraries: the chained maps are equal on a grid of d_in."""
    ours = make_chain_tt(make_bounded_int_sum(lower, upper), make_clamp(lower, upper))
    clamp = dp.t.make_clamp(dp.vector_domain(dp.atom_domain(T=dp.i64)), dp.symmetric_distance(),
                            (lower, upper))
    theirs = dp.c.make_chain_tt(dp.t.make_sum(clamp.output_domain, clamp.output_metric), clamp)
    for d_in in range(0, 40, 3):
        assert ours.map(d_in) == theirs.map(d_in)
    assert ours([lower - 1, upper + 1, lower]) == theirs([lower - 1, upper + 1, lower])


def test_clamp_then_count_map_agrees_with_opendp():
    clamp = dp.t.make_clamp(dp.vector_domain(dp.atom_domain(T=dp.i64)), dp.symmetric_distance(),
                            (0, 10))
    theirs = dp.c.make_chain_tt(dp.t.make_count(clamp.output_domain, clamp.output_metric), clamp)
    ours_clamp = make_clamp(0, 10)
    ours_count = Transformation(ours_clamp.output_domain, AtomDomain(int), SymmetricDistance(),
                                AbsoluteDistance(), len, make_times(1).stability_map)
    ours = make_chain_tt(ours_count, ours_clamp)
    for d_in in range(0, 40, 3):
        assert ours.map(d_in) == theirs.map(d_in)
