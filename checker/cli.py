"""``dpcert``: list the catalogue, check obligations, gate CI on the verdicts, audit mechanisms.

Exit codes of ``dpcert check``: 0 every standard statement proved by the kernel and every
obligation proved or not needed (and, with ``--empirical``, no violation found); 1 any statement
without a theorem, any obligation refuted, in error or unknown and needed, or an empirical
violation;
2 usage or load error (nothing was checked); 130 / 143 stopped by SIGINT / SIGTERM (every worker
process stopped, one line on stderr; every command but ``audit`` alike). ``dpcert audit``: 0 no
violation found, 1 violation, 2 unknown (some pairs could not be tested, or ``--timeout`` stopped
it; what was tested is shown) or a usage error, 130 / 143 stopped by SIGINT / SIGTERM (what was
tested so far is shown, and every child process the target started is stopped).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import tempfile
import time
import traceback
from collections import Counter
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from importlib import metadata
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.segment import Segments
from rich.table import Table

from checker.gate import GateRun, Options, certified_statements, run_gate
from checker.interrupts import Interrupted, StopOnSignals
from checker.loading import LoadError, catalogue_entry, is_object_target, load_object, select
from checker.report.wording import gate_sentence, plural
from checker.proofs.binding import ProofError, ProofStatus, check_proofs, proof_name, vet
from checker.proofs.documents import compile_pdfs, generate
from obligations.catalogue import builtin_catalogue
from checker.results import ObligationResult, Verdict
from obligations.kernel.certify import Certified
from obligations.kernel.statements import Statement
from obligations.kernel.theorems import PremiseKind
from checker.runner import Task, apply_dependencies, run_tasks
from checker.search_cache import DEFAULT_FOLDER, Search
from mechanisms.errors import DPCertError

if TYPE_CHECKING:
    from checker.empirical.privacy import PrivacyAudit
# The audit (SciPy, scikit-learn) and the report writers (Matplotlib) are imported by the commands
# that use them: `dpcert check` starts in under a second.

EXIT_PROVED, EXIT_NOT_PROVED, EXIT_USAGE = 0, 1, 2
ARITHMETICS = ("exact", "ieee")
AUDIT_SCHEMA = "dpcert.audit/1"
AUDIT_ERROR_ROWS = 40
"""Pairs in error shown in the table (``--json`` lists every one)."""
AUDIT_EXIT = {"none found": EXIT_PROVED, "violation": EXIT_NOT_PROVED, "unknown": EXIT_USAGE}
"""``dpcert audit``'s exit code per verdict (2 for unknown: not a pass, not a finding)."""
STYLES = {Verdict.PROVED: "green", Verdict.REFUTED: "bold red", Verdict.UNKNOWN: "yellow",
          Verdict.ERROR: "bold magenta"}


UNLIMITED_WIDTH = 10_000
"""The console width off a terminal when ``COLUMNS`` is not set (a CI log, a pipe, a file): no
line is wrapped or cut, each is as long as its content."""
MAX_GATE_TIMEOUT = 86_400.0
"""Largest ``--timeout`` of ``check`` and ``report``: one day per obligation."""
MAX_SEED = 2 ** 32 - 1
"""Largest ``--seed``: NumPy's global generator takes seeds below 2**32."""


def _console(stream: Any = None) -> Console:
    """Where a command prints (stdout, or ``stream``). Lines are never wrapped (soft wrap): a
    reproducer or counterexample copied from a CI log is the code that was printed. The width, for
    tables: ``COLUMNS`` when set, else the terminal's, else (off a terminal)
    :data:`UNLIMITED_WIDTH`."""
    file = stream or sys.stdout
    console = Console(file=file, highlight=False, soft_wrap=True)
    if not file.isatty() and not os.environ.get("COLUMNS", "").isdigit():
        console.width = UNLIMITED_WIDTH
    return console


