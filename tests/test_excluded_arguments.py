"""Refusal goals for arguments the proofs exclude: proved on the catalogue, refuted on
constructors whose validation lets those arguments through (and confirmed where the built object
misbehaves on sample inputs)."""

from __future__ import annotations

from mechanisms.core import Constructor
from mechanisms.make_bounded_int_sum import (INT_SUM_PRECONDITIONS, build_bounded_int_sum,
                                             make_bounded_int_sum)
from mechanisms.make_randomized_response import (RR_PRECONDITIONS, build_randomized_response,
                                                 make_randomized_response)
from obligations.make_sized_bounded_int_sum import excluded_arguments
from obligations.make_randomized_response import excluded_categories


def lax(constructor: Constructor, build, preconditions) -> Constructor:
    """The constructor with its type validation dropped (its preconditions kept)."""
    return Constructor(f"{constructor.name}_lax", build, preconditions)


def test_the_catalogue_refuses_every_excluded_argument():
    for goal in [*excluded_arguments(make_bounded_int_sum),
                 *excluded_categories(make_randomized_response)]:
        decision = goal.decide()
        assert decision.proved, (goal.name, decision.detail)


def test_an_int_sum_taking_a_float_bound_is_refuted():
    goals = excluded_arguments(lax(make_bounded_int_sum, build_bounded_int_sum,
                                   INT_SUM_PRECONDITIONS))
    refuted = [g.name for g in goals if not g.decide().proved]
    assert any("float upper bound" in name for name in refuted), refuted
    assert not any("lower > upper" in name for name in refuted)  # the precondition still refuses


def test_randomized_response_on_categories_of_two_types_is_refuted_and_confirmed():
    variant = lax(make_randomized_response, build_randomized_response, RR_PRECONDITIONS)
    goal = next(g for g in excluded_categories(variant) if "[0, 'a']" in g.name)
    decision = goal.decide()
    assert not decision.proved and not decision.unsupported
    replay = goal.replay(decision.counterexample)
    assert replay.confirmed, replay.report  # it answers 'a', outside AtomDomain(int)
    assert "'a'" in replay.report
