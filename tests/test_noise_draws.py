"""The noise kernels' branch (draw exactly when the noise scale is positive) is checked on the real
``__call__``: wrong branches written into the kernel class itself are refuted and confirmed, by
the grid Laplace's obligations, and for the integer noise of the discrete Laplace and Gaussian
(which state no obligations) by the kernel's statements."""

from __future__ import annotations

from fractions import Fraction
from unittest import mock

import pytest

from mechanisms.make_discrete_laplace import IntegerNoise, make_discrete_laplace
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_laplace import FloatGridLaplace, float_units
from mechanisms.samplers import sample_discrete_laplace, system_rng
from obligations.base import ComputedGoal, Entry
from obligations.make_laplace import laplace_obligations
from tests.helpers import statements_by_claim

GOAL = "one draw exactly when the noise scale is positive"


def _draw_goal(obligations) -> ComputedGoal:
    distribution = next(o for o in obligations if o.id.endswith(".distribution"))
    return next(g for g in distribution.goals() if GOAL in g.name)


def integer_noise_drawing_when(condition, otherwise=0):
    def call(self, arg, rng=None):
        scale = Fraction(self.scale)
        noise = self.sampler(scale, system_rng(rng)) if condition(scale) else otherwise
        return self.shift(arg, noise)
    return call


def grid_laplace_drawing_when(condition, otherwise=0, sign=1):
    def call(self, arg, rng=None):
        index = self.grid_index(float_units(arg), self.multiple)
        n = Fraction(self.grid_scale(self.scale, self.multiple))
        noise = sample_discrete_laplace(n, system_rng(rng)) if condition(n) else otherwise
        return self.grid_to_float(index + sign * noise, self.multiple)
    return call


def test_the_catalogue_grid_laplace_draws_exactly_when_the_scale_is_positive():
    decision = _draw_goal(laplace_obligations()).decide()
    assert decision.proved, decision.detail


WRONG_BRANCHES = {"scale > 1": (lambda s: s > 1, 0), "scale >= 0": (lambda s: s >= 0, 0),
                  "scale < 3": (lambda s: 0 < s < 3, 0),
                  "shifted by 1 at scale 0": (lambda s: s > 0, 1)}


def test_subtracting_the_draw_in_the_grid_laplace_is_the_same_law_and_proved():
    """The noise is symmetric: index - Y has the law of index + Y."""
    with mock.patch.object(FloatGridLaplace, "__call__",
                           grid_laplace_drawing_when(lambda n: n > 0, sign=-1)):
        decision = _draw_goal(laplace_obligations()).decide()
    assert decision.proved, decision.detail


KERNELS = {
    "grid Laplace": (FloatGridLaplace, grid_laplace_drawing_when, laplace_obligations),
}
"""Each kernel class with obligations, a wrong ``__call__`` for it, and the obligations that
check it."""


@pytest.mark.parametrize("branch", WRONG_BRANCHES)
@pytest.mark.parametrize("kernel", KERNELS)
def test_a_wrong_branch_in_a_noise_kernel_is_refuted_and_confirmed(kernel, branch):
    kernel_class, drawing_when, obligations = KERNELS[kernel]
    with mock.patch.object(kernel_class, "__call__", drawing_when(*WRONG_BRANCHES[branch])):
        goal = _draw_goal(obligations())
        decision = goal.decide()
        assert not decision.proved and not decision.unsupported
        replay = goal.replay(decision.counterexample)
    assert replay.confirmed, replay.report
    assert "VIOLATION" in replay.report


PRIVACY_BREAKING = {name: WRONG_BRANCHES[name] for name in ("scale > 1", "scale < 3")}
"""The wrong branches that leave an admitted scale without noise (the shift at scale 0 keeps
every standard statement: there the map is already infinite)."""


@pytest.mark.parametrize("branch", PRIVACY_BREAKING)
@pytest.mark.parametrize("constructor", [make_discrete_laplace, make_gaussian],
                         ids=lambda c: c.name)
def test_a_wrong_branch_in_integer_noise_is_refuted_by_the_kernel(constructor, branch):
    with mock.patch.object(IntegerNoise, "__call__",
                           integer_noise_drawing_when(*PRIVACY_BREAKING[branch])):
        certified = statements_by_claim(Entry(constructor.name, constructor))
    refuted = {claim.name for claim, c in certified.items() if c.refutation is not None}
    assert refuted, {claim.name: c.why for claim, c in certified.items()}