def _print_table(console: Console, table: Table) -> None:
    """Print ``table`` with nothing cut: each ``no_wrap`` column (obligation ids, names, code) is
    as wide as its widest cell, other columns fold a word too long for them, and when the console
    is narrower than that the table is printed wider than the console."""
    wide = console.options.update_width(UNLIMITED_WIDTH)
    for column in table.columns:
        if column.no_wrap:
            column.min_width = max((Measurement.get(console, wide, cell).maximum
                                    for cell in column.cells), default=None)
        else:
            column.overflow = "fold"
    width = max(console.width, Measurement.get(console, wide, table).minimum)
    console.print(Segments(console.render(table, console.options.update_width(width))),
                  crop=False)


class UnwritableOutput(DPCertError):
    """An output a command was asked to write (``--json FILE``, ``--out DIR``) cannot be written
    at ``path``; ``reason`` says why. Checked before any work is done."""

    def __init__(self, option: str, path: str, reason: str) -> None:
        super().__init__(f"{option} {path}: {reason}; give a path where dpcert can write")
        self.option, self.path, self.reason = option, path, reason


def writable_file(option: str, path: str) -> None:
    """:class:`UnwritableOutput` unless a file can be written at ``path``: it is opened for
    appending (an existing file is left as it was; a file created here is removed)."""
    file = Path(path)
    existed = file.exists()
    try:
        with open(file, "a", encoding="utf-8"):
            pass
    except OSError as error:
        raise UnwritableOutput(option, path, f"cannot be written ({error.strerror})") from error
    if not existed:
        file.unlink()


def writable_folder(option: str, path: str) -> None:
    """:class:`UnwritableOutput` unless ``path`` is a folder, or can be made one, where files can
    be written: a temporary file is made (and removed) in it or in its nearest existing parent."""
    folder = Path(path)
    existing = next(p for p in (folder, *folder.parents) if p.exists())
    if not existing.is_dir():
        raise UnwritableOutput(option, path, f"{existing} is a file, not a folder")
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as error:
        raise UnwritableOutput(option, path, f"no file can be written in {existing} "
                                             f"({error.strerror})") from error


def _usage_error(command: str, error: BaseException, verbose: bool,
                 message: str | None = None) -> int:
    """``dpcert COMMAND: message`` (by default the error's own) on stderr, after the traceback
    (its causes included) with ``-v``; the usage exit code."""
    errors = _console(sys.stderr)
    if verbose:
        errors.print("".join(traceback.format_exception(error)), markup=False)
    errors.print(f"dpcert {command}: {message or error}", markup=False)
    return EXIT_USAGE


def _versions() -> dict[str, str]:
    def version(package: str) -> str:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return "not installed"
    return {"dpcert": version("dpcert"), "z3-solver": version("z3-solver"),
            "sympy": version("sympy"), "python": platform.python_version(),
            "opendp": version("opendp")}


def command_list(_: argparse.Namespace) -> int:
    console = _console()
    table = Table(title="dpcert catalogue")
    table.add_column("mechanism", no_wrap=True)
    table.add_column("obligations", no_wrap=True)
    table.add_column("summary")
    for entry in select([]):
        table.add_row(escape(entry.name), escape("\n".join(o.id for o in entry.obligations)),
                      escape(entry.summary))
    _print_table(console, table)
    return EXIT_PROVED


def _print_results(console: Console, results: list[ObligationResult], verbose: bool) -> None:
    """The obligations' table and what is not proved of them; nothing when the entries checked
    state none (their standard statements are printed after)."""
    if not results:
        return
    table = Table(title="dpcert check")
    for column in ("mechanism", "obligation", "verdict", "solver", "time"):
        table.add_column(column, justify="right" if column == "time" else "left",
                         no_wrap=column != "verdict")
    for r in results:
        table.add_row(escape(r.mechanism), escape(r.id), f"[{STYLES[r.verdict]}]{escape(r.label)}[/]",
                      r.solver, f"{r.seconds:.2f} s")
    _print_table(console, table)
    for r in results:
        if r.verdict is Verdict.PROVED and not verbose:
            continue
        console.print(f"\n[bold]{escape(r.id)}[/] [{STYLES[r.verdict]}]{escape(r.label)}[/]: "
                      f"{escape(r.statement)}")
        if r.message and all(g.verdict is Verdict.PROVED for g in r.goals):  # no goal says it
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


