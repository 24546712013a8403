"""Refusal goals for arguments the proofs exclude: proved on the catalogue, refuted on
constructors whose validation lets those arguments through (and confirmed where the built object
misbehaves on sample inputs)."""

from __future__ import annotations

from mechanisms.core import Constructor
from mechanisms.make_randomized_response import (RR_PRECONDITIONS, build_randomized_response,
                                                 make_randomized_response)
from obligations.make_randomized_response import excluded_categories


def lax(constructor: Constructor, build, preconditions) -> Constructor:
    """The constructor with its type validation dropped (its preconditions kept)."""
    return Constructor(f"{constructor.name}_lax", build, preconditions)


def test_the_catalogue_refuses_every_excluded_argument():
    for goal in excluded_categories(make_randomized_response):
        decision = goal.decide()
        assert decision.proved, (goal.name, decision.detail)


def test_randomized_response_on_categories_of_two_types_is_refuted_and_confirmed():
    variant = lax(make_randomized_response, build_randomized_response, RR_PRECONDITIONS)
    goal = next(g for g in excluded_categories(variant) if "[0, 'a']" in g.name)
    decision = goal.decide()
    assert not decision.proved and not decision.unsupported
    replay = goal.replay(decision.counterexample)
    assert replay.confirmed, replay.report  # it answers 'a', outside AtomDomain(int)
    assert "'a'" in replay.report
