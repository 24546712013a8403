"""The shared kernel check: a subclass override or a shadowing instance attribute is seen."""

from __future__ import annotations

from dataclasses import dataclass

from checker.results import Verdict
from checker.runner import Task, check_obligation
from mechanisms.core import RowTransform
from obligations.base import Kind, Obligation
from obligations.kernels import kernel_deviations, trusted_kernel_goal


def double(x):
    return 2 * x


def test_the_kernel_itself_has_no_deviation():
    assert kernel_deviations(RowTransform(double), RowTransform) == []


def test_a_plain_dataclass_subclass_without_overrides_has_none():
    @dataclass(frozen=True)
    class Named(RowTransform):
        label: str = "x"

        def describe(self):  # a new method, not a replacement
            return self.label

    assert kernel_deviations(Named(double), RowTransform) == []


def test_an_overridden_call_is_a_deviation():
    class Skipping(RowTransform):
        def __call__(self, data):
            return [self.kernel(x) for x in data[1:]]

    [deviation] = kernel_deviations(Skipping(double), RowTransform)
    assert "Skipping.__call__ replaces RowTransform's" in deviation


def test_a_new_dunder_is_a_deviation():
    class Sneaky(RowTransform):
        def __getattribute__(self, name):
            return object.__getattribute__(self, name)

    assert kernel_deviations(Sneaky(double), RowTransform)


def test_an_instance_attribute_shadowing_a_method_is_a_deviation():
    function = RowTransform(double)
    object.__setattr__(function, "scalar", lambda x, **params: 0)
    [deviation] = kernel_deviations(function, RowTransform)
    assert "instance attribute scalar shadows" in deviation


def test_another_class_is_a_deviation_and_checked_members_are_allowed():
    assert kernel_deviations(double, RowTransform) == ["function is not a RowTransform"]

    class Checked(RowTransform):
        def scalar(self, x, **params):
            return self.kernel(x)

    assert kernel_deviations(Checked(double), RowTransform, checked=("scalar",)) == []


def test_the_goal_is_unknown_unsupported_never_proved_on_a_deviation():
    class Skipping(RowTransform):
        def __call__(self, data):
            return []

    def verdict(obj):
        goal = trusted_kernel_goal("the function", lambda: obj, RowTransform)
        task = Task("m", Obligation("t.o", Kind.LEMMA, "s", "x", lambda: [goal]))
        return check_obligation(task, seconds=5)

    assert verdict(RowTransform(double)).verdict is Verdict.PROVED
    result = verdict(Skipping(double))
    assert result.verdict is Verdict.UNKNOWN and "Skipping.__call__" in result.message