def _print_statements(console: Console, statements: list[tuple[str, Certified]]) -> None:
    """Each standard statement the kernel has no theorem for, with why; then the count and what
    the proved ones rest on."""
    for mechanism, certified in statements:
        if certified.refutation is not None:
            console.print(f"\n[bold]{escape(mechanism)}[/] [{STYLES[Verdict.REFUTED]}]"
                          f"{certified.statement.claim.value}: refuted (confirmed on the running "
                          f"code)[/]: {escape(certified.statement.text)}\n  "
                          f"{escape(certified.refutation.witness)}")
        elif not certified.proved:
            console.print(f"\n[bold]{escape(mechanism)}[/] [{STYLES[Verdict.UNKNOWN]}]"
                          f"{certified.statement.claim.value}: not proved[/]: "
                          f"{escape(certified.statement.text)}\n  {escape(certified.why)}")
    for subject in dict.fromkeys(name for name, c in statements if c.statement.built):
        _print_certificate(console, subject, [c for name, c in statements if name == subject])
    proved = [c for _, c in statements if c.proved]
    reviewed = sum(bool(c.theorem.rests_on(PremiseKind.REVIEWED_MODULE)) for c in proved)
    bounded = sum(bool(c.theorem.rests_on(PremiseKind.BOUNDED)) for c in proved)
    refuted = sum(c.refutation is not None for _, c in statements)
    console.print(f"{len(statements)} standard statements: {len(proved)} proved by the kernel's "
                  f"rules ({reviewed} resting on a reviewed proof module, {bounded} bounded), "
                  f"{len(statements) - len(proved)} not proved"
                  + (f" ({refuted} refuted, confirmed on the running code)" if refuted else ""),
                  markup=False)


def _print_searches(console: Console, searches: Mapping[Statement, Search],
                    cache: str | None) -> None:
    """One line: how many statements without a theorem, or with a bounded or assuming one, the
    refutation search looked at, how many searches ran, how many an identical earlier search
    answered from the cache, and how many were cut short by their time."""
    if not searches:
        return
    ran = sum(not s.cached for s in searches.values())
    cut = sum(not s.complete for s in searches.values())
    console.print(f"refutation search: {plural(len(searches), 'statement')} without a theorem, "
                  f"or with a bounded or assuming one: {ran} searched now, "
                  f"{len(searches) - ran} found nothing in an identical earlier search "
                  f"({f'cache {cache}' if cache else 'no cache'}); {cut} cut short by their time",
                  markup=False)


def _print_certificate(console: Console, subject: str, statements: list[Certified]) -> None:
    """A built object's statements, the rule of each theorem, and what they rest on."""
    kind = statements[0].statement.kind
    console.print(f"\ncertificate of {subject} ({kind.value if kind else 'unknown kind'}):",
                  markup=False)
    for certified in statements:
        verdict = (f"proved by {certified.theorem.rule}" if certified.theorem else
                   "REFUTED (confirmed on the running code)" if certified.refutation else
                   "NOT PROVED")
        console.print(f"  {certified.statement.claim.value}: {verdict}", markup=False)
    premises = list(dict.fromkeys(p for c in statements if c.theorem for p in c.theorem.premises))
    built_by = dict.fromkeys(p.text.rpartition(" of ")[2] for p in premises
                             if p.kind is PremiseKind.THEOREM)
    if built_by:
        console.print(f"  from the theorems of {', '.join(built_by)}, for every argument each "
                      "admits", markup=False)
    rests_on = [p for p in premises if p.kind not in (PremiseKind.PROVED, PremiseKind.THEOREM,
                                                      PremiseKind.COMPONENT)]
    if rests_on:
        console.print("  rests on:", markup=False)
        for premise in rests_on:
            console.print(f"    {premise}", markup=False)


def _print_empirical(console: Console, results: list, arguments: argparse.Namespace) -> None:
    table = Table(title=f"empirical tests (seed {arguments.seed}; not proofs: sampling can only "
                        "refute)")
    for column in ("mechanism", "example", "test", "result", "time"):
        table.add_column(column, justify="right" if column == "time" else "left",
                         no_wrap=column != "result")
    for e in results:
        style = "bold red" if e.failed else "green"
        table.add_row(escape(e.mechanism), escape(e.example), e.test,
                      f"[{style}]{escape(e.verdict)}[/]", f"{e.seconds:.2f} s")
    _print_table(console, table)
    for e in results:
        console.print(f"  {e.mechanism} {e.example} ({e.test}): {e.summary}", markup=False)


