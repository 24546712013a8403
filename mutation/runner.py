"""Run the checker on each mutant, in an isolated copy of the project tree.

The base tree is ``git archive <rev>`` (with ``--rev``) or the working tree without ``.venv``,
``.git`` and build directories. Each mutant gets its own copy of the base tree with one mutated
module, and ``<python> -m checker check <constructor> --timeout S --json out.json`` runs with the
copy as working directory and as ``PYTHONPATH``, so the copy's packages shadow the editable install
of the main tree (:func:`verify_isolation` checks that before any mutant runs).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import io
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from mutation.operators import NEAREST_MODULE, Mutant, find_mutants

KILLED, UNKNOWN, NOT_LOADED, SURVIVED = "killed", "unknown/error", "did not load", "survived"
OUTCOMES = (KILLED, UNKNOWN, NOT_LOADED, SURVIVED)

EXCLUDED = {".venv", ".git", "build", "__pycache__", ".pytest_cache", ".hypothesis", "generated",
            ".mypy_cache", ".ruff_cache"}
"""Directory names left out of a working-tree copy (with ``*.egg-info``)."""

NEAREST_SOURCE = Path(__file__).with_name("nearest.py")


@dataclass
class Result:
    """What the checker said about one mutant."""

    id: str
    module: str
    constructor: str
    outcome: str
    exit_code: int | None
    seconds: float
    detail: str = ""
    verdicts: dict[str, str] = field(default_factory=dict)
    mutated_line: str = ""


def constructor_of(module: str) -> str:
    """The constructor ``mechanisms/<module>.py`` defines: the module's own name."""
    return module


def _ignore(directory: str, names: list[str]) -> set[str]:
    return {n for n in names if n in EXCLUDED or n.endswith(".egg-info")}


def prepare_base(project: Path, destination: Path, rev: str | None) -> Path:
    """The tree mutants are made from, in ``destination``: ``git archive rev`` or a copy of the
    working tree of ``project``."""
    if rev is None:
        shutil.copytree(project, destination, ignore=_ignore)
        return destination
    archive = subprocess.run(["git", "-C", str(project), "archive", "--format=tar", rev],
                             check=True, capture_output=True).stdout
    destination.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(destination, filter="data")
    return destination


def rev_commit(project: Path, rev: str | None) -> str:
    """The commit ``rev`` names (``HEAD`` plus a note for the working tree)."""
    name = rev or "HEAD"
    commit = subprocess.run(["git", "-C", str(project), "rev-parse", "--short", name],
                            capture_output=True, text=True).stdout.strip()
    return commit if rev is not None else f"working tree on {commit}"


def module_sources(base: Path, only: Iterable[str] = ()) -> dict[str, str]:
    """``{module: source}`` of ``base/mechanisms/make_*.py``, restricted to ``only`` if given."""
    wanted = set(only)
    return {p.stem: p.read_text(encoding="utf-8")
            for p in sorted((base / "mechanisms").glob("make_*.py"))
            if not wanted or p.stem in wanted}


def all_mutants(sources: dict[str, str]) -> list[Mutant]:
    return [m for module, source in sources.items() for m in find_mutants(module, source)]


def make_copy(base: Path, scratch: Path, module: str, source: str) -> Path:
    """A fresh copy of ``base`` in ``scratch`` with ``mechanisms/<module>.py`` replaced by
    ``source`` and the round-to-nearest helper at its root."""
    copy = Path(tempfile.mkdtemp(prefix="mutant-", dir=scratch))
    shutil.rmtree(copy)
    shutil.copytree(base, copy, ignore=_ignore)
    (copy / "mechanisms" / f"{module}.py").write_text(source, encoding="utf-8")
    shutil.copyfile(NEAREST_SOURCE, copy / f"{NEAREST_MODULE}.py")
    return copy


LIVE: set[subprocess.Popen] = set()
"""The checker processes running now (each in a session of its own)."""
LIVE_LOCK = threading.Lock()
STOPPING = threading.Event()


