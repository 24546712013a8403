"""Z3: a goal ``assumptions => claim`` is valid iff ``assumptions and not claim`` is unsatisfiable."""

from __future__ import annotations

import math
import struct
import time
from fractions import Fraction
from typing import Any

import z3

from checker.replaying import replay_counterexample
from checker.results import GoalResult, Verdict
from mechanisms import ops
from obligations.base import Z3Goal, is_true


def model_value(model: z3.ModelRef, term: Any) -> Any:
    """A solver value as a Python value: float (NaN, +-inf and -0.0 included), int, Fraction, bool."""
    value = model.eval(term, model_completion=True)
    if isinstance(value, z3.FPNumRef):
        if value.isNaN():
            return math.nan
        if value.isInf():
            return -math.inf if value.isNegative() else math.inf
        if value.sort() != z3.Float64():  # a smaller format: its value is a float64 exactly
            magnitude = abs(float(ops.numeral_value(value)))
            return -magnitude if value.isNegative() else magnitude
        bits = model.eval(z3.fpToIEEEBV(term), model_completion=True).as_long()
        return struct.unpack("<d", struct.pack("<Q", bits))[0]
    if isinstance(value, z3.IntNumRef):
        return value.as_long()
    if isinstance(value, z3.RatNumRef):
        return Fraction(value.numerator_as_long(), value.denominator_as_long())
    if isinstance(value, z3.AlgebraicNumRef):
        approximation = value.approx(30)
        return Fraction(approximation.numerator_as_long(), approximation.denominator_as_long())
    if z3.is_true(value) or z3.is_false(value):
        return z3.is_true(value)
    return str(value)


def _simple_values(term: Any) -> list[Any]:
    sort = term.sort()
    if isinstance(sort, z3.FPSortRef):
        return [z3.FPVal(v, sort) for v in (0.0, 1.0, -1.0, 2.0)] + [z3.fpNaN(sort)]
    if sort == z3.BoolSort():
        return [z3.BoolVal(False), z3.BoolVal(True)]
    if sort in (z3.IntSort(), z3.RealSort()):
        values = [0, 1, 2, 3, -1] + ([] if sort == z3.IntSort() else [Fraction(1, 2), Fraction(3, 4)])
        return [z3.RealVal(v) if sort == z3.RealSort() else z3.IntVal(v) for v in values]
    return []


def _smaller_values(term: Any) -> list[Any]:
    """Constraints that make a counterexample short, tried after the simple values fail:
    integers, then small magnitudes (and small denominators for reals); for floats, exponents
    of moderate size."""
    sort = term.sort()
    if sort == z3.IntSort():
        return [z3.And(-2 ** k <= term, term <= 2 ** k) for k in (4, 10, 20, 40)]
    if sort == z3.RealSort():
        integral = z3.IsInt(term)
        return [z3.And(integral, -2 ** k <= term, term <= 2 ** k) for k in (4, 10, 20)] + \
            [z3.And(z3.IsInt(term * 2 ** k), -2 ** 20 <= term, term <= 2 ** 20) for k in (4, 20)]
    if isinstance(sort, z3.FPSortRef):
        return [z3.Or(z3.fpIsZero(term), z3.And(z3.fpAbs(term) <= z3.FPVal(2.0 ** k, sort),
                                                z3.fpAbs(term) >= z3.FPVal(2.0 ** -k, sort)))
                for k in (4, 20, 60)]
    return []


SIMPLIFY_SECONDS = 5.0
"""At most this long is spent making a counterexample readable (per refuted goal)."""


def _simplified_model(solver: z3.Solver, goal: Z3Goal, deadline: float) -> z3.ModelRef:
    """A counterexample a person can read: each named constant is pinned, in turn, to the first
    of a few simple values (0, 1, 2, 1/2, NaN...) that keeps the negated goal satisfiable; a
    constant no simple value fits is kept small (an integer of few digits, a short fraction).
    Within :data:`SIMPLIFY_SECONDS` (and the goal's deadline); the solver's first model is kept
    when the pinned one cannot be re-found in time."""
    first = solver.model()
    deadline = min(deadline, time.perf_counter() + SIMPLIFY_SECONDS)
    for name, term in goal.variables.items():
        if not z3.is_const(term) or time.perf_counter() > deadline:
            continue
        for constraint in [term == value for value in _simple_values(term)] \
                + _smaller_values(term):
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                break
            solver.push()
            solver.add(constraint)
            solver.set("timeout", max(1, int(min(remaining, 2.0) * 1000)))
            if solver.check() == z3.sat:
                break
            solver.pop()
    solver.set("timeout", max(1, int(max(deadline - time.perf_counter(), 1.0) * 1000)))
    return solver.model() if solver.check() == z3.sat else first


