"""The report document (JSON schema ``dpcert.report/1``), source of every other format.

Top level: ``schema``, ``generated`` (UTC, ISO 8601), ``commit`` (the repository's, ``unknown``
outside a git checkout), ``dirty`` (uncommitted changes or untracked files in the repository when
the run started; null when git cannot tell), ``modules`` (every checked module: ``path``, relative
to the repository, or for an external module relative to the current folder or its file name;
``sha256`` of its content; ``origin``, ``repository`` or ``external``: the commit says nothing
about an external module, its hash does), ``versions`` (dpcert, z3-solver, sympy, python, and
opendp, the package the comparisons in the tests use, or ``not installed``), ``options``
(timeout, jobs, strict, empirical, samples, alpha, seed, shard, arithmetic, ``search_cache``:
the folder of the cache of refutation searches, or null), ``seconds``,
``gate`` (``passed``, ``obligations_proved``, ``statements_proved``, ``proofs_pass``, ``empirical_pass``,
``exact_arithmetic_only``: the ids ``--arithmetic ieee`` refused, ``not_needed``: the ids of
obligations left unknown that no theorem needs, ``failures``: why it failed,
one phrase each, ``not_counted``: what a pass leaves out, such as stale proofs without
``--strict``), ``counts`` (obligations by verdict), ``trust_base`` (of the proved obligations:
``cited`` and ``assumed``, each ``{"text", "obligations"}``; ``bounded`` and
``exact_arithmetic``, each ``{"obligation", "text"}``), ``kernel`` (the trusted kernel's
``modules`` and their ``lines``), ``refuters`` (the same for the refuters, trusted for
"confirmed" only), ``orphan_proofs``, ``proofs`` (every proof
checked, as below, with its ``mechanism``), ``objects`` (each built object checked as
``module.py:name``, with its ``statements`` as below) and ``mechanisms``. Each mechanism: ``name``,
``summary``, ``description`` (reST source), ``modules`` (the paths of the modules it comes from),
``signature``, ``preconditions``, ``structure`` (domains, metrics or measure of its first
example), ``map_curve`` (``d_in`` and ``map`` of that example for d_in = 0..8; the epsilon of an
``(epsilon, delta)`` map), ``obligations`` (one per obligation: id, kind, statement, latex,
verdict, label, solver, seconds, bound, arithmetic, under_exact_arithmetic, assumes, cites, uses,
message, goals with counterexample and replay report), ``statements`` (the standard statements
the kernel derived: claim, text, kind, proved, the ``rule`` of its theorem and what it
``rests_on``, each ``{"kind", "text"}``, or ``why`` it has none, and ``refuted``: null, or the
refuters' exact refutation ``{"rule", "witness", "loss", "claimed", "confirmed"}``; ``search``:
null for a statement proved outright, else how its refutation search went, ``{"cached"}``: an
identical earlier search found nothing and this one did not run, ``"complete"``: not cut short
by its time, ``"seconds"`` of CPU), ``empirical`` (each test; privacy tests
list their pairs with the loss estimate and its interval) and ``proof`` (``file``, ``pdf``, both
relative to the repository; ``pdf_state``: ``current`` when the PDF was built from the present
text, ``outdated``, ``missing``; ``bound``, ``problems``, ``stale``; ``seal``, what the proof would
record if vetted now, and ``vetted``, what it records). No value is an absolute local path: in
messages (a traceback, say) the repository and the current folder are left out of paths and the
Python installation reads ``<python>``. Values taken from mechanisms are plain strings here; each
renderer escapes them.
"""

from __future__ import annotations

import datetime
import inspect
from dataclasses import asdict
from pathlib import Path
from typing import Any

from checker.gate import GateRun
from checker.limits import no_exit, time_limit
from checker.proofs.binding import ProofStatus, proof_name
from checker.proofs.documents import pdf_path, pdf_state
from checker.report.identity import local_prefixes, shown_path, without_local_paths
from checker.report.wording import plural
from checker.results import ObligationResult, Verdict
from obligations.base import Entry
from obligations.kernel.certify import Certified
from obligations.kernel.theorems import Refutation

OBLIGATIONS_FOLDER = Path(__file__).resolve().parents[2] / "obligations"

SCHEMA = "dpcert.report/1"
MAP_POINTS = range(0, 9)
EXAMPLE_SECONDS = 10.0
"""Building the example and evaluating its map is cut off after this long (reported, not hung)."""


