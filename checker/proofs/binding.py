"""Binding of the human proofs in ``proofs_tex/`` to the obligations and to the code.

A proof ``proofs_tex/<mechanism>.tex`` (``definitions.tex`` for the lemmas)

* cites obligations with ``\\obligation{id}``: every obligation of its mechanism must be cited,
  and every cited id must exist;
* cites the kernel's standard statements with ``\\statement{claim}`` (``output_domain``,
  ``compatibility``, ``stability``, ``privacy``, ``runtime_errors``): a mechanism with no
  obligations, whose statements the kernel's rules prove alone, must cite every statement it owes,
  and no proof may cite one its mechanism does not owe;
* shows code with ``\\code{module.name}``: every definition of the mechanism's code (see
  :mod:`checker.proofs.sources`) must be shown, and every shown name must exist;
* records with ``\\vetted{code C, text T}`` what a reviewer vetted: ``C`` the fingerprint of the
  code, ``T`` the hash of the proof's own text (the ``.tex`` without its ``\\vetted`` macro). A
  change to either makes the proof stale (a gate failure under ``--strict``) until ``dpcert vet``
  records them anew: a proof whose body is replaced by "Trivial." is stale, citations or not.

TeX comments are ignored: a commented-out citation is not a citation.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from checker.limits import no_exit, time_limit
from checker.proofs.sources import (Definition, SourceError, closure, constructor_roots,
                                    fingerprint, locate)
from obligations.base import Entry
from obligations.kernel.certify import entry_statements
from obligations.kernel.statements import Claim

PROOFS = Path(__file__).resolve().parent.parent.parent / "proofs_tex"
DEFINITIONS = "definitions"
LEMMA_SOURCES = ("mechanisms.arith.ln_up", "mechanisms.arith.float_up", "mechanisms.arith.div_up",
                 "mechanisms.arith.mul_up", "mechanisms.arith.add_up", "mechanisms.core.linear_value")
"""The code proved in definitions.tex (the lemmas about symmetric distance are pure mathematics)."""
NOT_PROOFS = {"dpcert"}
DERIVE_SECONDS = 120.0
"""How long deriving a mechanism's statements (its build run on solver arguments) may take."""

_COMMENT = re.compile(r"(?<!\\)%.*")
_MACRO = {name: re.compile(r"\\" + name + r"\{([^}]*)\}")
          for name in ("obligation", "statement", "code", "vetted")}
_SEAL = re.compile(r"code ([0-9a-f]{16}), text ([0-9a-f]{16})")


class ProofError(Exception):
    """A proof file cannot be read or rewritten."""


@dataclass(frozen=True)
class Seal:
    """What ``\\vetted{...}`` records: the code fingerprint and the proof-text hash."""

    code: str
    text: str

    def __str__(self) -> str:
        return f"code {self.code}, text {self.text}"

    @staticmethod
    def parse(recorded: str) -> Seal | None:
        """The seal a ``\\vetted{}`` argument records; None for any other text (such as the
        code-only fingerprint recorded before proof texts were bound)."""
        match = _SEAL.fullmatch(recorded)
        return Seal(match[1], match[2]) if match else None


def text_hash(text: str) -> str:
    """SHA-256 (first 16 hex digits) of a proof's text without its ``\\vetted{...}`` macro, so
    that recording a seal does not change the hash it records."""
    return hashlib.sha256(_MACRO["vetted"].sub("", text).encode()).hexdigest()[:16]


@dataclass
class ProofStatus:
    mechanism: str
    path: Path
    problems: list[str] = field(default_factory=list)
    """Binding failures: always fail the gate."""
    stale: str | None = None
    """Why the proof is stale (vetted against other code or another text), or None when fresh."""
    current: str = ""
    """The seal the proof would record now (``code C, text T``); empty when the code cannot be
    located."""
    vetted: str | None = None
    """What its ``\\vetted{}`` records, None when it has none."""

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
    status.problems += _statement_problems(entry, set(macros(text, "statement")), path.name)
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
    current = Seal(fingerprint(definitions), text_hash(text))
    status.current = str(current)
    vetted = macros(text, "vetted")
    status.vetted = vetted[0] if vetted else None
    status.stale = staleness(entry.name, status.vetted, current)
    return status


def statement_name(claim: Claim) -> str:
    """How a proof cites ``claim``: ``\\statement{output_domain}``."""
    return claim.name.lower()


def _statement_problems(entry: Entry, cited: set[str], proof: str) -> list[str]:
    """Statement citations missing (from a proof of a mechanism with no obligations) or citing a
    statement the mechanism does not owe."""
    if entry.constructor is None or (entry.obligations and not cited):
        return []
    try:
        with time_limit(DERIVE_SECONDS), no_exit():  # the kind may be read from the user's build
            owed = [statement_name(s.claim) for s in entry_statements(entry)]
    except Exception as error:  # noqa: BLE001 - its build fails on solver arguments, or hangs
        return [f"the standard statements of {entry.name} cannot be derived "
                f"({type(error).__name__}: {error}), so {proof}'s citations cannot be checked"]
    problems = [f"statement {name} is not cited by {proof} (cite it with \\statement{{{name}}})"
                for name in owed if name not in cited and not entry.obligations]
    return problems + [f"{proof} cites \\statement{{{name}}}, which {entry.name} does not owe "
                       f"(it owes {', '.join(owed)})" for name in sorted(cited - set(owed))]


def staleness(mechanism: str, vetted: str | None, current: Seal) -> str | None:
    """Why a proof that records ``vetted`` is stale against ``current``; None when fresh."""
    advice = f"re-read the proof, then run dpcert vet {mechanism}"
    if vetted is None:
        return f"proof stale: never vetted (no \\vetted{{...}}); {advice}"
    recorded = Seal.parse(vetted)
    if recorded is None:
        return (f"proof stale: \\vetted{{{vetted}}} is not a seal of the form "
                f"'code <16 hex>, text <16 hex>' (it records no proof text); {advice}")
    changes = []
    if recorded.code != current.code:
        changes.append(f"the code changed (fingerprint {current.code}, vetted {recorded.code})")
    if recorded.text != current.text:
        changes.append(f"the proof text changed (hash {current.text}, vetted {recorded.text})")
    return f"proof stale: {' and '.join(changes)}; {advice}" if changes else None


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
    """Record the current seal (code fingerprint and proof-text hash) in the proof of ``entry``;
    returns it."""
    path = folder / f"{proof_name(entry)}.tex"
    if not path.is_file():
        raise ProofError(f"no proof to vet: {path} is missing")
    try:
        code = fingerprint(code_of(entry))
    except SourceError as error:
        raise ProofError(f"cannot vet {entry.name}: {error}") from None
    text = _with_vetted_macro(path)
    current = str(Seal(code, text_hash(text)))
    path.write_text(_MACRO["vetted"].sub(lambda _: "\\vetted{" + current + "}", text, count=1),
                    encoding="utf-8")
    return current


def _with_vetted_macro(path: Path) -> str:
    """The proof's text, with a ``\\vetted{}`` macro after ``\\usepackage{dpcert}`` if it has
    none (its text hash is then that of the file as it will be written)."""
    text = path.read_text(encoding="utf-8")
    if _MACRO["vetted"].search(text):
        return text
    if "\\usepackage{dpcert}" not in text:
        raise ProofError(f"{path.name} does not load the dpcert package (\\usepackage{{dpcert}})")
    return text.replace("\\usepackage{dpcert}", "\\usepackage{dpcert}\n\\vetted{}", 1)
