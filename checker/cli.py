"""``dpcert``: list the catalogue, check obligations, gate CI on the verdicts, audit mechanisms.

Exit codes of ``dpcert check``: 0 every obligation proved (and, with ``--empirical``, no
violation found); 1 any obligation refuted, unknown or in error, or an empirical violation;
2 usage or load error (nothing was checked). ``dpcert audit``: 0 no violation found, 1 violation,
2 unknown (some pairs could not be tested, or ``--timeout`` stopped it; what was tested is shown)
or a usage error, 130 / 143 stopped by SIGINT / SIGTERM (what was tested so far is shown, and every
child process the target started is stopped).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from importlib import metadata
from typing import Any, Callable, Iterator, Sequence

from rich.console import Console
from rich.markup import escape
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.table import Table

from checker.audit import AuditTimeout, audit, check_timeout, load_target, read_pairs
from checker.empirical.privacy import PrivacyAudit
from checker.gate import GateRun, Options, run_gate
from checker.interrupts import Interrupted, StopOnSignals
from checker.loading import LoadError, catalogue_entry, select
from checker.report.baseline import read_baseline, regressions, removed
from checker.report.model import report_document
from checker.report.writing import write_report
from checker.proofs.binding import ProofError, ProofStatus, check_proofs, proof_name, vet
from checker.proofs.documents import compile_pdfs, generate
from obligations.catalogue import builtin_catalogue
from checker.results import ObligationResult, Verdict
from checker.runner import Task, apply_dependencies, run_tasks

EXIT_PROVED, EXIT_NOT_PROVED, EXIT_USAGE = 0, 1, 2
ARITHMETICS = ("exact", "ieee")
AUDIT_SCHEMA = "dpcert.audit/1"
AUDIT_ERROR_ROWS = 40
"""Pairs in error shown in the table (``--json`` lists every one)."""
AUDIT_EXIT = {"none found": EXIT_PROVED, "violation": EXIT_NOT_PROVED, "unknown": EXIT_USAGE}
"""``dpcert audit``'s exit code per verdict (2 for unknown: not a pass, not a finding)."""
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


def _print_empirical(console: Console, results: list, arguments: argparse.Namespace) -> None:
    table = Table(title=f"empirical tests (seed {arguments.seed}; not proofs: sampling can only "
                        "refute)")
    for column in ("mechanism", "example", "test", "result", "time"):
        table.add_column(column, justify="right" if column == "time" else "left")
    for e in results:
        style = "bold red" if e.failed else "green"
        table.add_row(escape(e.mechanism), escape(e.example), e.test,
                      f"[{style}]{escape(e.verdict)}[/]", f"{e.seconds:.2f} s")
    console.print(table)
    for e in results:
        console.print(f"  {e.mechanism} {e.example} ({e.test}): {e.summary}", markup=False)


def _print_proofs(console: Console, statuses: list[ProofStatus], orphan_proofs: list[str],
                  strict: bool) -> bool:
    """The proofs table; False when a binding fails, or (``strict``) a proof is stale."""
    table = Table(title="proofs (proofs_tex/)")
    for column in ("mechanism", "proof", "citations and code", "vetted"):
        table.add_column(column)
    for s in statuses:
        binding = "[green]bound[/]" if s.bound else f"[bold red]{len(s.problems)} problem(s)[/]"
        freshness = "-" if not s.path.is_file() else "[green]fresh[/]" if s.stale is None else (
            "[bold red]proof stale[/]" if strict else "[yellow]proof stale[/]")
        table.add_row(escape(s.mechanism), escape(s.path.name), binding, freshness)
    console.print(table)
    for s in statuses:
        for problem in s.problems + ([s.stale] if s.stale else []):
            console.print(f"  {s.mechanism}: {problem}", markup=False)
    for orphan in orphan_proofs:
        console.print(f"  {orphan}: a proof with no mechanism in the catalogue", markup=False)
    stale = any(s.stale for s in statuses)
    if stale and not strict:
        console.print("  stale proofs fail the gate only with --strict (CI uses it)")
    return all(s.bound for s in statuses) and not orphan_proofs and not (strict and stale)


