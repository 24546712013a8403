"""Binding of the human proofs in ``proofs_tex/`` to the obligations and to the code.

A proof ``proofs_tex/<mechanism>.tex`` (``definitions.tex`` for the lemmas)

* cites obligations with ``\\obligation{id}``: every obligation of its mechanism must be cited,
  and every cited id must exist;
* shows code with ``\\code{module.name}``: every definition of the mechanism's code (see
  :mod:`checker.proofs.sources`) must be shown, and every shown name must exist;
* records with ``\\vetted{fingerprint}`` the source it was vetted against: a different current
  fingerprint makes it stale (a gate failure under ``--strict``); ``dpcert vet`` records anew.

TeX comments are ignored: a commented-out citation is not a citation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from checker.proofs.sources import (Definition, SourceError, closure, constructor_roots,
                                    fingerprint, locate)
from obligations.base import Entry

PROOFS = Path(__file__).resolve().parent.parent.parent / "proofs_tex"
DEFINITIONS = "definitions"
LEMMA_SOURCES = ("mechanisms.arith.ln_up", "mechanisms.arith.float_up", "mechanisms.arith.div_up",
                 "mechanisms.arith.mul_up", "mechanisms.arith.add_up", "mechanisms.core.linear_value")
"""The code proved in definitions.tex (the lemmas about symmetric distance are pure mathematics)."""
NOT_PROOFS = {"dpcert"}

_COMMENT = re.compile(r"(?<!\\)%.*")
_MACRO = {name: re.compile(r"\\" + name + r"\{([^}]*)\}") for name in ("obligation", "code", "vetted")}


class ProofError(Exception):
    """A proof file cannot be read or rewritten."""


@dataclass
class ProofStatus:
    mechanism: str
    path: Path
    problems: list[str] = field(default_factory=list)
    """Binding failures: always fail the gate."""
    stale: str | None = None
    """Why the proof is stale (vetted against other code), or None when fresh."""
    current: str = ""
    vetted: str | None = None

    @property
    def bound(self) -> bool:
        return not self.problems


def _strip_comments(text: str) -> str:
    return "\n".join(_COMMENT.sub("", line) for line in text.splitlines())


def macros(text: str, name: str) -> list[str]:
    return [m.strip() for m in _MACRO[name].findall(_strip_comments(text))]


def proof_name(entry: Entry) -> str:
    return DEFINITIONS if entry.constructor is None else entry.name


def code_of(entry: Entry) -> list[Definition]:
    """The definitions a proof of ``entry`` must show, and whose fingerprint it records."""
    roots = list(LEMMA_SOURCES) if entry.constructor is None else constructor_roots(entry.constructor)
    return closure(roots)


def check_proof(entry: Entry, known_ids: set[str], folder: Path = PROOFS) -> ProofStatus:
    path = folder / f"{proof_name(entry)}.tex"
    status = ProofStatus(entry.name, path)
    if not path.is_file():
        status.problems.append(f"no proof: {path.name} is missing from {folder}")
        return status
    text = path.read_text(encoding="utf-8")
    cited = set(macros(text, "obligation"))
    for obligation in entry.obligations:
        if obligation.id not in cited:
            status.problems.append(f"obligation {obligation.id} is not cited by {path.name} "
                                   f"(cite it with \\obligation{{{obligation.id}}})")
    for unknown in sorted(cited - known_ids):
        status.problems.append(f"{path.name} cites {unknown}, which is no obligation")
    shown = set(macros(text, "code"))
    for name in sorted(shown):
        try:
            locate(name)
        except SourceError as error:
            status.problems.append(f"{path.name} shows \\code{{{name}}}: {error}")
    try:
        definitions = code_of(entry)
    except SourceError as error:
        status.problems.append(f"the code of {entry.name} cannot be located: {error}")
        return status
    for definition in definitions:
        if definition.qualified not in shown:
            status.problems.append(f"{path.name} does not show {definition.qualified} "
                                   f"(include it with \\code{{{definition.qualified}}})")
    status.current = fingerprint(definitions)
    vetted = macros(text, "vetted")
    status.vetted = vetted[0] if vetted else None
    if status.vetted is None:
        status.stale = "proof stale: never vetted (no \\vetted{...}); run dpcert vet " + entry.name
    elif status.vetted != status.current:
        status.stale = (f"proof stale: vetted against {status.vetted}, the code is now "
                        f"{status.current}; re-read the proof, then run dpcert vet {entry.name}")
    return status


def orphans(entries: Sequence[Entry], folder: Path = PROOFS) -> list[str]:
    """Proof files that belong to no mechanism."""
    expected = {proof_name(e) for e in entries} | NOT_PROOFS
    return sorted(p.name for p in folder.glob("*.tex") if p.stem not in expected)


def check_proofs(entries: Sequence[Entry], catalogue: Sequence[Entry], whole_catalogue: bool,
                 folder: Path = PROOFS) -> tuple[list[ProofStatus], list[str]]:
    """The status of each entry's proof, and (checking the whole catalogue) orphan proofs."""
    known = {o.id for e in catalogue for o in e.obligations}
    statuses = [check_proof(e, known, folder) for e in entries]
    return statuses, orphans(catalogue, folder) if whole_catalogue else []


def vet(entry: Entry, folder: Path = PROOFS) -> str:
    """Record the current fingerprint in the proof of ``entry``; returns it."""
    path = folder / f"{proof_name(entry)}.tex"
    if not path.is_file():
        raise ProofError(f"no proof to vet: {path} is missing")
    try:
        current = fingerprint(code_of(entry))
    except SourceError as error:
        raise ProofError(f"cannot vet {entry.name}: {error}") from None
    text = path.read_text(encoding="utf-8")
    if _MACRO["vetted"].search(text):
        text = _MACRO["vetted"].sub(lambda _: "\\vetted{" + current + "}", text, count=1)
    elif "\\usepackage{dpcert}" in text:
        text = text.replace("\\usepackage{dpcert}", f"\\usepackage{{dpcert}}\n\\vetted{{{current}}}", 1)
    else:
        raise ProofError(f"{path.name} does not load the dpcert package (\\usepackage{{dpcert}})")
    path.write_text(text, encoding="utf-8")
    return current