def _print_proofs(console: Console, statuses: list[ProofStatus], orphan_proofs: list[str],
                  strict: bool) -> bool:
    """The proofs table; False when a binding fails, or (``strict``) a proof is stale."""
    table = Table(title="proofs (proofs_tex/)")
    for column in ("mechanism", "proof", "citations and code", "vetted"):
        table.add_column(column, no_wrap=column in ("mechanism", "proof"))
    for s in statuses:
        binding = "[green]bound[/]" if s.bound else f"[bold red]{len(s.problems)} problem(s)[/]"
        freshness = "-" if not s.path.is_file() else "[green]fresh[/]" if s.stale is None else (
            "[bold red]proof stale[/]" if strict else "[yellow]proof stale[/]")
        table.add_row(escape(s.mechanism), escape(s.path.name), binding, freshness)
    _print_table(console, table)
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
    _console().print(f"{entry.name}: proof vetted ({fingerprint})",
                     markup=False)
    return EXIT_PROVED


def command_proofs(arguments: argparse.Namespace) -> int:
    console, errors = _console(), _console(sys.stderr)
    entries = [e for e in builtin_catalogue() if e.proof]
    results = run_tasks([Task(e.name, o, e.constructor) for e in entries for o in e.obligations],
                        60.0, arguments.jobs)
    apply_dependencies(results)
    statuses, orphan_proofs = check_proofs(entries, entries, whole_catalogue=True)
    statements = certified_statements(entries, lambda name: [r for r in results
                                                             if r.mechanism == name])
    generate(entries, statuses, results, statements)
    bound = _print_proofs(console, statuses, orphan_proofs, strict=False)
    if arguments.no_build:
        return EXIT_PROVED if bound else EXIT_NOT_PROVED
    try:
        compilations = compile_pdfs([proof_name(e) for e in entries], jobs=arguments.jobs)
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
        approximate = any(r.delta > 0 for r in result.results)
        last = ("P - e^claim P' >= (CI)", "delta") if approximate else ("loss >= (CI)", "claim")
        for column in ("x", "x'", "event", "count x", "count x'", "loss estimate", *last,
                       "result"):
            table.add_column(column, no_wrap=column in ("x", "x'"))
        ranked = sorted(result.results, key=lambda r: (r.excess_lower - r.delta) if approximate
                        else r.loss_lower - r.claim, reverse=True)
        for r in ranked[:12]:
            bound = (f"{r.excess_lower:.3g}", f"{r.delta:.3g}") if approximate else \
                (f"{r.loss_lower:.4f}", f"{r.claim:.4f}")
            table.add_row(escape(repr(r.x)), escape(repr(r.x_prime)), escape(r.event),
                          str(r.count_x), str(r.count_x_prime), f"{r.loss_estimate:.4f}",
                          *bound, "[bold red]VIOLATION[/]" if r.violation else "ok")
        if len(ranked) > 12:
            table.caption = f"{len(ranked) - 12} more tested pair directions, all ok (--json)" \
                if not any(r.violation for r in ranked[12:]) else \
                f"{len(ranked) - 12} more tested pair directions (--json)"
        _print_table(console, table)
    errors = result.errors
    if errors:
        table = Table(title="pairs not tested")
        for column in ("x", "x'", "why"):
            table.add_column(column, no_wrap=column != "why")
        for e in errors[:AUDIT_ERROR_ROWS]:
            table.add_row(escape(repr(e.x)), escape(repr(e.x_prime)),
                          f"[bold magenta]{escape(e.message)}[/]")
        if len(errors) > AUDIT_ERROR_ROWS:
            table.caption = f"{len(errors) - AUDIT_ERROR_ROWS} more (--json lists every one)"
        _print_table(console, table)


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
            "target": arguments.target, "epsilon": arguments.epsilon, "delta": arguments.delta,
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
    from checker.audit import AuditTimeout, audit, load_target, read_pairs
    console, errors = _console(), _console(sys.stderr)
    started = time.monotonic()
    guard = StopOnSignals(defer=True)
    result = None
    try:
        with guard, _progress_bar() as bar:
            if arguments.json:
                writable_file("--json", arguments.json)
            target = load_target(arguments.target)
            pairs = read_pairs(arguments.pairs) if arguments.pairs else None
            result = audit(target, arguments.epsilon, pairs, arguments.samples, arguments.alpha,
                           arguments.seed, timeout=arguments.timeout, progress=bar, guard=guard,
                           jobs=arguments.jobs, delta=arguments.delta)
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
    except (LoadError, UnwritableOutput, ValueError, TypeError) as error:
        return _usage_error("audit", error, arguments.verbose)
    except Exception as error:  # not one pair's failure (those are listed): the audit's own
        return _usage_error("audit", error, arguments.verbose,
                            f"the audit failed: {type(error).__name__}: {error}")
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
    """The gate options (each number checked by its argparse type); ``ValueError`` on a bad
    ``--shard``."""
    return Options(arguments.timeout, arguments.jobs, arguments.strict, arguments.empirical,
                   arguments.samples, arguments.alpha, arguments.seed, parse_shard(arguments.shard),
                   arguments.arithmetic, search_cache_folder(arguments))


