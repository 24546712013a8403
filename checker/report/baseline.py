"""``--baseline OLD.json``: a change fails only on what got worse since the baseline report.

Worse: an obligation proved before and not now, a new obligation not proved, an obligation
newly refused by ``--arithmetic ieee`` (proved only under exact arithmetic), proofs that stopped
passing, an empirical test that newly failed (a violation, an error, nothing tested). A baseline
is read and checked field by field before anything runs: a report missing a field the comparison
reads is a usage error naming it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from checker.empirical.runner import NONE_FOUND
from checker.loading import LoadError
from checker.report.model import SCHEMA, obligations_of

REQUIRED = {
    "gate": {"proofs_pass": bool, "exact_arithmetic_only": list},
    "mechanism": {"name": str, "obligations": list, "empirical": list},
    "obligation": {"id": str, "verdict": str, "label": str},
    "empirical": {"mechanism": str, "example": str, "test": str, "verdict": str},
}
"""The fields the comparison reads, and their JSON types, per object of a report."""


class BaselineError(LoadError):
    """A baseline that cannot be compared with: the message names the file and the field."""


def _check_fields(value: Any, kind: str, where: str) -> None:
    """``value`` is an object holding every field :data:`REQUIRED` names for ``kind``."""
    if value is None:
        raise BaselineError(f"{where} is missing")
    if not isinstance(value, dict):
        raise BaselineError(f"{where} is not an object")
    for name, type_ in REQUIRED[kind].items():
        if name not in value:
            raise BaselineError(f"{where} has no {name!r} field")
        if not isinstance(value[name], type_):
            raise BaselineError(f"{where}: {name!r} is not a {type_.__name__} "
                                f"(it is {type(value[name]).__name__})")


def check_baseline(document: dict[str, Any]) -> None:
    """Raise :class:`BaselineError` naming the first field the comparison needs and lacks."""
    _check_fields(document.get("gate"), "gate", "'gate'")
    mechanisms = document.get("mechanisms")
    if not isinstance(mechanisms, list):
        raise BaselineError("'mechanisms' is missing or not a list")
    for i, mechanism in enumerate(mechanisms):
        where = f"mechanisms[{i}]"
        _check_fields(mechanism, "mechanism", where)
        for j, obligation in enumerate(mechanism["obligations"]):
            _check_fields(obligation, "obligation", f"{where} ({mechanism['name']}) obligations[{j}]")
        for j, test in enumerate(mechanism["empirical"]):
            _check_fields(test, "empirical", f"{where} ({mechanism['name']}) empirical[{j}]")


def read_baseline(path: str) -> dict[str, Any]:
    """The baseline report at ``path``, checked; :class:`LoadError` (a usage error) otherwise."""
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise LoadError(f"baseline {path}: {error}") from None
    if not isinstance(document, dict) or document.get("schema") != SCHEMA:
        raise LoadError(f"baseline {path} is not a {SCHEMA} report (write one with dpcert report)")
    try:
        check_baseline(document)
    except BaselineError as error:
        raise BaselineError(f"baseline {path} cannot be compared with: {error}; give the "
                            "report.json of a complete dpcert report run") from None
    return document


def _empirical_failures(document: dict[str, Any]) -> dict[tuple[str, str, str], str]:
    """Failed empirical tests by (mechanism, example, test), with their verdict."""
    return {(t["mechanism"], t["example"], t["test"]): t["verdict"]
            for m in document["mechanisms"] for t in m["empirical"] if t["verdict"] != NONE_FOUND}


def regressions(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Obligations proved before and not now, new obligations not proved, obligations newly
    refused by ``--arithmetic ieee``, proofs that stopped passing, empirical tests that newly
    failed. What failed before and still fails is no regression."""
    before, after = obligations_of(old), obligations_of(new)
    found = []
    for obligation_id, result in after.items():
        if result["verdict"] == "proved":
            continue
        if obligation_id not in before:
            found.append(f"{obligation_id}: new, and {result['label']}")
        elif before[obligation_id]["verdict"] == "proved":
            found.append(f"{obligation_id}: was proved, now {result['label']}")
    refused_before = set(old["gate"]["exact_arithmetic_only"])
    for obligation_id in new["gate"]["exact_arithmetic_only"]:
        if obligation_id not in refused_before:
            found.append(f"{obligation_id}: {after[obligation_id]['label']}, which "
                         "--arithmetic ieee fails")
    if old["gate"]["proofs_pass"] and not new["gate"]["proofs_pass"]:
        found.append("proofs: passed before, not now (a proof not bound, or stale under "
                     "--strict)")
    failed_before = _empirical_failures(old)
    for (mechanism, example, test), verdict in _empirical_failures(new).items():
        if (mechanism, example, test) not in failed_before:
            found.append(f"{mechanism}: empirical {test} of {example}: {verdict}")
    return found


def removed(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Obligation ids of the baseline that this run did not check."""
    return sorted(set(obligations_of(old)) - set(obligations_of(new)))