def _kill(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def kill_live() -> None:
    """Kill every checker process still running and start no more (on interruption: they run in
    sessions of their own, so they would outlive this process otherwise)."""
    with LIVE_LOCK:
        STOPPING.set()
        for process in list(LIVE):
            _kill(process)


def environment(copy: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(copy)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("PYTHONHOME", None)
    return env


def run_checker(copy: Path, constructor: str, python: str, timeout: float,
                wall: float) -> tuple[int | None, float, dict | None, str]:
    """Run the checker in ``copy``: ``(exit code or None on the wall limit, seconds, the JSON
    report or None, the end of its output)``."""
    out = copy / "mutant-report.json"
    command = [python, "-m", "checker", "check", constructor, "--timeout", str(timeout),
               "--json", str(out), "--no-cache"]
    started = time.monotonic()
    with LIVE_LOCK:
        if STOPPING.is_set():
            return None, 0.0, None, "interrupted"
        process = subprocess.Popen(command, cwd=copy, env=environment(copy),
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   start_new_session=True)
        LIVE.add(process)
    try:
        output, _ = process.communicate(timeout=wall)
        code: int | None = process.returncode
    except subprocess.TimeoutExpired:
        _kill(process)
        output, _ = process.communicate()
        code = None
    finally:
        LIVE.discard(process)
    seconds = time.monotonic() - started
    report = None
    if out.is_file():
        try:
            report = json.loads(out.read_text(encoding="utf-8"))
        except ValueError:
            report = None
    return code, seconds, report, (output or "")[-2000:]


def classify(code: int | None, report: dict | None, constructor: str,
             output: str) -> tuple[str, str, dict[str, str]]:
    """``(outcome, detail, {obligation id or "mechanism: claim": verdict})`` from one checker
    run; a standard statement's verdict is ``proved``, ``refuted`` (confirmed on the running
    code) or ``not proved``."""
    if code is None:
        return UNKNOWN, "wall limit reached", {}
    if code == 2 or report is None:
        lines = [line for line in output.strip().splitlines() if line.strip()]
        return NOT_LOADED, (lines[-1] if lines else f"exit {code}, no report")[:300], {}
    mechanisms = [m for m in report.get("mechanisms", []) if m.get("name") == constructor]
    verdicts = {o["id"]: o["verdict"] for m in report.get("mechanisms", [])
                for o in m.get("obligations", [])}
    verdicts |= {f"{m['name']}: {s['claim']}": "proved" if s["proved"] else
                 "refuted" if s.get("refuted") else "not proved"
                 for m in report.get("mechanisms", []) for s in m.get("statements", [])}
    problem = mechanisms[0].get("structure_problem", "") if mechanisms else ""
    if code == 0:
        if problem:  # the obligations hold, but the constructor's own example does not build
            return NOT_LOADED, f"gate passed, but the constructor cannot be built: {problem}"[:300], \
                verdicts
        return SURVIVED, "gate passed", verdicts
    refuted = [i for i, v in verdicts.items() if v == "refuted"]
    if refuted:
        return KILLED, "refuted: " + ", ".join(refuted), verdicts
    if problem:
        return NOT_LOADED, f"constructor cannot be built: {problem}"[:300], verdicts
    failing = [f"{i} {v}" for i, v in verdicts.items() if v != "proved"]
    if not failing:
        return UNKNOWN, "every obligation and statement proved, but the gate failed (proof " \
            "binding?)", verdicts
    return UNKNOWN, ", ".join(failing)[:300], verdicts


def mutated_line(mutant: Mutant, source: str) -> str:
    """The mutated source's line of the mutation, stripped (for the report)."""
    if mutant.operator == "drop_precondition":
        return "removed: " + source.splitlines()[mutant.line - 1].strip()
    lines = mutant.apply(source).splitlines()
    return lines[mutant.line - 1].strip() if mutant.line - 1 < len(lines) else ""


def run_mutant(mutant: Mutant, source: str, base: Path, scratch: Path, python: str,
               timeout: float, wall: float, keep: bool = False) -> Result:
    """Check one mutant in a copy of its own; the copy is removed afterwards unless ``keep``."""
    constructor = constructor_of(mutant.module)
    copy = make_copy(base, scratch, mutant.module, mutant.apply(source))
    try:
        code, seconds, report, output = run_checker(copy, constructor, python, timeout, wall)
    finally:
        if not keep:
            shutil.rmtree(copy, ignore_errors=True)
    outcome, detail, verdicts = classify(code, report, constructor, output)
    return Result(mutant.id, mutant.module, constructor, outcome, code, round(seconds, 2), detail,
                  verdicts, mutated_line(mutant, source))


def verify_isolation(base: Path, scratch: Path, python: str, module: str = "make_clamp") -> None:
    """Fail unless a copy's own code is what the checker imports: the copy's ``mechanisms``
    package is found first, and a module that raises on import is reported as not loaded."""
    source = (base / "mechanisms" / f"{module}.py").read_text(encoding="utf-8")
    copy = make_copy(base, scratch, module, source)
    try:
        probe = subprocess.run([python, "-c", "import mechanisms, checker, obligations; "
                                "print(mechanisms.__file__, checker.__file__, obligations.__file__)"],
                               cwd=copy, env=environment(copy), capture_output=True, text=True)
        files = probe.stdout.split()
        if len(files) != 3 or not all(Path(f).resolve().is_relative_to(copy.resolve())
                                      for f in files):
            raise RuntimeError(f"the copy's packages are not the ones imported: {probe.stdout!r} "
                               f"{probe.stderr[-500:]!r}")
        (copy / "mechanisms" / f"{module}.py").write_text(
            source + "\nraise ImportError('mutation sentinel')\n", encoding="utf-8")
        code, _, report, output = run_checker(copy, constructor_of(module), python, 30, 300)
        outcome, detail, _ = classify(code, report, constructor_of(module), output)
        if outcome != NOT_LOADED:
            raise RuntimeError(f"a mutant that cannot be imported was reported {outcome} ({detail}):"
                               " the checker did not import the copy")
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def run_all(mutants: list[Mutant], sources: dict[str, str], base: Path, scratch: Path,
            python: str = sys.executable, jobs: int = 2, timeout: float = 30,
            wall: float = 300, keep: bool = False,
            progress: Callable[[int, int, Result], None] | None = None) -> list[Result]:
    """Every mutant's result, in the order of ``mutants``, ``jobs`` at a time."""
    def one(mutant: Mutant) -> Result:
        return run_mutant(mutant, sources[mutant.module], base, scratch, python, timeout, wall,
                          keep)

    results: list[Result] = []
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        for result in pool.map(one, mutants):
            results.append(result)
            if progress is not None:
                progress(len(results), len(mutants), result)
    except BaseException:  # interrupted: start nothing more, stop what runs
        pool.shutdown(wait=False, cancel_futures=True)
        kill_live()
        raise
    pool.shutdown()
    return results


def as_json(result: Result) -> dict:
    return asdict(result)
