"""Checks of a rule's premise "the code runs one body and draws no randomness of its own", shared by
the rules that run an object's code on solver terms (:mod:`.row_transform`, :mod:`.additive_noise`).

The code reachable from the roots must not test for solver terms (only the shared dual layer,
:data:`obligations.one_body.DUAL_MODULES`, may) and must not load a random module: its only
randomness is what a rule accounts for (the samplers of :data:`KNOWN_LAW_MODULE`, whose draws the
additive-noise rule replaces).
"""

from __future__ import annotations

from typing import Any, Iterable

from obligations.kernel.rules import RuleRefused
from obligations.reach import ScanLimitError, loads

RANDOM_MODULES = ("random", "secrets", "numpy.random")
KNOWN_LAW_MODULE = "mechanisms.samplers"


def one_body_no_randomness(rule: str, roots: Iterable[Any], what: str,
                           trusted: tuple[str, ...] = ()) -> None:
    """Raises :class:`RuleRefused` (for ``rule``) if the code of ``roots`` (``what`` names it)
    tests for solver terms or loads a random module; functions of the ``trusted`` modules are not
    entered."""
    from obligations.one_body import DUAL_MODULES, solver_branches_from
    roots = list(roots)
    key = (rule, tuple(id(r) for r in roots), trusted)
    if key in _PASSED:
        return
    skipped = (*DUAL_MODULES, *trusted)
    try:
        branches = solver_branches_from(roots)
        if branches:
            raise RuleRefused(rule, f"{what} tests for solver terms ({'; '.join(branches)})")
        for root in roots:
            for load in loads(root, enter=lambda f: f.__module__ not in skipped):
                module = getattr(load.value, "__name__", "") if load.value is not None else ""
                origin = getattr(load.value, "__module__", None) or module
                if any(str(origin).startswith(m) for m in RANDOM_MODULES):
                    raise RuleRefused(rule, f"{what} draws randomness ({load.module}."
                                      f"{load.function}: {load.name})")
    except ScanLimitError as too_large:
        raise RuleRefused(rule, f"{what} could not be scanned whole ({too_large})") from None
    _PASSED[key] = roots  # the roots are kept, so that their ids are not reused


_PASSED: dict[tuple, list[Any]] = {}
"""The scans that passed, by rule, roots and trusted modules; code does not change while the
checker runs."""