def command_vet(arguments: argparse.Namespace) -> int:
    errors = _console(sys.stderr)
    try:
        entry = catalogue_entry(arguments.name)
        fingerprint = vet(entry)
    except (LoadError, ProofError) as error:
        errors.print(f"dpcert vet: {error}", markup=False)
        return EXIT_USAGE
    _console().print(f"{entry.name}: proof vetted against code fingerprint {fingerprint}",
                     markup=False)
    return EXIT_PROVED


def command_proofs(arguments: argparse.Namespace) -> int:
    console, errors = _console(), _console(sys.stderr)
    entries = [e for e in builtin_catalogue() if e.proof]
    results = run_tasks([Task(e.name, o, e.constructor) for e in entries for o in e.obligations], 60.0, 2)
    apply_dependencies(results)
    statuses, orphan_proofs = check_proofs(entries, entries, whole_catalogue=True)
    generate(entries, statuses, results)
    bound = _print_proofs(console, statuses, orphan_proofs, strict=False)
    if arguments.no_build:
        return EXIT_PROVED if bound else EXIT_NOT_PROVED
    try:
        compilations = compile_pdfs([proof_name(e) for e in entries])
    except FileNotFoundError as error:
        errors.print(f"dpcert proofs: {error}", markup=False)
        return EXIT_USAGE
    for c in compilations:
        console.print(f"{c.proof}: " + (f"[green]{escape(str(c.pdf))}[/]" if c.ok
                                        else "[bold red]LaTeX failed[/]"))
        if not c.ok:
            console.print(c.log_tail, markup=False)
    return EXIT_PROVED if bound and all(c.ok for c in compilations) else EXIT_NOT_PROVED


def _audit_table(console: Console, result: PrivacyAudit) -> None:
    if result.results:
        table = Table(title="privacy audit, worst pairs first")
        for column in ("x", "x'", "event", "count x", "count x'", "loss estimate", "loss >= (CI)",
                       "claim", "result"):
            table.add_column(column)
        ranked = sorted(result.results, key=lambda r: r.loss_lower - r.claim, reverse=True)
        for r in ranked[:12]:
            table.add_row(escape(repr(r.x)), escape(repr(r.x_prime)), escape(r.event),
                          str(r.count_x), str(r.count_x_prime), f"{r.loss_estimate:.4f}",
                          f"{r.loss_lower:.4f}", f"{r.claim:.4f}",
                          "[bold red]VIOLATION[/]" if r.violation else "ok")
        if len(ranked) > 12:
            table.caption = f"{len(ranked) - 12} more tested pair directions, all ok (--json)" \
                if not any(r.violation for r in ranked[12:]) else \
                f"{len(ranked) - 12} more tested pair directions (--json)"
        console.print(table)
    errors = result.errors
    if errors:
        table = Table(title="pairs not tested")
        for column in ("x", "x'", "why"):
            table.add_column(column)
        for e in errors[:AUDIT_ERROR_ROWS]:
            table.add_row(escape(repr(e.x)), escape(repr(e.x_prime)),
                          f"[bold magenta]{escape(e.message)}[/]")
        if len(errors) > AUDIT_ERROR_ROWS:
            table.caption = f"{len(errors) - AUDIT_ERROR_ROWS} more (--json lists every one)"
        console.print(table)


def _stopped_sentence(result: PrivacyAudit, seconds: float, timeout: float | None) -> str | None:
    """How far an audit stopped by the timeout got, or None."""
    if result.stopped != "timeout":
        return None
    limit = f" (--timeout {timeout:g} s)" if timeout else " (timeout)"
    return (f"stopped after {seconds:.1f} s{limit}: {len(result.results)} of {result.planned} "
            "tests run")


def _audit_document(arguments: argparse.Namespace, result: PrivacyAudit | None, verdict: str,
                    stopped: str | None, seconds: float, summary: str) -> dict[str, Any]:
    results = result.results if result is not None else []
    errors = result.errors if result is not None else []
    return {"schema": AUDIT_SCHEMA, "versions": _versions(),
            "target": arguments.target, "epsilon": arguments.epsilon,
            "alpha": arguments.alpha if result is None else result.alpha,
            "runs_per_input": arguments.samples if result is None else result.runs_per_input,
            "timeout": arguments.timeout, "seconds": round(seconds, 3),
            "verdict": verdict, "violation": verdict == "violation",
            "stopped": stopped,
            "planned": result.planned if result is not None else None,
            "screened": getattr(result, "screened", None),  # (pair, direction)s screened
            "summary": summary,
            "results": [{**asdict(r), "violation": r.violation} for r in results],
            "errors": [asdict(e) for e in errors]}


