"""One body of code: a constructor whose code tells solver terms from numbers is unsupported."""

from __future__ import annotations

from dataclasses import replace

import pytest

from checker.results import Verdict
from checker.runner import Task, check_obligation
from mechanisms import ops
from mechanisms.core import Map
from mechanisms.make_sized_bounded_int_sum import (build_sized_bounded_int_sum,
                                                   make_sized_bounded_int_sum, sized_int_sum_map)
from mechanisms.make_clamp import make_clamp
from obligations.base import Entry
from obligations.catalogue import builtin_catalogue
from obligations.make_clamp import clamp_obligations
from obligations.one_body import solver_branches
from tests.helpers import statements_by_claim


def wrapped_map(d_in, lower, upper):
    """Proved on terms, a 32-bit wrap on numbers: a second implementation."""
    if ops.is_symbolic(d_in):
        return sized_int_sum_map(d_in, lower, upper)
    return (d_in // 2) * ((upper - lower) & 0xFFFFFFFF)


def build_wrapped(size, lower, upper):
    return replace(build_sized_bounded_int_sum(size, lower, upper),
                   stability_map=Map(rule=wrapped_map, params={"lower": lower, "upper": upper}))


make_wrapped = make_sized_bounded_int_sum.variant("make_sized_bounded_int_sum_wrapped",
                                                  build_wrapped)


@pytest.mark.parametrize("entry", [e for e in builtin_catalogue() if e.constructor is not None],
                         ids=lambda e: e.name)
def test_no_catalogue_constructor_branches_on_solver_terms(entry):
    assert solver_branches(entry.constructor) == []


def test_a_branch_on_solver_terms_in_a_map_rule_is_found():
    assert solver_branches(make_wrapped) == ["tests.test_one_body.wrapped_map: is_symbolic"]


def test_every_obligation_of_such_a_constructor_is_unknown_unsupported():
    """The runner adds the one-body goal to each obligation checked with a constructor: with
    the wrapped sum it is unknown, with a catalogue constructor the same obligation stays
    proved."""
    stability = next(o for o in clamp_obligations() if o.id == "clamp.stability")
    result = check_obligation(Task("make_wrapped", stability, make_wrapped), seconds=60)
    assert result.verdict is not Verdict.PROVED
    one_body = result.goals[0]
    assert one_body.verdict is Verdict.UNKNOWN
    assert "two bodies" in one_body.message and "wrapped_map: is_symbolic" in one_body.message
    assert check_obligation(Task("make_clamp", stability, make_clamp),
                            seconds=60).verdict is Verdict.PROVED


def test_the_kernel_proves_no_statement_of_such_a_constructor():
    statements = statements_by_claim(Entry("wrapped", make_wrapped), ())
    assert statements and not any(c.proved for c in statements.values())
    assert all("tests for solver terms (tests.test_one_body.wrapped_map: is_symbolic)" in c.why
               for c in statements.values())
