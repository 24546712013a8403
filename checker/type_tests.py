"""A second check of one body of code, at run time: while an obligation's goals are built and
decided, every ``isinstance`` that a mechanism's code (or a user's) applies to a Z3 or SymPy term
is recorded. ``isinstance(x, float)`` is False for a solver term, so a branch on it gives the
solver one body and the running code another; only the shared dual-semantics layer
(:data:`obligations.one_body.DUAL_MODULES`) may tell numbers from terms."""

from __future__ import annotations

import builtins
import functools
import sys
from pathlib import Path
from typing import Any

import sympy
import z3

from checker.user_code import NOT_USER_CODE
from obligations.base import ComputedGoal, Decision
from obligations.one_body import DUAL_MODULES

CHECKER_PACKAGES = ("checker", "obligations", "mutation")
"""dpcert's own code that is not mechanism code."""


@functools.lru_cache(maxsize=None)
def is_mechanism_code(module: str, filename: str) -> bool:
    """Code that proofs are about: the ``mechanisms`` package outside the shared layer, wherever
    it is installed, and users' files; not dpcert's checker, the standard library or an
    installed library (any ``site-packages``, so also one reached through a path entry)."""
    package = module.split(".")[0]
    if module in DUAL_MODULES or package in CHECKER_PACKAGES or filename.startswith("<"):
        return False
    if package == "mechanisms":
        return True
    file = Path(filename).resolve()
    installed = {"site-packages", "dist-packages"} & set(file.parts)
    return not installed and not any(file.is_relative_to(folder) for folder in NOT_USER_CODE)


class TypeTestWatch:
    """``with TypeTestWatch() as watch``: ``watch.found`` holds ``module.function, line N`` of
    each ``isinstance`` applied to a solver term by mechanism code meanwhile."""

    def __init__(self) -> None:
        self.found: set[str] = set()
        self._real = builtins.isinstance

    def __enter__(self) -> "TypeTestWatch":
        real, found = self._real, self.found

        def watched(obj: Any, classes: Any) -> bool:
            if real(obj, (z3.ExprRef, sympy.Basic)):
                caller = sys._getframe(1)
                module = caller.f_globals.get("__name__", "")
                if is_mechanism_code(module, caller.f_code.co_filename):
                    found.add(f"{module}.{caller.f_code.co_name}, line {caller.f_lineno}")
            return real(obj, classes)
        builtins.isinstance = watched
        return self

    def __exit__(self, *_: Any) -> None:
        builtins.isinstance = self._real

    def goal(self, what: str) -> ComputedGoal:
        """Goal: nothing was found; otherwise ``unknown (unsupported: two bodies)``."""
        found = "; ".join(sorted(self.found))

        def decide() -> Decision:
            if found:
                return Decision(False, {"type tests": found},
                                "two bodies: the code tests the type of a solver term outside the "
                                f"shared ops layer ({found}), so the solver follows another branch "
                                "than the running code", unsupported=True)
            return Decision(True, detail="no isinstance on a solver term outside the shared layer")
        return ComputedGoal(f"{what} never tests the type of a solver term (no isinstance outside "
                            "the shared ops layer)", "structure", decide)
