"""The identity of what a gate run checked: the repository's commit, whether its working tree
had uncommitted changes, and every module the checked mechanisms come from, by path and
SHA-256 of its content.

Paths never name the local machine: a file inside the repository is shown relative to it; a
file outside (a module checked from a path) relative to the current folder when it lies below
it, else by its file name alone. An external module is marked so: the commit says nothing about
it, its hash does.
"""

from __future__ import annotations

import inspect
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from checker.proofs.documents import current_commit, file_sha256
from obligations.base import Entry

REPOSITORY = Path(__file__).resolve().parent.parent.parent
"""The folder holding dpcert's packages: the git checkout, when run from one."""
IN_REPOSITORY, EXTERNAL = "repository", "external"


@dataclass(frozen=True)
class ModuleSource:
    """One checked module: its path as shown (see the module docstring), the SHA-256 of its
    content, and whether it lies in the repository the commit names."""

    path: str
    sha256: str
    origin: str


@dataclass(frozen=True)
class Identity:
    """What a run checked: ``commit`` (``unknown`` outside a git checkout), ``dirty`` (uncommitted
    changes, untracked files included; None when unknown), the modules, and per mechanism the
    paths of the modules it comes from."""

    commit: str
    dirty: bool | None
    modules: tuple[ModuleSource, ...] = ()
    by_mechanism: dict[str, tuple[str, ...]] = field(default_factory=dict)
    external_folders: tuple[str, ...] = ()
    """The local folders of the external modules (never written out: messages naming them are
    rewritten to the file name, as the modules are shown)."""


def working_tree_dirty(folder: Path) -> bool | None:
    """True when ``git status --porcelain`` lists any change in ``folder``'s repository; None
    when git cannot tell (no git, not a checkout)."""
    try:
        status = subprocess.run(["git", "status", "--porcelain"], cwd=folder, capture_output=True,
                                text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return bool(status.strip())


def shown_path(file: Path, root: Path = REPOSITORY) -> tuple[str, str]:
    """``file`` as a report shows it, and its origin (:data:`IN_REPOSITORY` or :data:`EXTERNAL`)."""
    resolved = file.resolve()
    if resolved.is_relative_to(root):
        return resolved.relative_to(root).as_posix(), IN_REPOSITORY
    here = Path.cwd().resolve()
    if resolved.is_relative_to(here):
        return resolved.relative_to(here).as_posix(), EXTERNAL
    return resolved.name, EXTERNAL


def local_prefixes(identity: Identity, root: Path = REPOSITORY) -> list[tuple[str, str]]:
    """The local folders a message may name (in a traceback, say), longest first, with what a
    report writes instead: nothing for the repository, the current folder and the external
    modules' folders (paths become relative, or file names), ``<python>`` for the interpreter's
    installation."""
    prefixes = {str(root): "", str(Path.cwd().resolve()): "", str(Path.cwd()): "",
                **dict.fromkeys(identity.external_folders, ""),
                sys.prefix: "<python>", sys.base_prefix: "<python>"}
    return sorted(((folder.rstrip("/") + "/", shown + "/" if shown else "")
                   for folder, shown in prefixes.items() if folder not in ("", "/")),
                  key=lambda pair: len(pair[0]), reverse=True)


def without_local_paths(value: Any, prefixes: list[tuple[str, str]]) -> Any:
    """``value`` (any JSON value) with every local folder in its strings replaced (see
    :func:`local_prefixes`)."""
    if isinstance(value, str):
        for folder, shown in prefixes:
            value = value.replace(folder, shown)
        return value
    if isinstance(value, dict):
        return {key: without_local_paths(item, prefixes) for key, item in value.items()}
    if isinstance(value, list):
        return [without_local_paths(item, prefixes) for item in value]
    return value


def _source_file(obj: Any) -> Path | None:
    """The file defining a function or class (through ``functools.partial``), if it has one."""
    obj = getattr(obj, "func", obj)
    try:
        name = inspect.getsourcefile(inspect.unwrap(obj))
    except TypeError:  # a builtin, or an object with no source
        return None
    return Path(name) if name else None


def _declaring_file(entry: Entry) -> Path | None:
    """The file of the loaded module whose ``MECHANISMS`` holds ``entry`` itself (a module
    checked from a path), if any."""
    for module in list(sys.modules.values()):
        declared = getattr(module, "MECHANISMS", None)
        if isinstance(declared, (list, tuple)) and any(e is entry for e in declared):
            file = getattr(module, "__file__", None)
            return Path(file) if file else None
    return None


def entry_files(entry: Entry) -> list[Path]:
    """The files an entry comes from: the module declaring it (when checked from a path), its
    constructor's ``build`` and each obligation's goals."""
    candidates: Iterable[Path | None] = (
        _declaring_file(entry),
        _source_file(entry.constructor.build) if entry.constructor is not None else None,
        *(_source_file(o.goals) for o in entry.obligations))
    files: list[Path] = []
    for file in candidates:
        if file is not None and file.is_file() and file.resolve() not in files:
            files.append(file.resolve())
    return files


def identity_of(entries: Sequence[Entry], root: Path = REPOSITORY) -> Identity:
    """The commit, the dirty flag and the modules of ``entries``, read now (a gate run reads it
    before checking)."""
    modules: dict[Path, ModuleSource] = {}
    by_mechanism: dict[str, tuple[str, ...]] = {}
    for entry in entries:
        paths = []
        for file in entry_files(entry):
            if file not in modules:
                modules[file] = module_source(file, root)
            paths.append(modules[file].path)
        by_mechanism[entry.name] = tuple(paths)
    ordered = tuple(sorted(modules.values(), key=lambda m: (m.origin != EXTERNAL, m.path)))
    folders = tuple(sorted({str(file.parent) for file, source in modules.items()
                            if source.origin == EXTERNAL and "/" not in source.path}))
    if not (root / ".git").exists():  # installed, not a checkout: an enclosing repository's
        return Identity("unknown", None, ordered, by_mechanism, folders)  # commit is not dpcert's
    return Identity(current_commit(root), working_tree_dirty(root), ordered, by_mechanism, folders)


def module_source(file: Path, root: Path = REPOSITORY) -> ModuleSource:
    """``file``'s path as shown, the SHA-256 of its content and its origin."""
    path, origin = shown_path(file, root)
    return ModuleSource(path, file_sha256(file), origin)
