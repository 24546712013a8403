"""The committed classification of surviving mutants, and the pass/fail decision on a run.

``mutation/classification.toml`` holds one table per surviving mutant id::

    [mutant."make_clamp:27:12:constant:1->2"]
    class = "larger map"
    argument = "the map doubles d_in: still an upper bound, only less tight"

A mutant classified ``hole`` is a real gap (the checker accepts wrong code) and fails the run;
so does a survivor with no entry at all. ``same guarantees``: the mutant computes another
function of which every standard statement holds, with the same map (a sum off by one); the
checker states no more of a constructor whose catalogue entry has no obligations, and the
argument names the unit test that rejects the mutant.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

CLASSES = ("equivalent", "larger map", "stricter precondition", "same guarantees", "message",
           "hole")
NEEDS_ARGUMENT = ("equivalent", "larger map", "stricter precondition", "same guarantees")

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class ClassificationError(ValueError):
    """The classification file is malformed; the message names the entry and what to fix."""


@dataclass(frozen=True)
class Entry:
    id: str
    cls: str
    argument: str


def parse_classification(text: str, origin: str = "classification.toml") -> dict[str, Entry]:
    """``{mutant id: Entry}`` from the TOML text; :class:`ClassificationError` if malformed."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ClassificationError(f"{origin}: not valid TOML: {error}") from None
    unknown_tables = set(data) - {"mutant"}
    if unknown_tables:
        raise ClassificationError(f"{origin}: unknown top-level keys {sorted(unknown_tables)}; "
                                  'entries go under [mutant."<id>"]')
    entries: dict[str, Entry] = {}
    for mutant_id, fields in data.get("mutant", {}).items():
        if not isinstance(fields, dict):
            raise ClassificationError(f'{origin}: mutant."{mutant_id}" must be a table')
        cls = fields.get("class")
        if cls not in CLASSES:
            raise ClassificationError(
                f'{origin}: mutant."{mutant_id}" has unknown class {cls!r}; '
                f"use one of {', '.join(repr(c) for c in CLASSES)}")
        argument = fields.get("argument", "")
        if not isinstance(argument, str):
            raise ClassificationError(f'{origin}: mutant."{mutant_id}": argument must be a string')
        if cls in NEEDS_ARGUMENT and not argument.strip():
            raise ClassificationError(f'{origin}: mutant."{mutant_id}" is classified {cls!r} '
                                      "without an argument; say why it is harmless")
        extra = set(fields) - {"class", "argument"}
        if extra:
            raise ClassificationError(f'{origin}: mutant."{mutant_id}": unknown keys {sorted(extra)}')
        entries[mutant_id] = Entry(mutant_id, cls, argument.strip())
    return entries


def load_classification(path: Path) -> dict[str, Entry]:
    """The entries of ``path``; an absent file classifies nothing."""
    if not path.is_file():
        return {}
    return parse_classification(path.read_text(encoding="utf-8"), str(path))


@dataclass(frozen=True)
class Decision:
    exit_code: int
    unclassified: tuple[str, ...]
    holes: tuple[str, ...]
    stale: tuple[str, ...]


def decide(survivors: Iterable[str], classification: dict[str, Entry],
           existing_ids: Iterable[str]) -> Decision:
    """0 when every survivor is classified and none is a hole, else 1; ``stale`` lists the
    classified ids that no mutant has any more (a warning only)."""
    survivors = sorted(set(survivors))
    unclassified = tuple(s for s in survivors if s not in classification)
    holes = tuple(s for s in survivors if s in classification and classification[s].cls == "hole")
    existing = set(existing_ids)
    stale = tuple(sorted(i for i in classification if i not in existing))
    code = EXIT_OK if not unclassified and not holes else EXIT_FAILED
    return Decision(code, unclassified, holes, stale)
