"""The report document (JSON schema ``dpcert.report/1``), source of every other format.

Top level: ``schema``, ``generated`` (UTC, ISO 8601), ``commit``, ``versions`` (dpcert, z3-solver,
sympy, python), ``options`` (timeout, strict, empirical, samples, alpha, seed, shard,
arithmetic), ``gate`` (``passed``, ``obligations_proved``, ``proofs_pass``, ``empirical_pass``,
``exact_arithmetic_only``: the ids ``--arithmetic ieee`` refused), ``counts`` (obligations by
verdict), ``orphan_proofs`` and ``mechanisms``. Each mechanism: ``name``, ``summary``,
``description``, ``signature``, ``preconditions``, ``structure`` (domains, metrics or measure of
its first example), ``map_curve`` (``d_in`` and ``map`` of that example for d_in = 0..8; the
epsilon of an ``(epsilon, delta)`` map), ``obligations`` (one per obligation: id, kind,
statement, latex, verdict, label, solver, seconds, bound, arithmetic, under_exact_arithmetic,
assumes, cites, uses, message, goals with counterexample and replay report), ``empirical`` (each
test; privacy tests list their pairs with the loss estimate and its interval) and ``proof``
(file, PDF, problems, stale). Values taken from mechanisms are plain strings here; each renderer
escapes them.
"""

from __future__ import annotations

import datetime
import inspect
from dataclasses import asdict
from typing import Any

from checker.gate import GateRun
from checker.limits import time_limit
from checker.proofs.binding import PROOFS, ProofStatus, proof_name
from checker.proofs.documents import BUILD, current_commit
from checker.results import Verdict
from obligations.base import Entry

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
        with time_limit(EXAMPLE_SECONDS):
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


def _proof(status: ProofStatus | None) -> dict[str, Any] | None:
    if status is None:
        return None
    pdf = status.path.parent / BUILD / f"{status.path.stem}.pdf"
    return {"file": str(status.path), "pdf": str(pdf), "pdf_exists": pdf.is_file(),
            "bound": status.bound, "problems": status.problems, "stale": status.stale,
            "fingerprint": status.current, "vetted": status.vetted}


def _mechanism(entry: Entry, run: GateRun) -> dict[str, Any]:
    structure, curve, problem = _structure(entry)
    proofs = {s.mechanism: s for s in run.proofs}
    constructor = entry.constructor
    return {
        "name": entry.name,
        "summary": entry.summary,
        "description": _description(entry),
        "signature": f"{constructor.name}{constructor.signature}" if constructor else None,
        "preconditions": [p.text for p in constructor.preconditions] if constructor else [],
        "structure": structure,
        "structure_problem": problem,
        "map_curve": curve,
        "obligations": [r.to_json() for r in run.results if r.mechanism == entry.name],
        "empirical": [asdict(e) for e in run.empirical if e.mechanism == entry.name],
        "proof": _proof(proofs.get(entry.name)),
        "proof_name": proof_name(entry) if entry.proof else None,
    }


def report_document(run: GateRun, versions: dict[str, str]) -> dict[str, Any]:
    counts = {v.value: sum(r.verdict is v for r in run.results) for v in Verdict}
    options = asdict(run.options)
    options["shard"] = f"{run.options.shard[0]}/{run.options.shard[1]}"
    return {
        "schema": SCHEMA,
        "generated": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": current_commit(PROOFS.parent),
        "versions": versions,
        "options": options,
        "seconds": run.seconds,
        "gate": {"passed": run.passed, "obligations_proved": run.obligations_proved,
                 "proofs_pass": run.proofs_pass,
                 "empirical_pass": not any(e.failed for e in run.empirical),
                 "exact_arithmetic_only": [r.id for r in run.exact_only]},
        "counts": counts,
        "orphan_proofs": run.orphan_proofs,
        "mechanisms": [_mechanism(e, run) for e in run.entries],
    }


def obligations_of(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every obligation of a report document, by id."""
    return {o["id"]: o for m in document["mechanisms"] for o in m["obligations"]}
