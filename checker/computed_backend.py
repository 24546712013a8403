"""Goals decided by running code: SymPy computations and structural checks."""

from __future__ import annotations

import time

from checker.replaying import replay_counterexample
from checker.results import GoalResult, Verdict
from obligations.base import ComputedGoal


def decide(goal: ComputedGoal) -> GoalResult:
    start = time.perf_counter()
    decision = goal.decide()
    elapsed = time.perf_counter() - start
    if decision.proved:
        return GoalResult(goal.name, Verdict.PROVED, goal.solver, elapsed, decision.detail)
    if decision.unsupported:
        return GoalResult(goal.name, Verdict.UNKNOWN, goal.solver, elapsed,
                          f"unsupported: {decision.detail}")
    result = GoalResult(goal.name, Verdict.REFUTED, goal.solver, elapsed,
                        decision.detail or "counterexample found", dict(decision.counterexample))
    result.confirmed, result.report = replay_counterexample(goal.replay, decision.counterexample)
    return result