def _description(entry: Entry) -> str:
    if entry.constructor is None:
        return entry.summary
    module = inspect.getmodule(entry.constructor.build)
    return inspect.cleandoc(module.__doc__ or "") if module is not None else ""


def _plotted(d_out: Any) -> float:
    """A map's value as one number: itself, or the epsilon of an ``(epsilon, delta)`` pair."""
    return float(d_out[0]) if isinstance(d_out, tuple) else float(d_out)


def _structure(entry: Entry) -> tuple[dict[str, str] | None, dict[str, list] | None, str]:
    """Domains, metrics and the map curve of the entry's first example."""
    if not entry.examples:
        return None, None, ""
    example = entry.examples[0]
    try:
        with time_limit(EXAMPLE_SECONDS), no_exit():
            return _built_structure(example)
    except Exception as error:  # an example that fails to build is reported, not hidden
        return None, None, f"{example.call} raised {type(error).__name__}: {error}"


def _built_structure(example: Any) -> tuple[dict[str, str], dict[str, list], str]:
    built = example.make()
    structure = {"example": example.call, "input_domain": str(built.input_domain),
                 "output_domain": str(built.output_domain),
                 "input_metric": str(built.input_metric)}
    if hasattr(built, "output_metric"):
        structure["output_metric"] = str(built.output_metric)
    else:
        structure["output_measure"] = str(built.output_measure)
    curve = {"example": example.call, "d_in": list(MAP_POINTS),
             "map": [_plotted(built.map(d)) for d in MAP_POINTS]}
    return structure, curve, ""


def _proof(status: ProofStatus) -> dict[str, Any]:
    return {"mechanism": status.mechanism, "file": shown_path(status.path)[0],
            "pdf": shown_path(pdf_path(status.path))[0], "pdf_state": pdf_state(status.path),
            "bound": status.bound, "problems": status.problems, "stale": status.stale,
            "seal": status.current, "vetted": status.vetted}


