"""The refutation searches a gate run makes, and a cache of those that found nothing.

The search (:mod:`obligations.refutation_search`) is untrusted: that it finds no refutation never
proves anything (a statement passes only on the kernel's theorem), so answering "none found"
from an earlier identical search can make no statement pass that the kernel did not prove. A
search is identical when its statement, its examples' calls, its time and what it varies are the
same, and so are the source of every module that can run in it (dpcert's packages, every module
loaded from outside the Python installation when the run's first search starts) and the versions
of Python and of the libraries. A
search cut short by its time is recorded as such: its time is CPU time of its process, so the
same search on the same machine stops at about the same candidate, and the cache makes a rerun
repeat it exactly.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Sequence

from obligations.kernel.statements import Statement
from obligations.kernel.theorems import Refutation
from obligations.refutation_search import propose_refutation

FORMAT = "dpcert.search-cache/1"
"""Written into every key: records of another format never answer."""
DPCERT_PACKAGES = ("mechanisms", "obligations", "checker")
LIBRARIES = ("z3-solver", "sympy", "mpmath", "numpy")
"""Libraries whose code runs in a search (a new version may compute otherwise)."""
MOST_RECORDS = 20_000
"""Records kept; past it, the oldest go when a run ends."""
DEFAULT_FOLDER = ".dpcert_cache"
"""Where ``dpcert check`` keeps its cache, below the current folder (``--cache-dir``)."""


@dataclass(frozen=True)
class Search:
    """How one statement's search went: ``cached`` when an identical search had found nothing
    and this one was not run; ``complete`` when it (or the cached one) was not cut short by its
    time; its CPU ``seconds`` (the cached one's, when cached)."""

    cached: bool
    complete: bool
    seconds: float


class SearchCache:
    """Records of searches that found nothing, one file per key, in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.records = folder / "search"
        self.records.mkdir(parents=True, exist_ok=True)
        ignore = folder / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# written by dpcert: its cache is never committed\n*\n")
        self._sources: str | None = None

    def key(self, statement: Statement, constructor: Any, calls: Sequence[str], seconds: float,
            varied: bool) -> str | None:
        """The SHA-256 naming one search: what it searches, and the code and versions it runs;
        None for a constructor not named by its code alone (a build defined in a function, whose
        closure the sources do not show)."""
        named = named_by_code(constructor)
        if named is None:
            return None
        if self._sources is None:
            self._sources = _sources_digest()
        what = [FORMAT, self._sources, named, statement.subject, statement.claim.value,
                statement.kind.value if statement.kind else None, statement.text, list(calls),
                seconds, varied]
        return hashlib.sha256(json.dumps(what).encode()).hexdigest()

    def found_nothing(self, key: str) -> Search | None:
        """How the identical search ``key`` went, when it found no refutation; None when it was
        not recorded (or its record cannot be read)."""
        try:
            record = json.loads((self.records / f"{key}.json").read_text())
            if record["key"] == key:
                return Search(cached=True, complete=record["complete"] is True,
                              seconds=float(record["seconds"]))
        except (OSError, ValueError, KeyError, TypeError):
            pass
        return None

    def record(self, key: str, statement: Statement, search: Search) -> None:
        """Record that the search ``key`` found nothing (written whole or not at all)."""
        text = json.dumps({"key": key, "subject": statement.subject,
                           "claim": statement.claim.value, "complete": search.complete,
                           "seconds": round(search.seconds, 3),
                           "recorded": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
        with tempfile.NamedTemporaryFile("w", dir=self.records, suffix=".tmp",
                                         delete=False) as partial:
            partial.write(text)
        os.replace(partial.name, self.records / f"{key}.json")

    def prune(self, most: int = MOST_RECORDS) -> None:
        """Keep the ``most`` newest records."""
        files = sorted(self.records.glob("*.json"), key=lambda f: f.stat().st_mtime)
        for stale in files[:max(0, len(files) - most)]:
            stale.unlink(missing_ok=True)


@dataclass
class Searches:
    """The searches of one gate run, each recorded by statement, answered from ``cache`` where
    an identical one found nothing."""

    cache: SearchCache | None = None
    done: dict[Statement, Search] = field(default_factory=dict)

    def refutation(self, statement: Statement, constructor: Any,
                   examples: Sequence[tuple[str, Any]], seconds: float,
                   varied: bool) -> Refutation | None:
        """The search's refutation of ``statement``, or None (see
        :func:`~obligations.refutation_search.propose_refutation`)."""
        key = (self.cache.key(statement, constructor, [call for call, _ in examples], seconds,
                              varied) if self.cache is not None else None)
        earlier = self.cache.found_nothing(key) if key is not None else None
        if earlier is not None:
            self.done[statement] = earlier
            return None
        start = time.process_time()
        try:
            searched = propose_refutation(statement, constructor, examples, seconds, varied)
        except BaseException:  # stopped (the proposal's wall limit, a signal): not recorded
            self.done[statement] = Search(False, False, time.process_time() - start)
            raise
        search = Search(cached=False, complete=searched.complete,
                        seconds=time.process_time() - start)
        self.done[statement] = search
        if key is not None and searched.refutation is None:
            self.cache.record(key, statement, search)
        return searched.refutation


def named_by_code(constructor: Any) -> list[Any] | None:
    """What names ``constructor`` given the sources: its name, its build's and validation's
    module and qualified name, its preconditions' texts; None for a built object alone
    (``constructor`` None: its object is not named by code) or a build or validation defined in a
    function (its closure may hold what the sources do not show)."""
    if constructor is None:
        return None
    functions = [f for f in (constructor.build, constructor.validate) if f is not None]
    if any(getattr(f, "__closure__", None) or "<" in getattr(f, "__qualname__", "<")
           for f in functions):
        return None
    return [constructor.name, *(f"{f.__module__}.{f.__qualname__}" for f in functions),
            *(p.text for p in constructor.preconditions)]


def _sources_digest() -> str:
    """The SHA-256 of every source that can run in a search: dpcert's packages, every module
    loaded from outside the Python installation, and the libraries' versions."""
    files = {str(path) for name in DPCERT_PACKAGES if (package := sys.modules.get(name)) is not None
             and getattr(package, "__file__", None)
             for path in Path(package.__file__).parent.rglob("*.py")}
    installed = tuple({os.path.join(folder, "") for key in ("stdlib", "purelib", "platlib")
                       for folder in (sysconfig.get_paths()[key],
                                      os.path.realpath(sysconfig.get_paths()[key]))})
    files |= {source for module in list(sys.modules.values())
              if isinstance(source := getattr(module, "__file__", None), str)
              and source.endswith(".py") and not source.startswith(installed)}
    digest = hashlib.sha256(sys.version.encode())
    for library in LIBRARIES:
        digest.update(f"{library} {_version(library)}".encode())
    for path in sorted(files):
        digest.update(path.encode() + b"\0" + _file_digest(path))
    return digest.hexdigest()


def _file_digest(path: str) -> bytes:
    """The SHA-256 of a file's content, read again only when its size or modification time
    changed (a process checks many runs of the gate)."""
    try:
        stat = os.stat(path)
    except OSError:
        return b"unreadable"
    key = (path, stat.st_mtime_ns, stat.st_size)
    if key not in _FILE_DIGESTS:
        try:
            _FILE_DIGESTS[key] = hashlib.sha256(Path(path).read_bytes()).digest()
        except OSError:
            return b"unreadable"
    return _FILE_DIGESTS[key]


_FILE_DIGESTS: dict[tuple[str, int, int], bytes] = {}


def _version(library: str) -> str:
    try:
        return version(library)
    except PackageNotFoundError:
        return "not installed"
