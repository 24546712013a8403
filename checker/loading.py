"""Find what to check: built-in catalogue entries by name, or modules given by path.

A module outside the repository declares ``MECHANISMS``: a list of
:class:`obligations.base.Entry` (see README, "Checking your own mechanism").
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from traceback import FrameSummary
from types import ModuleType
from typing import Any, Sequence

from checker.import_probe import probe_import
from checker.user_code import is_user_code, user_location
from mechanisms.core import Constructor
from mechanisms.errors import DPCertError
from obligations.base import Entry
from obligations.kernel.statements import object_kind
from obligations.catalogue import LEMMAS, builtin_catalogue


class LoadError(DPCertError):
    """What to check could not be loaded; the message says what to do."""


def _where(location: FrameSummary | None) -> str:
    return "" if location is None else (f"\n  at {location.filename}, line {location.lineno}"
                                        + (f": {location.line}" if location.line else ""))


class ModuleImportError(LoadError):
    """Importing the module at ``path`` raised ``error`` (in the module itself or in one it
    imports); ``location`` is the line of the user's code where it happened, if one is known."""

    def __init__(self, path: str, error: BaseException, location: FrameSummary | None) -> None:
        super().__init__(f"{path} failed to import: {type(error).__name__}: {error}"
                         f"{_where(location)}")
        self.path, self.error, self.location = path, error, location


class ModuleExitError(LoadError):
    """Importing the module at ``path`` exited or hung (``outcome``, ``"exited"`` or ``"hung"``):
    ``detail`` says how (``SystemExit(0)``, ``os._exit(0)``, the time limit); ``location`` is the
    line of the user's code that was running, if one is known. Nothing was checked."""

    def __init__(self, path: str, outcome: str, detail: str, location: FrameSummary | None) -> None:
        what = "exited while being imported" if outcome == "exited" else "hung while being imported"
        super().__init__(f"{path} {what} ({detail}); nothing was checked: a checked module must "
                         f"only define its mechanisms when imported{_where(location)}")
        self.path, self.outcome, self.detail, self.location = path, outcome, detail, location


IMPORT_SECONDS = 30.0
"""How long a module may take to import (in the probing child) before it is called hung."""


def import_file(path: str, seconds: float = IMPORT_SECONDS) -> ModuleType:
    """A ``.py`` file imported as the module named by its stem, with its folder on ``sys.path``
    (so it can import its siblings, and reproducers can import it). It is first imported in a
    forked child (:mod:`checker.import_probe`): a module that exits or hangs there within
    ``seconds`` raises :class:`ModuleExitError` and is not imported here."""
    file = Path(path)
    if not file.is_file():
        raise LoadError(f"{path}: no such file")
    spec = importlib.util.spec_from_file_location(file.stem, file)
    if spec is None or spec.loader is None:
        raise LoadError(f"{path}: not a Python module")
    outcome, detail, location = probe_import(file, seconds, user_location, is_user_code)
    if outcome in ("exited", "hung"):
        raise ModuleExitError(path, outcome, detail, location)
    sys.path.insert(0, str(file.resolve().parent))
    module = importlib.util.module_from_spec(spec)
    sys.modules[file.stem] = module
    try:
        spec.loader.exec_module(module)
    except SystemExit as exited:  # exits here only, not in the probe: reported all the same
        raise ModuleExitError(path, "exited", f"SystemExit({exited.code!r})",
                              user_location(exited)) from None
    except Exception as error:
        raise ModuleImportError(path, error, user_location(error)) from error
    return module


def load_module(path: str, seconds: float = IMPORT_SECONDS) -> list[Entry]:
    module = import_file(path, seconds)
    entries = getattr(module, "MECHANISMS", None)
    if entries is None:
        raise LoadError(f"{path} declares no MECHANISMS; add MECHANISMS = [Entry(name, "
                        "constructor, obligations)], see README 'Checking your own mechanism'")
    if not isinstance(entries, (list, tuple)) or not all(isinstance(e, Entry) for e in entries):
        raise LoadError(f"{path}: MECHANISMS must be a list of obligations.base.Entry")
    if not entries:
        raise LoadError(f"{path}: MECHANISMS is empty, so nothing would be checked")
    return list(entries)