def _mechanism(entry: Entry, run: GateRun, proofs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    structure, curve, problem = _structure(entry)
    constructor = entry.constructor
    return {
        "name": entry.name,
        "summary": entry.summary,
        "description": _description(entry),
        "modules": list(run.identity.by_mechanism.get(entry.name, ())),
        "signature": f"{constructor.name}{constructor.signature}" if constructor else None,
        "preconditions": [p.text for p in constructor.preconditions] if constructor else [],
        "structure": structure,
        "structure_problem": problem,
        "map_curve": curve,
        "obligations": [r.to_json() for r in run.results if r.mechanism == entry.name],
        "statements": [_statement(c, run) for name, c in run.statements if name == entry.name],
        "empirical": [asdict(e) for e in run.empirical if e.mechanism == entry.name],
        "proof": proofs.get(entry.name),
        "proof_name": proof_name(entry) if entry.proof else None,
    }


def _statement(certified: Certified, run: GateRun) -> dict[str, Any]:
    theorem, search = certified.theorem, run.searches.get(certified.statement)
    return {"claim": certified.statement.claim.value, "text": certified.statement.text,
            "kind": certified.statement.kind.value if certified.statement.kind else None,
            "proved": certified.proved, "why": certified.why,
            "rule": theorem.rule if theorem else None,
            "rests_on": [{"kind": p.kind.value, "text": p.text} for p in theorem.premises]
            if theorem else [],
            "refuted": _refutation(certified.refutation),
            "search": asdict(search) if search is not None else None}


def _refutation(refutation: Refutation | None) -> dict[str, Any] | None:
    """A refuter's exact refutation of a statement: the loss the running code reaches and the
    map's value, as exact decimal or fraction text (``inf`` for an infinite loss)."""
    if refutation is None:
        return None
    return {"rule": refutation.rule, "witness": refutation.witness,
            "loss": str(refutation.loss), "claimed": str(refutation.claimed), "confirmed": True}


def _trusted(package: str) -> dict[str, Any]:
    """The modules of one trusted package of ``obligations/`` and their line count."""
    modules = sorted((OBLIGATIONS_FOLDER / package).glob("*.py"))
    return {"modules": [f"obligations/{package}/{m.name}" for m in modules],
            "lines": sum(len(m.read_text().splitlines()) for m in modules)}


def _failures(run: GateRun) -> list[str]:
    """Why the gate failed, one phrase per reason; empty when it passed."""
    reasons = [
        (sum(r.verdict is not Verdict.PROVED for r in run.results) - len(run.not_needed),
         "obligation", "not proved"),
        (sum(not c.proved for _, c in run.statements), "standard statement",
         "without a theorem of the kernel"),
        (len(run.exact_only), "obligation",
         "proved only under exact arithmetic (--arithmetic ieee)"),
        (sum(not s.bound for s in run.proofs), "proof", "not bound"),
        (len(run.orphan_proofs), "proof file", "with no mechanism"),
        (len(run.stale_proofs) if run.options.strict else 0, "stale proof", "(--strict)"),
        (sum(e.failed for e in run.empirical), "empirical test",
         "with a violation, an error or nothing tested"),
    ]
    return [f"{plural(count, noun)} {why}" for count, noun, why in reasons if count]


def _not_counted(run: GateRun) -> list[str]:
    """What a pass leaves out under these options, one phrase each."""
    left_out = []
    if run.stale_proofs and not run.options.strict:
        left_out.append(f"not strict: {plural(len(run.stale_proofs), 'stale proof')} not counted")
    exact = [r for r in run.results if r.under_exact_arithmetic]
    if exact and run.options.arithmetic != "ieee":
        left_out.append(f"arithmetic exact: {plural(len(exact), 'obligation')} proved only under "
                        "exact arithmetic accepted")
    if run.not_needed:
        left_out.append(f"{plural(len(run.not_needed), 'obligation')} unknown and not needed: "
                        "the kernel proved every standard statement of "
                        f"{', '.join(sorted({r.mechanism for r in run.not_needed}))} without them")
    if run.options.shard[0] != 1:
        left_out.append(f"shard {run.options.shard[0]}/{run.options.shard[1]}: the proofs are "
                        "checked by shard 1")
    return left_out


def _trust_base(results: list[ObligationResult]) -> dict[str, list[dict[str, Any]]]:
    """What the proved verdicts rest on beyond the solvers: cited results, modelling
    assumptions, bounded instances and proofs under exact arithmetic, with their obligations."""
    proved = [r for r in results if r.verdict is Verdict.PROVED]
    cited: dict[str, list[str]] = {}
    assumed: dict[str, list[str]] = {}
    for r in proved:
        for source in r.cites:
            cited.setdefault(source, []).append(r.id)
        if r.assumes:
            assumed.setdefault(r.assumes, []).append(r.id)
    return {
        "cited": [{"text": text, "obligations": ids} for text, ids in sorted(cited.items())],
        "assumed": [{"text": text, "obligations": ids} for text, ids in sorted(assumed.items())],
        "bounded": [{"obligation": r.id, "text": r.bound} for r in proved if r.bound],
        "exact_arithmetic": [{"obligation": r.id, "text": r.arithmetic} for r in proved
                             if r.arithmetic],
    }


def report_document(run: GateRun, versions: dict[str, str]) -> dict[str, Any]:
    counts = {v.value: sum(r.verdict is v for r in run.results) for v in Verdict}
    options = asdict(run.options)
    options["shard"] = f"{run.options.shard[0]}/{run.options.shard[1]}"
    if run.options.search_cache is not None:
        options["search_cache"] = shown_path(Path(run.options.search_cache))[0]
    proofs = [_proof(s) for s in run.proofs]
    by_mechanism = {p["mechanism"]: p for p in proofs}
    return without_local_paths({
        "schema": SCHEMA,
        "generated": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": run.identity.commit,
        "dirty": run.identity.dirty,
        "modules": [asdict(m) for m in run.identity.modules],
        "versions": versions,
        "options": options,
        "seconds": run.seconds,
        "gate": {"passed": run.passed, "obligations_proved": run.obligations_proved,
                 "statements_proved": run.statements_proved,
                 "proofs_pass": run.proofs_pass,
                 "empirical_pass": not any(e.failed for e in run.empirical),
                 "exact_arithmetic_only": [r.id for r in run.exact_only],
                 "not_needed": [r.id for r in run.not_needed],
                 "failures": _failures(run), "not_counted": _not_counted(run)},
        "counts": counts,
        "trust_base": _trust_base(run.results),
        "kernel": _trusted("kernel"),
        "refuters": _trusted("refuters"),
        "orphan_proofs": run.orphan_proofs,
        "proofs": proofs,
        "mechanisms": [_mechanism(e, run, by_mechanism) for e in run.entries],
        "objects": [{"name": name, "statements": [_statement(c, run) for n, c in run.statements
                                                  if n == name]}
                    for name in dict.fromkeys(n for n, c in run.statements if c.statement.built)],
    }, local_prefixes(run.identity))


def obligations_of(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every obligation of a report document, by id."""
    return {o["id"]: o for m in document["mechanisms"] for o in m["obligations"]}
