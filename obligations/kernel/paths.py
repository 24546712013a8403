"""Every path of code run on solver terms: a Python branch on a term (``if scale > 0:``) is
decided by the facts where they decide it, and otherwise taken both ways, the code run again
from the start along each prefix of decisions (as a symbolic executor re-executes). Each
:class:`Path` carries its condition, the sides it took: a goal proved of a path under it covers
every run whose arguments meet it, and the paths cover every argument the facts allow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import z3

from obligations.kernel.goals import deciding, require

PATHS = 8
"""The most paths one reading may have."""
SIDE_SECONDS = 2.0
"""How long Z3 may take to decide whether a side of a branch is possible; undecided, both are."""


@dataclass(frozen=True)
class Path:
    """One run: what the code returned, and the sides it took (Z3 booleans, all true on it)."""

    result: Any
    condition: tuple[Any, ...]


class _Decisions:
    """``bool`` of a solver term during one run: the side ``prefix`` gives, else the one the
    facts and the sides taken so far allow, else True, recording that False is open too."""

    def __init__(self, facts: Sequence[Any], prefix: list[bool]) -> None:
        self.facts, self.prefix = list(facts), prefix
        self.taken: list[bool] = []
        self.condition: list[Any] = []
        self.open: list[int] = []

    def __call__(self, term: Any) -> bool:
        if z3.is_true(term) or z3.is_false(term):
            return z3.is_true(term)
        index = len(self.taken)
        if index < len(self.prefix):
            side = self.prefix[index]
        else:
            true, false = self._possible(term), self._possible(z3.Not(term))
            side = true or not false
            if true and false:
                self.open.append(index)
        self.taken.append(side)
        self.condition.append(term if side else z3.Not(term))
        return side

    def _possible(self, side: Any) -> bool:
        solver = z3.Solver()
        solver.set("timeout", int(SIDE_SECONDS * 1000))
        solver.add(*self.facts, *self.condition, side)
        return solver.check() != z3.unsat


def every_path(rule: str, what: str, run: Callable[[], Any], facts: Sequence[Any]) -> list[Path]:
    """The paths of ``run()`` (which calls the code on terms) under ``facts``; refuses past
    :data:`PATHS` paths. Exceptions of ``run`` propagate."""
    paths: list[Path] = []
    pending: list[list[bool]] = [[]]
    while pending:
        prefix = pending.pop()
        decisions = _Decisions(facts, prefix)
        with deciding(decisions):
            result = run()
        paths.append(Path(result, tuple(decisions.condition)))
        pending += [decisions.taken[:index] + [False] for index in decisions.open]
        require(rule, len(paths) + len(pending) <= PATHS,
                f"{what} has more than {PATHS} paths on solver terms")
    return paths
