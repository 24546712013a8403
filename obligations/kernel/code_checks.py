"""Checks of a rule's premise "the code runs one body and draws no randomness of its own", shared by
the rules that run code on solver terms (a build, an object's function, its map).

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
                           trusted: tuple[str, ...] = (), kernel: tuple[str, ...] = (),
                           draws: bool = True) -> None:
    """Raises :class:`RuleRefused` (for ``rule``) if the code of ``roots`` (``what`` names it)
    tests for solver terms or (``draws``) loads a random module; functions of the ``trusted``
    modules are not entered in the search for a random module, those of the ``kernel`` modules
    not at all."""
    roots = list(roots)
    key = (rule, tuple(id(r) for r in roots), what, trusted, kernel, draws)
    if key not in _SCANNED:  # the roots are kept, so that their ids are not reused
        _SCANNED[key] = (roots, _why_refused(roots, what, trusted, kernel, draws))
    why = _SCANNED[key][1]
    if why is not None:
        raise RuleRefused(rule, why)


def _why_refused(roots: list[Any], what: str, trusted: tuple[str, ...],
                 kernel: tuple[str, ...], draws: bool) -> str | None:
    """Why the code of ``roots`` fails the premise, or None when it meets it."""
    from obligations.one_body import DUAL_MODULES, solver_branches_from
    skipped = (*DUAL_MODULES, *trusted, *kernel)
    try:
        branches = solver_branches_from(roots, kernel)
        if branches:
            return f"{what} tests for solver terms ({'; '.join(branches)})"
        for root in roots if draws else ():
            for load in loads(root, enter=lambda f: f.__module__ not in skipped):
                module = getattr(load.value, "__name__", "") if load.value is not None else ""
                origin = getattr(load.value, "__module__", None) or module
                if any(str(origin).startswith(m) for m in RANDOM_MODULES):
                    return f"{what} draws randomness ({load.module}.{load.function}: {load.name})"
    except ScanLimitError as too_large:
        return f"{what} could not be scanned whole ({too_large})"
    return None


def build_one_body(rule: str, constructor: Any) -> None:
    """Raises :class:`RuleRefused` (for ``rule``) if the build of ``constructor`` tests for solver
    terms: a rule that runs the build on solver arguments proves what it builds from numbers only
    when both run one body. (What the build returns may draw: its objects' rules check that.)"""
    one_body_no_randomness(rule, [constructor.build], f"the build of {constructor.name}",
                           kernel=STAND_IN_MODULES, draws=False)


def map_one_body(rule: str, subject: str, built: Any) -> None:
    """Raises :class:`RuleRefused` (for ``rule``) if the map of ``built`` tests for solver terms or
    draws randomness: a rule that runs the map on solver terms proves what the map does on
    numbers only when both run one body."""
    maps = [getattr(built, name) for name in ("stability_map", "privacy_map")
            if hasattr(built, name)]  # built.map, in the shared layer, is not entered
    one_body_no_randomness(rule, [built.map, *maps], f"the map of {subject}",
                           kernel=STAND_IN_MODULES)


STAND_IN_MODULES = ("obligations.kernel.composition", "obligations.kernel.chain",
                    "obligations.kernel.conversion")
"""The kernel modules whose stand-in components a combinator is built on: their maps are the
kernel's own, made to run on solver terms, and are not entered."""


_SCANNED: dict[tuple, tuple[list[Any], str | None]] = {}
"""Each scan's answer (why it refused, or None), by rule, roots, their name and the trusted
modules; code does not change while the checker runs."""
