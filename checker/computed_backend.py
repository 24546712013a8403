"""Goals decided by running code: SymPy computations and structural checks."""

from __future__ import annotations

import time

from checker.replaying import replay_counterexample
from checker.results import GoalResult, Verdict
from obligations.base import ComputedGoal, Decision


class UntypedDecisionError(TypeError):
    """A computed goal returned something other than a :class:`Decision` whose ``proved`` is a
    ``bool``: a truthy stand-in (a SymPy expression, a tuple) would pass for a proof."""

    def __init__(self, goal: str, value: object) -> None:
        got = (f"Decision(proved={value.proved!r})" if isinstance(value, Decision)
               else type(value).__name__)
        super().__init__(f"goal {goal!r}: decide() returned {got}; it must return a Decision "
                         "whose proved is True or False")
        self.goal, self.value = goal, value


def decide(goal: ComputedGoal) -> GoalResult:
    start = time.perf_counter()
    decision = goal.decide()
    elapsed = time.perf_counter() - start
    if not isinstance(decision, Decision) or type(decision.proved) is not bool:
        raise UntypedDecisionError(goal.name, decision)
    if decision.proved:
        return GoalResult(goal.name, Verdict.PROVED, goal.solver, elapsed, decision.detail)
    if decision.unsupported:
        return GoalResult(goal.name, Verdict.UNKNOWN, goal.solver, elapsed,
                          f"unsupported: {decision.detail}")
    result = GoalResult(goal.name, Verdict.REFUTED, goal.solver, elapsed,
                        decision.detail or "counterexample found", dict(decision.counterexample))
    result.confirmed, result.report = replay_counterexample(goal.replay, decision.counterexample)
    return result