def load_attribute(spec: str, seconds: float = IMPORT_SECONDS, noun: str = "object") -> Any:
    """What ``file.py:name`` or ``package.module:name`` names (a ``noun``, in messages)."""
    location, _, name = spec.rpartition(":")
    if not location or not name:
        raise LoadError(f"target {spec!r} must be path/to/file.py:{noun} or "
                        f"package.module:{noun}")
    if location.endswith(".py"):
        module = import_file(location, seconds)
    else:
        try:
            module = importlib.import_module(location)
        except Exception as error:
            raise ModuleImportError(location, error, user_location(error)) from error
    if not hasattr(module, name):
        raise LoadError(f"{location} has no {noun} named {name!r}")
    return getattr(module, name)


def load_object(spec: str, seconds: float = IMPORT_SECONDS) -> Any:
    """The transformation or measurement that ``file.py:name`` names, or that the function it
    names returns when called with no argument."""
    found = load_attribute(spec, seconds)
    if object_kind(found) is None and callable(found) and not isinstance(found, Constructor):
        try:
            found = found()
        except Exception as error:
            raise LoadError(f"{spec}() raised {type(error).__name__}: {error}; name a built "
                            "transformation or measurement, or a function that takes no "
                            "argument and returns one") from error
    if object_kind(found) is None:
        raise LoadError(f"{spec} is of type {type(found).__name__}, not a transformation or "
                        "measurement; name a built one (or a function of no argument returning "
                        "one), or check a module's MECHANISMS with path/to/file.py alone")
    return found


def is_object_target(target: str) -> bool:
    """``file.py:name`` or ``package.module:name``: a built object, not a catalogue name or a
    module's MECHANISMS."""
    return ":" in target


def validate(entries: Sequence[Entry]) -> None:
    """Every lemma set has obligations, and no obligation id is declared twice. (A mechanism
    with none owes its standard statements all the same.)"""
    owners: dict[str, str] = {}
    for entry in entries:
        if entry.constructor is None and not entry.obligations:
            raise LoadError(f"{entry.name} has neither a constructor nor obligations: nothing "
                            "would be checked, so it cannot pass")
        for obligation in entry.obligations:
            if obligation.id in owners:
                raise LoadError(f"obligation id {obligation.id} is declared by both "
                                f"{owners[obligation.id]} and {entry.name}; give one a new prefix "
                                "(the obligation factories take prefix=...)")
            owners[obligation.id] = entry.name


def select(targets: Sequence[str], import_seconds: float = IMPORT_SECONDS) -> list[Entry]:
    """Entries named by ``targets`` (catalogue names, or ``.py`` paths, each given
    ``import_seconds`` to import); all built-ins if none."""
    catalogue = builtin_catalogue()
    if not targets:
        return catalogue
    by_name = {e.name: e for e in catalogue}
    by_name.update({e.name.removeprefix("make_"): e for e in catalogue})
    chosen: list[Entry] = []
    for target in targets:
        if target.endswith(".py") or "/" in target:
            chosen += load_module(target, import_seconds)
        elif target in by_name:
            chosen.append(by_name[target])
        else:
            known = ", ".join(e.name for e in catalogue)
            raise LoadError(f"unknown mechanism {target!r}; known: {known}, or a path to a .py file")
    validate(chosen)
    return chosen


def with_lemmas(entries: Sequence[Entry]) -> list[Entry]:
    """``entries`` plus the lemma obligations they rely on that they do not already include."""
    present = {o.id for e in entries for o in e.obligations}
    wanted = {u for e in entries for o in e.obligations for u in o.uses} - present
    lemmas = tuple(o for o in LEMMAS.obligations if o.id in wanted)
    return list(entries) + ([Entry(LEMMAS.name, None, lemmas, LEMMAS.summary)] if lemmas else [])


def catalogue_entry(name: str) -> Entry:
    """A built-in entry by name (``make_clamp``, ``clamp``, ``lemmas`` or ``definitions``)."""
    for entry in builtin_catalogue():
        if name in (entry.name, entry.name.removeprefix("make_")) or \
                (entry.constructor is None and name == "definitions"):
            return entry
    known = ", ".join(e.name for e in builtin_catalogue())
    raise LoadError(f"unknown mechanism {name!r}; known: {known}")
