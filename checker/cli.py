"""``dpcert``: list the catalogue, check obligations, gate CI on the verdicts.

Exit codes of ``dpcert check``: 0 every obligation proved; 1 any obligation refuted, unknown or in
error; 2 usage or load error (nothing was checked).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter
from importlib import metadata
from typing import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from checker.loading import LoadError, select, with_lemmas
from checker.results import ObligationResult, Verdict
from checker.runner import Task, apply_dependencies, run_tasks

EXIT_PROVED, EXIT_NOT_PROVED, EXIT_USAGE = 0, 1, 2
JSON_SCHEMA = "dpcert.check/1"
STYLES = {Verdict.PROVED: "green", Verdict.REFUTED: "bold red", Verdict.UNKNOWN: "yellow",
          Verdict.ERROR: "bold magenta"}


def _console(stream=None) -> Console:
    return Console(file=stream or sys.stdout, width=None if sys.stdout.isatty() else 140,
                   highlight=False)


def _versions() -> dict[str, str]:
    def version(package: str) -> str:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return "not installed"
    return {"dpcert": version("dpcert"), "z3-solver": version("z3-solver"),
            "sympy": version("sympy"), "python": platform.python_version()}


def command_list(_: argparse.Namespace) -> int:
    console = _console()
    table = Table(title="dpcert catalogue")
    for column in ("mechanism", "obligations", "summary"):
        table.add_column(column)
    for entry in select([]):
        table.add_row(escape(entry.name), escape("\n".join(o.id for o in entry.obligations)),
                      escape(entry.summary))
    console.print(table)
    return EXIT_PROVED


def _print_results(console: Console, results: list[ObligationResult], verbose: bool) -> None:
    table = Table(title="dpcert check")
    for column in ("mechanism", "obligation", "verdict", "solver", "time"):
        table.add_column(column, justify="right" if column == "time" else "left")
    for r in results:
        table.add_row(escape(r.mechanism), escape(r.id), f"[{STYLES[r.verdict]}]{escape(r.label)}[/]",
                      r.solver, f"{r.seconds:.2f} s")
    console.print(table)
    for r in results:
        if r.verdict is Verdict.PROVED and not verbose:
            continue
        console.print(f"\n[bold]{escape(r.id)}[/] [{STYLES[r.verdict]}]{escape(r.label)}[/]: "
                      f"{escape(r.statement)}")
        if r.message and not r.goals:
            console.print(f"  {r.message}", markup=False)
        for goal in r.goals:
            if goal.verdict is Verdict.PROVED and not verbose:
                continue
            console.print(f"  [{STYLES[goal.verdict]}]{goal.verdict.value}[/] {escape(goal.name)} "
                          f"({goal.solver}, {goal.seconds:.3f} s)")
            if goal.message:
                console.print(f"    {goal.message}", markup=False)
            if goal.counterexample:
                values = ", ".join(f"{k} = {v}" for k, v in goal.counterexample.items())
                console.print(f"    counterexample: {values}", markup=False)
            if goal.report:
                status = "confirmed on the real implementation" if goal.confirmed \
                    else "NOT confirmed on the real implementation"
                console.print(f"    replay: {status}")
                console.print("\n".join("      " + line for line in goal.report.splitlines()),
                              markup=False)


def command_check(arguments: argparse.Namespace) -> int:
    console = _console()
    errors = _console(sys.stderr)
    if arguments.timeout <= 0 or arguments.jobs < 1:
        errors.print("dpcert: --timeout must be > 0 and --jobs >= 1")
        return EXIT_USAGE
    try:
        entries = with_lemmas(select(arguments.targets))
    except LoadError as error:
        errors.print(f"dpcert: {error}", markup=False)
        return EXIT_USAGE
    tasks = [Task(e.name, o) for e in entries for o in e.obligations]
    start = time.perf_counter()
    results = run_tasks(tasks, arguments.timeout, arguments.jobs)
    apply_dependencies(results)
    elapsed = time.perf_counter() - start
    _print_results(console, results, arguments.verbose)
    counts = Counter(r.verdict.value for r in results)
    passed = all(r.verdict is Verdict.PROVED for r in results)
    summary = ", ".join(f"{counts.get(v.value, 0)} {v.value}" for v in Verdict)
    console.print(f"\n{len(results)} obligations: {summary} in {elapsed:.1f} s; gate "
                  + ("[green]passed[/]" if passed else "[bold red]failed[/] "
                     "(only proved obligations pass)"))
    if arguments.json:
        document = {"schema": JSON_SCHEMA, "versions": _versions(), "gate_passed": passed,
                    "counts": dict(counts), "seconds": elapsed,
                    "results": [r.to_json() for r in results]}
        with open(arguments.json, "w", encoding="utf-8") as stream:
            json.dump(document, stream, indent=2, default=str)
    return EXIT_PROVED if passed else EXIT_NOT_PROVED


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="dpcert", description=__doc__.splitlines()[0])
    commands = root.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="list the built-in catalogue").set_defaults(run=command_list)
    check = commands.add_parser("check", help="prove the obligations; exit 0 only if all proved")
    check.add_argument("targets", nargs="*", metavar="NAME|module.py",
                       help="catalogue names (default: all) or paths of modules declaring MECHANISMS")
    check.add_argument("--json", metavar="FILE", help="write the results as JSON")
    check.add_argument("--timeout", type=float, default=30.0, metavar="S",
                       help="time limit per obligation, in seconds (default 30)")
    check.add_argument("--jobs", type=int, default=1, metavar="N",
                       help="obligations checked in parallel (default 1)")
    check.add_argument("--verbose", "-v", action="store_true", help="show every goal")
    check.set_defaults(run=command_check)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    try:
        arguments = parser().parse_args(argv)
    except SystemExit as exit_:
        return EXIT_USAGE if exit_.code not in (0, None) else EXIT_PROVED
    return arguments.run(arguments)
