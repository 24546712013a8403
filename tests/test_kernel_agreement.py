"""The kernel-agreement goal (``obligations.row_transforms.kernel_agreement``): a row kernel must
compute on values what it computes on solver terms, and only from the row's value. Kernels that
ask ``is``, or branch on a Python type that a solver term does not have, are proved by every Z3
goal (the solver sees the honest branch) and caught only here."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import z3

from checker.results import Verdict
from checker.runner import Task, check_obligation
from mechanisms import ops
from mechanisms.core import RowTransform
from mechanisms.make_clamp import build_clamp, clamp_kernel, make_clamp
from mechanisms.make_is_equal import build_is_equal, make_is_equal
from obligations.make_clamp import clamp_obligations
from obligations.row_transforms import equal_copy, kernel_agreement, row_transform_stability
from tests.test_reproducers import snippet_of


def interned_equal(x: Any, value: Any) -> Any:
    """Wrong: ``is`` for ints and strings (a fast path that holds only for interned objects); a
    solver term is neither, so every Z3 goal sees ``ops.eq``."""
    return x is value if type(value) in (int, str) else ops.eq(x, value)


def nan_passthrough(x: Any, lower: Any, upper: Any) -> Any:
    """Wrong: a float NaN is returned as it is (``type(x) is float`` is never true of a solver
    term, so the solver proves the clamp's own NaN handling)."""
    return x if type(x) is float and x != x else clamp_kernel(x, lower, upper)


make_is_equal_interned = make_is_equal.variant(
    "make_is_equal_interned",
    lambda value: replace(build_is_equal(value),
                          function=RowTransform(interned_equal, {"value": value})))
make_clamp_nan_passthrough = make_clamp.variant(
    "make_clamp_nan_passthrough",
    lambda lower, upper: replace(build_clamp(lower, upper), function=RowTransform(
        nan_passthrough, {"lower": lower, "upper": upper})))


def is_equal_stability(constructor: Any, prefix: str) -> Any:
    """A stability obligation of ``make_is_equal``'s shape whose one goal is the agreement of the
    kernel on values with its solver form, at values past CPython's small-int cache and strings of
    two characters, each against itself and against a copy."""
    def symbolic(carrier: type, _: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        value = z3.Const("value", ops.sort_of(carrier))
        return constructor.build(value=value), {"value": value}
    rows = {int: (1000, 10 ** 30, 7), str: ("ab", "a"), float: (1.5, -0.0, 0.0, float("nan"))}
    cases = [({"value": value}, row) for carrier, values in rows.items() for value in values
             for row in values]
    return [row_transform_stability(prefix, lambda: [kernel_agreement(constructor, symbolic,
                                                                       cases)])]


def stability(obligations) -> Any:
    obligation = next(o for o in obligations if o.id.endswith(".stability"))
    return check_obligation(Task("agreement", obligation), seconds=60)


def agreement_goal(result) -> Any:
    return next(g for g in result.goals if g.name.startswith("the kernel computes on values"))


def test_equal_copies_are_equal_values_and_other_objects():
    for value in (1000, 10 ** 30, "ab", 1.5, float("-inf")):
        copy = equal_copy(value)
        assert copy == value and type(copy) is type(value) and copy is not value


def test_a_kernel_that_asks_is_is_refuted_with_a_confirmed_replay():
    result = stability(is_equal_stability(make_is_equal_interned, "interned"))
    goal = agreement_goal(result)
    assert result.verdict is Verdict.REFUTED and goal.verdict is Verdict.REFUTED
    assert goal.confirmed and "VIOLATION" in goal.report


def test_the_reproducer_runs_a_row_and_a_copy_that_is_another_object():
    """Equal literals in one snippet are one constant object, so the copy is built at run time:
    the snippet fails on the kernel that asks ``is`` and passes on the catalogue's."""
    goal = agreement_goal(stability(is_equal_stability(make_is_equal_interned, "interned")))
    snippet = snippet_of(goal.report)
    assert "v, w = [1000], [int('1000')]" in snippet
    with pytest.raises(AssertionError, match="farther apart than the map allows"):
        exec(compile(snippet, "<reproducer>", "exec"), {})
    correct = snippet.replace("from tests.test_kernel_agreement import make_is_equal_interned",
                              "from mechanisms.make_is_equal import make_is_equal"
                              ).replace("make_is_equal_interned(", "make_is_equal(")
    assert correct != snippet
    exec(compile(correct, "<reproducer>", "exec"), {})


def test_a_kernel_that_branches_on_a_python_type_is_unknown():
    result = stability(clamp_obligations(make_clamp_nan_passthrough, "nan_passthrough"))
    goal = agreement_goal(result)
    assert result.verdict is Verdict.UNKNOWN and goal.verdict is Verdict.UNKNOWN
    assert "the solver goals are about another function" in goal.message
    assert all(g.verdict is Verdict.PROVED for g in result.goals if g is not goal)


def test_the_catalogue_kernels_agree():
    for obligations in (is_equal_stability(make_is_equal, "is_equal"), clamp_obligations()):
        result = stability(obligations)
        assert result.verdict is Verdict.PROVED
        assert agreement_goal(result).verdict is Verdict.PROVED