class UntypedClaimError(TypeError):
    """A goal's claim or assumption is not a Boolean: ``bool()`` of a tuple or a lambda is true,
    so proving it would prove nothing."""

    def __init__(self, goal: str, role: str, value: Any) -> None:
        hint = (" (a tuple: did you mean z3.And(...)?)" if isinstance(value, (tuple, list))
                else " (a function: call it, or build the Z3 term)" if callable(value) else "")
        super().__init__(f"goal {goal!r}: its {role} is a {type(value).__name__}, not a Z3 "
                         f"Boolean{hint}; it cannot be proved")
        self.goal, self.role, self.value = goal, role, value


def _boolean(goal: str, role: str, value: Any) -> Any:
    """``value`` as a Z3 Boolean: a ``z3.BoolRef`` or a Python ``bool``; anything else raises."""
    if isinstance(value, z3.BoolRef) or type(value) is bool:
        return is_true(value)
    raise UntypedClaimError(goal, role, value)


def _unless_vacuous(name: str, assumptions: list[Any], elapsed: float,
                    deadline: float) -> GoalResult:
    """A valid goal is proved only if its assumptions have a witness: with assumptions no value
    meets (preconditions that exclude every parameter), every claim would hold vacuously."""
    key = tuple(a.get_id() for a in assumptions)
    if key in _WITNESSED:
        witness, reason = _WITNESSED[key][1], ""
    else:
        solver = z3.Solver()
        solver.set("timeout", max(1, int((deadline - time.perf_counter()) * 1000)))
        solver.add(*assumptions)
        witness, reason = solver.check(), ""
        if witness == z3.unknown:
            reason = solver.reason_unknown()
        else:
            _WITNESSED[key] = (assumptions, witness)
    if witness == z3.sat:
        return GoalResult(name, Verdict.PROVED, "z3", elapsed)
    if witness == z3.unsat:
        return GoalResult(name, Verdict.UNKNOWN, "z3", elapsed,
                          "vacuous: no value meets the goal's assumptions (the preconditions and "
                          "the case it covers), so its claim holds of nothing")
    return GoalResult(name, Verdict.UNKNOWN, "z3", elapsed,
                      f"vacuous?: no witness of the goal's assumptions was found "
                      f"({reason})")


_WITNESSED: dict[tuple[int, ...], tuple[list[Any], Any]] = {}
"""Whether each list of assumptions (by Z3's ids of its terms) has a witness, decided once per
process (an obligation's goals share their preconditions); the terms are kept so that their ids
are not reused. Only ``sat`` and ``unsat`` are kept."""


def prove(goal: Z3Goal, seconds: float) -> GoalResult:
    claim = _boolean(goal.name, "claim", goal.claim)
    if not isinstance(goal.assumptions, (list, tuple)):
        raise UntypedClaimError(goal.name, "assumptions (expected a list of Booleans)",
                                goal.assumptions)
    assumptions = [_boolean(goal.name, f"assumption {i}", a) for i, a in enumerate(goal.assumptions)]
    solver = z3.Solver()
    solver.set("timeout", max(1, int(seconds * 1000)))
    solver.add(*assumptions)
    solver.add(z3.Not(claim))
    start = time.perf_counter()
    outcome = solver.check()
    elapsed = time.perf_counter() - start
    if outcome == z3.unsat:
        return _unless_vacuous(goal.name, assumptions, elapsed, start + seconds)
    if outcome == z3.unknown:
        reason = solver.reason_unknown()
        kind = "time-out" if reason in ("timeout", "canceled") else "solver gave up"
        return GoalResult(goal.name, Verdict.UNKNOWN, "z3", elapsed, f"{kind}: {reason}")
    model = _simplified_model(solver, goal, start + seconds)
    counterexample = {name: model_value(model, term) for name, term in goal.variables.items()}
    result = GoalResult(goal.name, Verdict.REFUTED, "z3", elapsed,
                        "counterexample found", counterexample)
    result.confirmed, result.report = replay_counterexample(goal.replay, counterexample)
    return result
