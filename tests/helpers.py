"""Helpers shared by test modules."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any, Collection
from unittest import mock

import pytest

from checker.limits import time_limit  # noqa: F401 - re-exported for the tests


def statements_by_claim(entry: Any, searched: Collection[Any] | None = None) -> dict[Any, Any]:
    """``entry``'s standard statements as the gate certifies them (no obligation results), by
    claim; the refutation search runs for the claims in ``searched`` only (all by default): a
    search that finds nothing runs to its time limit, and a test that asks about one claim need
    not wait for the others'."""
    from checker import gate
    search = gate.refuted

    def only(certified: Any, constructor: Any, examples: Any, searches: Any) -> Any:
        if searched is not None and certified.statement.claim not in searched:
            return certified
        return search(certified, constructor, examples, searches)
    with mock.patch.object(gate, "refuted", only):
        return {c.statement.claim: c for _, c in gate.certified_statements([entry], lambda _: ())}


def load_module(path: Path, name: str) -> ModuleType:
    """The module at ``path``, imported under ``name`` (not registered in ``sys.modules``)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


OUTSIDERS = Path(__file__).parent / "outsiders"


def outsider_constructors(verdict: str, prefix: str) -> list[Any]:
    """A ``pytest.param`` for each entry's constructor in the outsiders' ``verdict``
    (``"wrong"`` or ``"right"``) modules named ``prefix*.py``, its id the module's name."""
    return [pytest.param(entry.constructor, id=path.stem)
            for path in sorted((OUTSIDERS / verdict).glob(f"{prefix}*.py"))
            for entry in load_module(path, f"outsider_{path.stem}").MECHANISMS]


class ScriptedRng:
    """An rng whose first ``randrange`` returns ``sample`` and whose next one (the Bernoulli coin
    of ``sample_bernoulli_rational``, ``u < numerator``) makes the coin come out ``honest``."""

    def __init__(self, sample: int, honest: bool) -> None:
        self.draws = [lambda bound: sample, lambda bound: 0 if honest else bound - 1]

    def randrange(self, bound: int) -> int:
        return self.draws.pop(0)(bound)


class FixedDraw:
    """An rng whose every ``randrange(n)`` returns ``value`` (and records ``n``)."""

    def __init__(self, value: int) -> None:
        self.value, self.calls = value, []

    def randrange(self, n: int) -> int:
        self.calls.append(n)
        assert 0 <= self.value < n
        return self.value


CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars")
"""Debian's Chromium, headless, with nothing that reaches for the network (this machine has none)."""


def chromium(page: str, *args: str, profile: str) -> str:
    """Run headless Chromium on ``page`` (a path); returns its standard output."""
    import subprocess
    command = ["chromium", *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args, f"file://{page}"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout


FRESH_CHECKER = '''
import base64, os, pickle, sys
from checker.runner import Task, check_obligation
from tests import twins, wrong_variants
ENTRIES = [*wrong_variants.MECHANISMS, *wrong_variants.UNSUPPORTED, *twins.MECHANISMS,
           *twins.UNSUPPORTED]
BY_ID = {o.id: (e.name, o) for e in ENTRIES for o in e.obligations}
for line in sys.stdin:
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        mechanism, obligation = BY_ID[line.strip()]
        result = check_obligation(Task(mechanism, obligation), seconds=60)
        with os.fdopen(write, "wb") as pipe:
            pipe.write(base64.b64encode(pickle.dumps(result)))
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        answer = pipe.read()
    os.waitpid(child, 0)
    print(answer.decode() or "-", flush=True)
'''
"""A fresh interpreter that imports the wrong twins once, then checks one obligation per input
line (its id) in a forked child and prints the pickled result (base64; ``-`` if the child died)."""


class FreshChecker:
    """Checks the wrong twins' obligations as ``dpcert check`` does: each in a process forked
    from an interpreter that did nothing else. Z3's run time on a goal depends on the terms its
    process built before (a goal that takes 1 s in a fresh process was seen to time out at 60 s
    in a test worker after a few hundred other tests), so checking in the test process would
    make the verdicts depend on which tests ran first."""

    def __init__(self) -> None:
        import subprocess
        import sys
        from pathlib import Path
        self._server = subprocess.Popen([sys.executable, "-c", FRESH_CHECKER],
                                        cwd=Path(__file__).resolve().parent.parent, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._cache: dict = {}

    def __call__(self, obligation_id: str):
        """The :class:`checker.results.ObligationResult` of the twin obligation ``obligation_id``."""
        import base64
        import pickle
        if obligation_id not in self._cache:
            assert self._server.stdin is not None and self._server.stdout is not None
            self._server.stdin.write(obligation_id + "\n")
            self._server.stdin.flush()
            answer = self._server.stdout.readline().strip()
            assert answer not in ("", "-"), f"checking {obligation_id} crashed its process"
            self._cache[obligation_id] = pickle.loads(base64.b64decode(answer))
        return self._cache[obligation_id]

    def close(self) -> None:
        assert self._server.stdin is not None
        self._server.stdin.close()
        self._server.wait(timeout=30)