def search_cache_folder(arguments: argparse.Namespace) -> str | None:
    """The folder of the search cache: ``--cache-dir``, else ``$DPCERT_CACHE_DIR``, else
    ``.dpcert_cache``; None with ``--no-cache``. :class:`UnwritableOutput` when it cannot be
    written."""
    if arguments.no_cache:
        return None
    folder = arguments.cache_dir or os.environ.get("DPCERT_CACHE_DIR") or DEFAULT_FOLDER
    writable_folder("--cache-dir", folder)
    return folder


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
    named = [t for t in arguments.targets if not is_object_target(t)]
    objects = [(t, load_object(t, arguments.timeout)) for t in arguments.targets
               if is_object_target(t)]
    entries = select(named, arguments.timeout) if named or not objects else []
    return run_gate(entries, options, whole_catalogue=not arguments.targets, objects=objects)


def command_report(arguments: argparse.Namespace) -> int:
    from checker.report.baseline import read_baseline, regressions, removed
    from checker.report.model import report_document
    from checker.report.writing import write_report
    console = _console()
    try:
        writable_folder("--out", arguments.out)
        baseline = read_baseline(arguments.baseline) if arguments.baseline else None
        run = gate_from(arguments)
    except (LoadError, UnwritableOutput, ValueError) as error:
        return _usage_error("report", error, arguments.verbose)
    document = report_document(run, _versions())
    written = write_report(document, Path(arguments.out))
    console.print("wrote " + ", ".join(str(p) for p in written), markup=False)
    counts = document["counts"]
    console.print(f"{sum(counts.values())} obligations: "
                  + ", ".join(f"{n} {v}" for v, n in counts.items())
                  + f"; gate {gate_sentence(document['gate'])}", markup=False)
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
        if arguments.json:
            writable_file("--json", arguments.json)
        run = gate_from(arguments)
    except (LoadError, UnwritableOutput, ValueError) as error:
        return _usage_error("check", error, arguments.verbose)
    _print_results(console, run.results, arguments.verbose)
    counts = Counter(r.verdict.value for r in run.results)
    summary = ", ".join(f"{counts.get(v.value, 0)} {v.value}" for v in Verdict)
    console.print(f"\n{len(run.results)} obligations: {summary} in {run.seconds:.1f} s")
    _print_statements(console, run.statements)
    _print_searches(console, run.searches, run.options.search_cache)
    if run.proofs or run.orphan_proofs:
        _print_proofs(console, run.proofs, run.orphan_proofs, arguments.strict)
    if arguments.empirical:
        _print_empirical(console, run.empirical, arguments)
        failed = sum(e.failed for e in run.empirical)
        console.print(f"{len(run.empirical)} empirical tests: {failed} with a violation or not run")
    for result in run.exact_only:
        console.print(f"--arithmetic ieee: {result.id} is {result.label}", markup=False)
    for result in run.not_needed:
        console.print(f"not needed: {result.id} is unknown, and the kernel proved every standard "
                      f"statement of {result.mechanism} without it", markup=False)
    console.print("gate " + ("[green]passed[/]" if run.passed else "[bold red]failed[/] (it needs "
                             "every obligation proved or not needed"
                             + (" under the code's own arithmetic" if run.exact_only else "")
                             + ", every standard statement proved by the kernel"
                             + " and every proof bound"
                             + (" and fresh" if arguments.strict else "")
                             + (", with no empirical violation)" if arguments.empirical else ")")))
    if arguments.json:
        from checker.report.model import report_document
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
    check.add_argument("--verbose", "-v", action="store_true",
                       help="show every goal, and the traceback of a usage or load error")
    _gate_options(check)
    check.set_defaults(run=command_check)
    audit_ = commands.add_parser("audit", help="statistical privacy audit of any callable; exit 1 "
                                               "on a violation, 2 unknown")
    audit_.add_argument("target", metavar="TARGET",
                        help="path/to/file.py:callable or package.module:callable")
    audit_.add_argument("--epsilon", type=_epsilon, required=True,
                        help="the claimed epsilon (a finite number >= 0)")
    audit_.add_argument("--delta", type=_delta, default=0.0,
                        help="the claimed delta, for an (epsilon, delta) claim (a number in "
                             "[0, 1); default 0: pure epsilon-DP)")
    audit_.add_argument("--pairs", metavar="PAIRS.json", help="JSON list of [x, x'] neighbours")
    audit_.add_argument("--json", metavar="OUT", help="write the results as JSON")
    audit_.add_argument("--timeout", type=_audit_timeout, default=None, metavar="S",
                        help="time limit for the whole audit, in seconds (a finite number > 0; "
                             "default none): reaching it stops drawing and testing, shows what "
                             "was tested, verdict unknown, exit 2. It is checked between calls "
                             "to the target, so a single call that never returns is not cut "
                             "short (Ctrl-C or SIGTERM stops it: exit 130 / 143)")
    audit_.add_argument("--jobs", type=_jobs, default=None, metavar="N",
                        help="processes that draw the runs of different inputs, and screen "
                             "different pairs, at once (default: the cores this process may "
                             "use); the runs, and so the verdict, are the same for every N")
    _sampling_options(audit_)
    _verbose_option(audit_)
    audit_.set_defaults(run=command_audit)
    report = commands.add_parser("report", help="write HTML, Markdown, JSON and JUnit XML reports")
    report.add_argument("targets", nargs="*", metavar="NAME|module.py",
                        help="catalogue names (default: all) or paths of modules")
    report.add_argument("--out", required=True, metavar="DIR", help="folder for the reports")
    report.add_argument("--baseline", metavar="OLD.json",
                        help="fail only on verdicts worse than in this earlier report.json")
    _gate_options(report)
    _verbose_option(report)
    report.set_defaults(run=command_report)
    vet_ = commands.add_parser("vet", help="record that a reviewer re-read a proof against the "
                                           "current code")
    vet_.add_argument("name", help="catalogue name, or definitions for the lemmas")
    vet_.set_defaults(run=command_vet)
    proofs = commands.add_parser("proofs", help="generate code listings and verdict tables, "
                                                "build one PDF per proof")
    proofs.add_argument("--no-build", action="store_true", help="generate only")
    proofs.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                        help="obligations checked and PDFs built in parallel (default 1)")
    proofs.set_defaults(run=command_proofs)
    return root


