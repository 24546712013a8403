"""Score the checker on a corpus of variant modules: ``wrong/`` must never pass the gate and be
refuted with a confirmed replay; ``right/`` must pass, except the few a README lists as outside
the proof method.

``python -m checker.corpus tests/outsiders [--readme README.md] [--jobs 2] [--out FILE.md]``
runs ``dpcert check --no-cache --timeout 10`` on every module (one process each, forked from
this one once the checker is imported; every refutation search runs), prints and writes a table,
and exits 0 only when the acceptance holds: no wrong variant passes, at least ``--refuted-share``
of them (default 90 %) are refuted and confirmed, every right variant passes or is listed, and
the listed ones are at most ``--outside-share`` (default 10 %) of the right ones.
Exit 2 on a usage error (no such folder, an empty corpus, a listed module that does not exist).
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import os
import re
import sys
import tempfile
import traceback
from dataclasses import dataclass
from multiprocessing.connection import wait
from pathlib import Path
from typing import Callable, Sequence

OUTSIDE_HEADING = "Correct variants outside the proof method"
"""The README section whose table rows (first cell a module name in backticks) list the right
variants the checker may reject."""
OBLIGATION_SECONDS = 10.0
"""Each module's ``--timeout``: every obligation the main and third corpora decided took under
3 s, and all four corpora give the same verdicts at this limit as at the gate's default of 30 s;
an obligation still running here is unknown, as it would be there (three listed right variants
time out, and each cut-off costs its seconds)."""


class CorpusError(ValueError):
    """The corpus or its README listing cannot be scored as given."""


@dataclass(frozen=True)
class Outcome:
    """What ``dpcert check`` said of one module."""

    module: str
    expected: str
    exit_code: int
    verdict: str
    """``passed``, ``refuted (confirmed)``, ``refuted (not confirmed)``, ``unknown``, ``error``,
    or ``load error``."""
    detail: str

    @property
    def passed(self) -> bool:
        return self.exit_code == 0


def _summary(document: dict) -> tuple[str, str]:
    """The worst verdict of a ``dpcert.report/1`` document and the obligations that carry it."""
    obligations = [o for m in document.get("mechanisms", []) for o in m.get("obligations", [])]
    refuted = [o for o in obligations if o["verdict"] == "refuted"]
    confirmed = [o for o in refuted if any(g.get("confirmed") for g in o["goals"])]
    refuted_statements = [(m["name"], s) for m in document.get("mechanisms", [])
                          for s in m.get("statements", []) if s.get("refuted")]
    if confirmed or refuted_statements:
        return "refuted (confirmed)", ", ".join([*(o["id"] for o in confirmed),
                                                 *(f"{name} {s['claim']}"
                                                   for name, s in refuted_statements)])
    if refuted:
        return "refuted (not confirmed)", ", ".join(o["id"] for o in refuted)
    for verdict in ("error", "unknown"):
        hit = [o for o in obligations if o["verdict"] == verdict]
        if hit:
            return verdict, "; ".join(f"{o['id']}: {o['label']}" for o in hit)
    unproved = [(m["name"], s) for m in document.get("mechanisms", [])
                for s in m.get("statements", []) if not s["proved"]]
    if unproved:
        return "unknown", "; ".join(f"{name} {s['claim']}: no theorem ({s['why']})"
                                    for name, s in unproved)
    return "passed", f"{len(obligations)} obligations proved"


def check_module(path: Path, expected: str, timeout: float) -> Outcome:
    """``dpcert check PATH --json`` in a process of its own; its exit code and worst verdict."""
    return checked_modules([(path, expected)], 1, timeout)[0]


def checked_modules(work: Sequence[tuple[Path, str]], jobs: int,
                    timeout: float) -> list[Outcome]:
    """:func:`check_module` of each ``(path, expected)``, ``jobs`` at a time, each in a process
    forked from this one after the checker is imported (the import is not paid per module)."""
    from checker.cli import main  # imported once, before the forks
    from obligations.catalogue import builtin_catalogue
    builtin_catalogue()
    gc.freeze()
    context = multiprocessing.get_context("fork")
    pending = list(enumerate(work))
    outcomes: dict[int, Outcome] = {}
    running: dict[int, tuple[int, multiprocessing.Process, tempfile.TemporaryDirectory]] = {}
    while pending or running:
        while pending and len(running) < max(1, jobs):
            index, (path, _) = pending.pop(0)
            scratch = tempfile.TemporaryDirectory()
            process = context.Process(target=_check,
                                      args=(main, path, Path(scratch.name), timeout))
            process.start()
            running[process.sentinel] = (index, process, scratch)
        for sentinel in wait(list(running)):
            index, process, scratch = running.pop(sentinel)
            process.join()
            path, expected = work[index]
            outcomes[index] = _outcome(path, expected, process.exitcode, Path(scratch.name))
            scratch.cleanup()
    return [outcomes[i] for i in sorted(outcomes)]


def _check(main: Callable[[list[str]], int], path: Path, scratch: Path, timeout: float) -> None:
    """The forked process of one module: ``dpcert check`` (``main``), its output to
    ``scratch/output``; exits with its exit code."""
    with open(scratch / "output", "w", encoding="utf-8") as output:
        os.dup2(output.fileno(), 1)
        os.dup2(output.fileno(), 2)
        sys.stdout = sys.stderr = output  # whatever stood for them in this process before
        code = 1
        try:
            code = main(["check", str(path), "--json", str(scratch / "report.json"),
                         "--timeout", str(timeout), "--no-cache"])
        except BaseException:  # noqa: BLE001 - the checker's own failure: shown, and exit 1
            traceback.print_exc()
        finally:
            output.flush()
            os._exit(code)


def _outcome(path: Path, expected: str, exit_code: int | None, scratch: Path) -> Outcome:
    report = scratch / "report.json"
    code = -1 if exit_code is None else exit_code
    if code == 2 or not report.exists():
        output = scratch / "output"
        lines = output.read_text(errors="replace").strip().splitlines() if output.exists() else []
        return Outcome(path.stem, expected, code, "load error",
                       lines[-1] if lines else f"no output (exit code {code})")
    verdict, detail = _summary(json.loads(report.read_text()))
    return Outcome(path.stem, expected, code, "passed" if code == 0 else verdict, detail)


def listed_outside(readme: Path, heading: str = OUTSIDE_HEADING) -> set[str]:
    """Module names in the table of the README's section ``heading``."""
    text = readme.read_text(encoding="utf-8")
    start = text.find(heading)
    if start < 0:
        return set()
    section = text[start:].split("\n#", 1)[0]
    return set(re.findall(r"^\| `([\w.]+?)(?:\.py)?` ", section, flags=re.MULTILINE))