def _write_audit_json(path: str, document: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as stream:
        json.dump(document, stream, indent=2, default=repr)


@contextmanager
def _progress_bar() -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar with an ETA on stderr when stderr is a terminal; None otherwise (CI logs,
    pipes, files get nothing extra)."""
    console = Console(stderr=True)
    if not (console.is_terminal and sys.stderr.isatty()):
        yield None
        return
    columns = (TextColumn("auditing"), BarColumn(), MofNCompleteColumn(), TextColumn("runs"),
               TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("audit", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)
        yield update


def command_audit(arguments: argparse.Namespace) -> int:
    console, errors = _console(), _console(sys.stderr)
    started = time.monotonic()
    guard = StopOnSignals(defer=True)
    result = None
    try:
        with guard, _progress_bar() as bar:
            target = load_target(arguments.target)
            pairs = read_pairs(arguments.pairs) if arguments.pairs else None
            result = audit(target, arguments.epsilon, pairs, arguments.samples, arguments.alpha,
                           arguments.seed, timeout=arguments.timeout, progress=bar, guard=guard,
                           jobs=arguments.jobs)
    except Interrupted as interruption:  # a second signal, or one before any pair was known
        return _audit_interrupted(console, errors, arguments, interruption.name,
                                  interruption.exit_code, guard, None,
                                  time.monotonic() - started)
    except AuditTimeout as error:
        seconds = time.monotonic() - started
        summary = (f"UNKNOWN: stopped after {seconds:.1f} s (--timeout {arguments.timeout:g} s): "
                   f"0 tests run: {error}")
        console.print(summary, markup=False)
        if arguments.json:
            _write_audit_json(arguments.json, _audit_document(
                arguments, None, "unknown", "timeout", seconds, summary))
        return AUDIT_EXIT["unknown"]
    except (LoadError, ValueError, TypeError) as error:
        errors.print(f"dpcert audit: {error}", markup=False)
        return EXIT_USAGE
    except Exception as error:  # not one pair's failure (those are listed): the audit's own
        errors.print(f"dpcert audit: the audit failed: {type(error).__name__}: {error}",
                     markup=False)
        return EXIT_USAGE
    seconds = time.monotonic() - started
    if guard.received is not None:
        return _audit_interrupted(console, errors, arguments, guard.name, guard.exit_code, guard,
                                  result, seconds)
    verdict = result.verdict
    _audit_table(console, result)
    stopped = _stopped_sentence(result, seconds, arguments.timeout)
    if stopped:
        console.print(stopped, markup=False)
    console.print(result.summary(), markup=False)
    if arguments.json:
        _write_audit_json(arguments.json, _audit_document(
            arguments, result, verdict, result.stopped, seconds, result.summary()))
    return AUDIT_EXIT[verdict]


def _audit_interrupted(console: Console, errors: Console, arguments: argparse.Namespace,
                       name: str, code: int, guard: StopOnSignals, partial: PrivacyAudit | None,
                       seconds: float) -> int:
    """SIGINT / SIGTERM: one line on stderr, then what was tested so far; exit 128 + signal."""
    children = f"; stopped {len(guard.stopped)} child process(es)" if guard.stopped else ""
    errors.print(f"dpcert audit: stopped by {name} after {seconds:.1f} s{children}",
                 markup=False)
    if partial is not None:
        _audit_table(console, partial)
        console.print(f"stopped by {name}: {len(partial.results)} of {partial.planned} tests run",
                      markup=False)
        so_far = partial.summary()
        verdict = "violation" if partial.violations else "unknown"
    elif guard.count > 1:
        so_far = (f"stopped by {name} at once ({guard.count} signals): the tests run so far are "
                  "not reported")
        verdict = "unknown"
    else:
        so_far = f"stopped by {name} before any test was run"
        verdict = "unknown"
    console.print(so_far, markup=False)
    if arguments.json:
        _write_audit_json(arguments.json, _audit_document(arguments, partial, verdict, name,
                                                          seconds, so_far))
    return code


def options_from(arguments: argparse.Namespace) -> Options:
    """Validated gate options; ``ValueError`` names the bad one."""
    if arguments.timeout <= 0 or arguments.jobs < 1:
        raise ValueError("--timeout must be > 0 and --jobs >= 1")
    if arguments.samples < 10 or not 0 < arguments.alpha < 1:
        raise ValueError("--samples must be >= 10 and --alpha in (0, 1)")
    return Options(arguments.timeout, arguments.jobs, arguments.strict, arguments.empirical,
                   arguments.samples, arguments.alpha, arguments.seed, parse_shard(arguments.shard),
                   arguments.arithmetic)


def parse_shard(text: str) -> tuple[int, int]:
    try:
        index, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard takes I/N, such as 2/4, not {text!r}") from None
    if not 1 <= index <= count:
        raise ValueError(f"--shard {text}: need 1 <= I <= N")
    return index, count


def gate_from(arguments: argparse.Namespace) -> GateRun:
    """Run the gate the arguments ask for; LoadError or ValueError on bad input."""
    options = options_from(arguments)
    return run_gate(select(arguments.targets), options, whole_catalogue=not arguments.targets)


def command_report(arguments: argparse.Namespace) -> int:
    console, errors = _console(), _console(sys.stderr)
    try:
        baseline = read_baseline(arguments.baseline) if arguments.baseline else None
        run = gate_from(arguments)
    except (LoadError, ValueError) as error:
        errors.print(f"dpcert report: {error}", markup=False)
        return EXIT_USAGE
    document = report_document(run, _versions())
    written = write_report(document, Path(arguments.out))
    console.print("wrote " + ", ".join(str(p) for p in written), markup=False)
    counts = document["counts"]
    console.print(f"{sum(counts.values())} obligations: "
                  + ", ".join(f"{n} {v}" for v, n in counts.items())
                  + f"; gate {'passed' if run.passed else 'failed'}", markup=False)
    if baseline is None:
        return EXIT_PROVED if run.passed else EXIT_NOT_PROVED
    worse = regressions(baseline, document)
    for line in worse:
        console.print(f"  regression: {line}", markup=False)
    for obligation_id in removed(baseline, document):
        console.print(f"  removed since the baseline: {obligation_id}", markup=False)
    console.print("baseline: " + (f"{len(worse)} regression(s)" if worse else "nothing got worse"),
                  markup=False)
    return EXIT_NOT_PROVED if worse else EXIT_PROVED


def command_check(arguments: argparse.Namespace) -> int:
    console = _console()
    try:
        run = gate_from(arguments)
    except (LoadError, ValueError) as error:
        _console(sys.stderr).print(f"dpcert: {error}", markup=False)
        return EXIT_USAGE
    _print_results(console, run.results, arguments.verbose)
    counts = Counter(r.verdict.value for r in run.results)
    summary = ", ".join(f"{counts.get(v.value, 0)} {v.value}" for v in Verdict)
    console.print(f"\n{len(run.results)} obligations: {summary} in {run.seconds:.1f} s")
    if run.proofs or run.orphan_proofs:
        _print_proofs(console, run.proofs, run.orphan_proofs, arguments.strict)
    if arguments.empirical:
        _print_empirical(console, run.empirical, arguments)
        failed = sum(e.failed for e in run.empirical)
        console.print(f"{len(run.empirical)} empirical tests: {failed} with a violation or not run")
    for result in run.exact_only:
        console.print(f"--arithmetic ieee: {result.id} is {result.label}", markup=False)
    console.print("gate " + ("[green]passed[/]" if run.passed else "[bold red]failed[/] (it needs "
                             "every obligation proved"
                             + (" under the code's own arithmetic" if run.exact_only else "")
                             + " and every proof bound"
                             + (" and fresh" if arguments.strict else "")
                             + (", with no empirical violation)" if arguments.empirical else ")")))
    if arguments.json:
        with open(arguments.json, "w", encoding="utf-8") as stream:
            json.dump(report_document(run, _versions()), stream, indent=2, default=str)
    return EXIT_PROVED if run.passed else EXIT_NOT_PROVED


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="dpcert", description=__doc__.splitlines()[0])
    commands = root.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="list the built-in catalogue").set_defaults(run=command_list)
    check = commands.add_parser("check", help="prove the obligations; exit 0 only if all proved")
    check.add_argument("targets", nargs="*", metavar="NAME|module.py",
                       help="catalogue names (default: all) or paths of modules declaring MECHANISMS")
    check.add_argument("--json", metavar="FILE", help="write the results as JSON")
    check.add_argument("--verbose", "-v", action="store_true", help="show every goal")
    _gate_options(check)
    check.set_defaults(run=command_check)
    audit_ = commands.add_parser("audit", help="statistical privacy audit of any callable; exit 1 "
                                               "on a violation, 2 unknown")
    audit_.add_argument("target", metavar="TARGET",
                        help="path/to/file.py:callable or package.module:callable")
    audit_.add_argument("--epsilon", type=float, required=True, help="the claimed epsilon")
    audit_.add_argument("--pairs", metavar="PAIRS.json", help="JSON list of [x, x'] neighbours")
    audit_.add_argument("--json", metavar="OUT", help="write the results as JSON")
    audit_.add_argument("--timeout", type=_audit_timeout, default=None, metavar="S",
                        help="time limit for the whole audit, in seconds (a finite number > 0; "
                             "default none): reaching it stops drawing and testing, shows what "
                             "was tested, verdict unknown, exit 2. It is checked between calls "
                             "to the target, so a single call that never returns is not cut "
                             "short (Ctrl-C or SIGTERM stops it: exit 130 / 143)")
    audit_.add_argument("--jobs", type=_audit_jobs, default=None, metavar="N",
                        help="processes that draw the runs of different inputs, and screen "
                             "different pairs, at once (default: the cores this process may "
                             "use); the runs, and so the verdict, are the same for every N")
    _sampling_options(audit_)
    audit_.set_defaults(run=command_audit)
    report = commands.add_parser("report", help="write HTML, Markdown, JSON and JUnit XML reports")
    report.add_argument("targets", nargs="*", metavar="NAME|module.py",
                        help="catalogue names (default: all) or paths of modules")
    report.add_argument("--out", required=True, metavar="DIR", help="folder for the reports")
    report.add_argument("--baseline", metavar="OLD.json",
                        help="fail only on verdicts worse than in this earlier report.json")
    _gate_options(report)
    report.set_defaults(run=command_report)
    vet_ = commands.add_parser("vet", help="record that a reviewer re-read a proof against the "
                                           "current code")
    vet_.add_argument("name", help="catalogue name, or definitions for the lemmas")
    vet_.set_defaults(run=command_vet)
    proofs = commands.add_parser("proofs", help="generate code listings and verdict tables, "
                                                "build one PDF per proof")
    proofs.add_argument("--no-build", action="store_true", help="generate only")
    proofs.set_defaults(run=command_proofs)
    return root


def _audit_timeout(text: str) -> float:
    try:
        return check_timeout(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _audit_jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"--jobs must be a whole number >= 1, not {text!r}")
    return jobs


def _gate_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--timeout", type=float, default=30.0, metavar="S",
                         help="time limit per obligation, in seconds (default 30)")
    command.add_argument("--jobs", type=int, default=1, metavar="N",
                         help="obligations checked in parallel (default 1)")
    command.add_argument("--strict", action="store_true",
                         help="fail the gate on stale proofs too (CI uses it)")
    command.add_argument("--shard", default="1/1", metavar="I/N",
                         help="check only shard I of N (split a catalogue across CI workers)")
    command.add_argument("--arithmetic", choices=ARITHMETICS, default="exact",
                         help="ieee: also fail the gate on obligations proved only under exact "
                              "arithmetic, where the code rounds (default exact: accept them)")
    command.add_argument("--empirical", action="store_true",
                         help="also test each example on its running code (shown apart)")
    _sampling_options(command)


def _sampling_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--samples", type=int, default=50_000, metavar="N",
                         help="runs per input (default 50000)")
    command.add_argument("--alpha", type=float, default=1e-3, metavar="A",
                         help="false-alarm probability of the whole run (default 0.001)")
    command.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        arguments = parser().parse_args(argv)
    except SystemExit as exit_:
        return EXIT_USAGE if exit_.code not in (0, None) else EXIT_PROVED
    return arguments.run(arguments)