def _audit_timeout(text: str) -> float:
    from checker.audit import check_timeout
    try:
        return check_timeout(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _checked(flag: str, convert: Callable[[str], Any], admits: Callable[[Any], bool],
             rule: str) -> Callable[[str], Any]:
    """An argparse type for ``flag``: the text ``convert``ed, if ``admits`` it; else a usage error
    (exit 2) saying ``flag`` must be ``rule``."""
    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            value = None
        if value is None or not admits(value):
            raise argparse.ArgumentTypeError(f"{flag} must be {rule}, not {text!r}")
        return value
    return parse


_gate_timeout = _checked("--timeout", float, lambda s: math.isfinite(s) and 0 < s <= MAX_GATE_TIMEOUT,
                         f"a finite number of seconds in (0, {MAX_GATE_TIMEOUT:g}]")
_jobs = _checked("--jobs", int, lambda n: n >= 1, "a whole number >= 1")
_epsilon = _checked("--epsilon", float, lambda e: math.isfinite(e) and e >= 0,
                    "a finite number >= 0 (an infinite claim cannot be violated)")
_delta = _checked("--delta", float, lambda d: 0 <= d < 1,
                  "a number in [0, 1) (delta = 1 claims nothing)")
_samples = _checked("--samples", int, lambda n: n >= 10, "a whole number >= 10")
_alpha = _checked("--alpha", float, lambda a: 0 < a < 1, "a number in (0, 1)")
_seed = _checked("--seed", int, lambda s: 0 <= s <= MAX_SEED,
                 f"a whole number from 0 to {MAX_SEED} (2**32 - 1)")


def _verbose_option(command: argparse.ArgumentParser) -> None:
    command.add_argument("--verbose", "-v", action="store_true",
                         help="show the traceback of a usage or load error")


def _gate_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--timeout", type=_gate_timeout, default=30.0, metavar="S",
                         help="time limit per obligation, in seconds (default 30, at most "
                              f"{MAX_GATE_TIMEOUT:g})")
    command.add_argument("--jobs", type=_jobs, default=1, metavar="N",
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
    command.add_argument("--cache-dir", metavar="DIR",
                         help="where refutation searches that found nothing are remembered, so "
                              "that an identical search (same statement, code and versions) is "
                              f"not run again (default $DPCERT_CACHE_DIR, else {DEFAULT_FOLDER})")
    command.add_argument("--no-cache", action="store_true",
                         help="run every refutation search, and remember none")
    _sampling_options(command)


def _sampling_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--samples", type=_samples, default=50_000, metavar="N",
                         help="runs per input (default 50000, at least 10)")
    command.add_argument("--alpha", type=_alpha, default=1e-3, metavar="A",
                         help="false-alarm probability of the whole run (default 0.001)")
    command.add_argument("--seed", type=_seed, default=0, metavar="S",
                         help=f"seed, 0 to {MAX_SEED} (default 0)")