def modules(corpus: Path) -> dict[str, list[Path]]:
    if not corpus.is_dir():
        raise CorpusError(f"{corpus}: no such folder")
    found = {side: sorted(p for p in (corpus / side).glob("*.py") if not p.name.startswith("_"))
             for side in ("wrong", "right")}
    if not any(found.values()):
        raise CorpusError(f"{corpus}: no wrong/*.py or right/*.py modules to score")
    return found


@dataclass(frozen=True)
class Score:
    outcomes: list[Outcome]
    outside: set[str]
    refuted_share: float
    outside_share: float

    def failures(self) -> list[str]:
        """Every acceptance point not met, in words; empty when the corpus is scored clean."""
        wrong = [o for o in self.outcomes if o.expected == "wrong"]
        right = [o for o in self.outcomes if o.expected == "right"]
        problems = [f"wrong variant {o.module} passes the gate" for o in wrong if o.passed]
        problems += [f"{o.expected} variant {o.module} did not load: {o.detail}"
                     for o in self.outcomes if o.verdict == "load error"]
        confirmed = sum(o.verdict == "refuted (confirmed)" for o in wrong)
        if wrong and confirmed < self.refuted_share * len(wrong):
            problems.append(f"only {confirmed} of {len(wrong)} wrong variants are refuted with a "
                            f"confirmed replay (need {self.refuted_share:.0%})")
        problems += [f"right variant {o.module} is rejected ({o.verdict}: {o.detail}) and not "
                     "listed as outside the proof method" for o in right
                     if not o.passed and o.module not in self.outside]
        unknown = self.outside - {o.module for o in right}
        problems += [f"README lists {name} as outside the proof method, but there is no such "
                     "right variant" for name in sorted(unknown)]
        if right and len(self.outside & {o.module for o in right}) > self.outside_share * len(right):
            problems.append(f"{len(self.outside)} right variants are listed as outside the proof "
                            f"method: more than {self.outside_share:.0%} of {len(right)}")
        return problems

    def markdown(self) -> str:
        wrong = [o for o in self.outcomes if o.expected == "wrong"]
        right = [o for o in self.outcomes if o.expected == "right"]
        confirmed = sum(o.verdict == "refuted (confirmed)" for o in wrong)
        lines = [f"wrong variants: {len(wrong)}, passing the gate: "
                 f"{sum(o.passed for o in wrong)}, refuted and confirmed: {confirmed}",
                 f"right variants: {len(right)}, passing: {sum(o.passed for o in right)}, "
                 f"listed as outside the proof method: {len(self.outside)}", "",
                 "| module | expected | exit | verdict | detail |", "|---|---|---|---|---|"]
        lines += [f"| `{o.module}` | {o.expected} | {o.exit_code} | {o.verdict} | "
                  f"{o.detail.replace('|', '/')[:200]} |" for o in self.outcomes]
        return "\n".join(lines) + "\n"


def score(corpus: Path, readme: Path, jobs: int, timeout: float, refuted_share: float,
          outside_share: float, heading: str = OUTSIDE_HEADING) -> Score:
    found = modules(corpus)
    work = [(path, side) for side, paths in found.items() for path in paths]
    return Score(checked_modules(work, jobs, timeout), listed_outside(readme, heading),
                 refuted_share, outside_share)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m checker.corpus", description=__doc__)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--readme", type=Path, default=Path("README.md"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=OBLIGATION_SECONDS)
    parser.add_argument("--refuted-share", type=float, default=0.9)
    parser.add_argument("--outside-share", type=float, default=0.1)
    parser.add_argument("--out", type=Path, help="write the table as Markdown")
    parser.add_argument("--heading", default=OUTSIDE_HEADING,
                        help="the README section whose table lists the right variants the "
                             "checker may reject")
    arguments = parser.parse_args(argv)
    try:
        result = score(arguments.corpus, arguments.readme, arguments.jobs, arguments.timeout,
                       arguments.refuted_share, arguments.outside_share, arguments.heading)
    except (CorpusError, OSError) as problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    table = result.markdown()
    print(table)
    if arguments.out:
        arguments.out.write_text(table, encoding="utf-8")
    failures = result.failures()
    for failure in failures:
        print(f"FAIL: {failure}")
    print("corpus accepted" if not failures else f"corpus not accepted: {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
