"""Wrong twins of the catalogue beyond the seeds: one module per constructor, ``make_<name>.py``.

Each module declares ``MECHANISMS`` (entries of wrong variants, so ``dpcert check
tests/twins/make_<name>.py`` checks them); for a constructor with obligations,
``EXPECTED_REFUTATIONS`` (obligation ids the checker must refute with a confirmed
counterexample) and ``TWIN_OF`` (each catalogue obligation id of the constructor to the id of
its refuted twin); and optionally ``STATEMENT_TWIN_OF`` (for a
constructor with no obligations, each of its standard statements, ``(name, claim)``, to the
twin's statement the kernel must refute, confirmed; ``REFUTED_STATEMENTS``: more such twins) and
``UNSUPPORTED`` (variants outside the
proof methods, which must never be proved). This package gathers them for
tests/test_wrong_variants.py.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from obligations.base import Entry
from obligations.kernel.statements import Claim


def twin_modules() -> list[ModuleType]:
    return [importlib.import_module(f"{__name__}.{info.name}")
            for info in pkgutil.iter_modules(__path__) if info.name.startswith("make_")]


_MODULES = twin_modules()
MECHANISMS: list[Entry] = [e for m in _MODULES for e in m.MECHANISMS]
EXPECTED_REFUTATIONS: set[str] = {i for m in _MODULES
                                  for i in getattr(m, "EXPECTED_REFUTATIONS", set())}
TWIN_OF: dict[str, str] = {k: v for m in _MODULES for k, v in getattr(m, "TWIN_OF", {}).items()}
STATEMENT_TWIN_OF: dict[tuple[str, Claim], tuple[str, Claim]] = {
    k: v for m in _MODULES for k, v in getattr(m, "STATEMENT_TWIN_OF", {}).items()}
REFUTED_STATEMENTS: set[tuple[str, Claim]] = set(STATEMENT_TWIN_OF.values()) | {
    pair for m in _MODULES for pair in getattr(m, "REFUTED_STATEMENTS", set())}
UNSUPPORTED: list[Entry] = [e for m in _MODULES for e in getattr(m, "UNSUPPORTED", [])]
