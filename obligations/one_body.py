"""One body of code: a constructor's code must not branch on whether it runs on solver terms.

The checker runs a constructor's ``build`` on Z3 terms and proves what that run computes. A
branch ``if ops.is_symbolic(x): <proved code> else: <running code>`` makes the two differ, so the
proof would be about code that never runs. Only the shared dual-semantics layer may tell numbers
from terms: :data:`DUAL_MODULES` (``ops`` gives Python's semantics on numbers and the same
semantics on terms, tested value by value in ``tests/test_ops.py``; ``arith``'s rounding-up
primitives are a fresh float at or above the exact value on terms, the lemma ``arith.round_up``
certifies the numeric loop, ``pow2_up`` checks its result is a power of two at or above its
argument; ``core``'s ``length`` reads a stand-in's length; ``domains`` skips the concrete bound
checks on terms, where the preconditions state them). Anything else that
loads ``is_z3``, ``is_symbolic`` or the ``z3`` / ``sympy`` modules in the code reachable from the
constructor (its build, preconditions, validation and everything they reach) makes every
obligation ``unknown (unsupported)``.
"""

from __future__ import annotations

import types
from typing import Any, Iterable

from obligations.base import ComputedGoal, Decision
from obligations.reach import ScanLimitError, loads

DUAL_MODULES = frozenset({"mechanisms.ops", "mechanisms.arith", "mechanisms.core",
                          "mechanisms.float_model", "mechanisms.domains"})
"""Modules allowed to tell numbers from solver terms (see the module docstring)."""
SOLVER_TESTS = frozenset({"is_z3", "is_symbolic"})
SOLVER_MODULES = frozenset({"z3", "sympy"})


def _roots(constructor: Any) -> Iterable[Any]:
    yield constructor.build
    yield constructor.validate
    for precondition in constructor.preconditions:
        yield from (precondition.holds, precondition.error)


def solver_branches(constructor: Any) -> list[str]:
    """``where: what`` for each place outside :data:`DUAL_MODULES` whose code, reachable from the
    constructor, tests for solver terms or uses a solver module."""
    return solver_branches_from(_roots(constructor))


def solver_branches_from(roots: Iterable[Any], skipped: tuple[str, ...] = ()) -> list[str]:
    """:func:`solver_branches` of the code reachable from ``roots``; functions of the ``skipped``
    modules are not entered."""
    found: set[str] = set()
    for root in roots:
        for load in loads(root, enter=lambda f: _mechanism_function(f)
                          and f.__module__ not in skipped):
            if load.name in SOLVER_TESTS and (load.value is None or getattr(
                    load.value, "__module__", "") in DUAL_MODULES):
                found.add(f"{load.module}.{load.function}: {load.name}")
            elif isinstance(load.value, types.ModuleType) and \
                    load.value.__name__.split(".")[0] in SOLVER_MODULES:
                found.add(f"{load.module}.{load.function}: the {load.value.__name__} module")
    return sorted(found)


def _mechanism_function(function: Any) -> bool:
    """Scanned: code outside the shared layer and the checker (whose type-test watch stands in
    for ``isinstance`` while goals are decided, see :mod:`checker.type_tests`)."""
    module = function.__module__ or ""
    return module not in DUAL_MODULES and not module.startswith("checker.")


def one_body_goal(constructor: Any) -> ComputedGoal:
    """Goal: :func:`solver_branches` finds nothing; otherwise ``unknown (unsupported)``."""
    def decide() -> Decision:
        try:
            branches = solver_branches(constructor)
        except ScanLimitError as too_large:
            return Decision(False, {"scan": str(too_large)}, "two bodies?: the constructor's code "
                            f"could not be scanned whole ({too_large})", unsupported=True)
        if branches:
            return Decision(False, {"branches": "; ".join(branches)},
                            "two bodies: the code branches on solver terms outside the shared "
                            f"ops layer ({'; '.join(branches)}), so the proof may cover code that "
                            "does not run", unsupported=True)
        return Decision(True, detail="no test for solver terms outside mechanisms.ops/arith/core")
    return ComputedGoal(f"{constructor.name} runs one body of code on numbers and solver terms "
                        "(no is_z3/is_symbolic branch outside the shared ops layer)",
                        "structure", decide)