def _cwd_on_path() -> None:
    """Put the current directory first on ``sys.path``, where ``python -m checker`` has it, for
    the console script (whose ``sys.path[0]`` is its own bin folder): a target named as a module
    (``examples.opendp_targets:laplace``), or a checked file importing from where the command runs,
    then loads alike under both. Not under ``-P`` / ``PYTHONSAFEPATH``, where Python does not."""
    cwd = os.getcwd()
    if not getattr(sys.flags, "safe_path", False) and not {"", cwd} & set(sys.path):
        sys.path.insert(0, cwd)


def _run_stopping_on_signals(arguments: argparse.Namespace) -> int:
    """Run the chosen command so that SIGINT or SIGTERM stops it cleanly: every process it started
    (obligation workers and whatever they started) is stopped, SIGTERM then SIGKILL after 1 s, one
    line goes to stderr, and the exit code is 128 + the signal (130, 143). ``dpcert audit`` has a
    guard of its own inside this one, which reports what was tested so far."""
    guard = StopOnSignals()
    try:
        with guard:
            return arguments.run(arguments)
    except Interrupted as interruption:
        print(f"dpcert {arguments.command}: stopped by {interruption.name}; stopped "
              f"{len(guard.stopped)} worker process(es)", file=sys.stderr)
        return interruption.exit_code


def main(argv: Sequence[str] | None = None) -> int:
    """``dpcert ARGS``; the exit code. With no ``argv`` it is the program (the console script,
    ``python -m checker``), reading the command line, with the current directory on ``sys.path``."""
    if argv is None:
        _cwd_on_path()
    try:
        arguments = parser().parse_args(argv)
    except SystemExit as exit_:
        return EXIT_USAGE if exit_.code not in (0, None) else EXIT_PROVED
    return _run_stopping_on_signals(arguments)
