"""``--baseline OLD.json``: a change fails only on what got worse since the baseline report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from checker.loading import LoadError
from checker.report.model import SCHEMA, obligations_of


def read_baseline(path: str) -> dict[str, Any]:
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise LoadError(f"baseline {path}: {error}") from None
    if not isinstance(document, dict) or document.get("schema") != SCHEMA:
        raise LoadError(f"baseline {path} is not a {SCHEMA} report (write one with dpcert report)")
    return document


def regressions(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Obligations proved before and not now, new obligations not proved, proofs that stopped
    passing. An obligation that was not proved before and still is not is no regression."""
    before, after = obligations_of(old), obligations_of(new)
    found = []
    for obligation_id, result in after.items():
        if result["verdict"] == "proved":
            continue
        if obligation_id not in before:
            found.append(f"{obligation_id}: new, and {result['label']}")
        elif before[obligation_id]["verdict"] == "proved":
            found.append(f"{obligation_id}: was proved, now {result['label']}")
    if old["gate"]["proofs_pass"] and not new["gate"]["proofs_pass"]:
        found.append("proofs: bound before, not now")
    return found


def removed(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    return sorted(set(obligations_of(old)) - set(obligations_of(new)))
