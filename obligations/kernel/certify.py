"""What the gate accepts: for each entry, the standard statements the kernel derives, each with a
theorem whose statement is exactly that statement, or why there is none.

The kind of object (transformation or measurement) is read from an object the constructor built
(the entry's first example), else from the guarantee its reviewed proof module proves, else from
what its build returns on solver arguments of its declared sorts, else from the theorems proved of
it or of its reference (a variant), else from its plan (:mod:`.plans`), else from the build's
return annotation; with none, both guarantees are owed and the entry cannot pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from mechanisms.core import Measurement, Transformation
from obligations.base import Entry, Kind
from obligations.kernel.chain import chained_kind
from obligations.kernel.composition import built_kind
from obligations.kernel.conversion import converted_kind
from obligations.kernel.every_argument import kind_on_terms
from obligations.kernel.plans import PlanRefused, plan_of
from obligations.kernel.reviewed import reviewed_source
from obligations.kernel.rules import proved_kind
from obligations.kernel.statements import ObjectKind, Statement, object_kind, standard_statements
from obligations.kernel.theorems import Premise, PremiseKind, Refutation, Theorem


@dataclass(frozen=True)
class Certified:
    """One standard statement and the theorem that proves it (``None``: ``why`` says what is
    missing, and ``refutation``, if a refuter computed one, where the statement fails)."""

    statement: Statement
    theorem: Theorem | None
    why: str = ""
    refutation: Refutation | None = None

    @property
    def bounded(self) -> bool:
        """Proved by a theorem that holds only within a bound (examples, rows, cases)."""
        return self.theorem is not None and bool(self.theorem.rests_on(PremiseKind.BOUNDED))

    @property
    def conditional(self) -> bool:
        """Proved by a theorem that holds only within a bound or under an assumption, which a
        computed counterexample can show wrong."""
        return self.theorem is not None and bool(self._conditions())

    def refuted_by(self, refutation: Refutation | None) -> "Certified":
        """This statement, refuted by ``refutation`` when it is a refutation of exactly it and
        the statement has no theorem, or only a bounded or assuming one: the refutation lies
        outside the bound, or breaks the assumption, and the statement, which is about every
        argument and input, is false."""
        if (self.theorem is not None and not self.conditional) \
                or not isinstance(refutation, Refutation) or refutation.statement != self.statement:
            return self
        why = self.why or (f"its theorem by {self.theorem.rule} rests on "
                           f"{'; '.join(map(str, self._conditions()))}, and the statement "
                           "fails outside them")
        return Certified(self.statement, None, why, refutation)

    def _conditions(self) -> list[Premise]:
        """The bounds and assumptions the theorem rests on."""
        return [p for p in self.theorem.premises
                if p.kind in (PremiseKind.BOUNDED, PremiseKind.ASSUMES)]

    @property
    def proved(self) -> bool:
        return self.theorem is not None


def has_reviewed_proof(entry: Entry) -> bool:
    """Some obligation of ``entry`` was written for its constructor by a reviewed module."""
    return any(reviewed_source(o, entry.constructor) is not None for o in entry.obligations)


def entry_statements(entry: Entry, built: Any = None,
                     by_constructor: Mapping[int, Sequence[Theorem]] | None = None
                     ) -> tuple[Statement, ...]:
    """The statements owed by ``entry``'s constructor. Its kind is read from ``built``, an
    object it built, if any; else from the guarantee its reviewed proof module proves; else
    from what it builds on solver arguments of its declared sorts, or on stand-in components
    (:func:`~.composition.built_kind`, :func:`~.chain.chained_kind`,
    :func:`~.conversion.converted_kind`); else from the theorems proved of the same constructor
    in this run (``by_constructor``, by ``id``), or of its reference if it is a variant (whose
    theorems the rule of equality in value checks it builds that kind of object); else from
    what the outermost call of its plan
    builds; else from the build's return annotation. An entry without a constructor (a set of
    lemmas) owes none."""
    if entry.constructor is None:
        return ()
    kind = object_kind(built)
    if kind is None and has_reviewed_proof(entry):
        guarantees = {o.kind for o in entry.obligations
                      if reviewed_source(o, entry.constructor) is not None}
        if (Kind.STABILITY in guarantees) != (Kind.PRIVACY in guarantees):
            kind = ObjectKind.TRANSFORMATION if Kind.STABILITY in guarantees else \
                ObjectKind.MEASUREMENT
    if kind is None:
        kind = (kind_on_terms(entry.constructor) or built_kind(entry.constructor)
                or chained_kind(entry.constructor) or converted_kind(entry.constructor))
    kinds = {key: k for key, theorems in (by_constructor or {}).items()
             if (k := proved_kind(theorems)) is not None}
    if kind is None:
        kind = kinds.get(id(entry.constructor), kinds.get(id(entry.constructor.reference)))
    if kind is None:
        try:
            kind = plan_of(entry.constructor, kinds).kind
        except PlanRefused:
            kind = ANNOTATED.get(entry.constructor.signature.return_annotation)
    return standard_statements(entry.constructor, kind)


ANNOTATED = {Transformation: ObjectKind.TRANSFORMATION, Measurement: ObjectKind.MEASUREMENT}
"""The kind a build's return annotation names (``def build(...) -> Transformation``)."""


def certify(statements: Sequence[Statement], theorems: Sequence[Theorem],
            reasons: dict[Statement, str]) -> list[Certified]:
    """Each statement with a theorem of exactly that statement; theorems of anything else are
    ignored, and an unproved statement keeps the proposer's reason."""
    found = {t.statement: t for t in theorems if isinstance(t, Theorem)}
    return [Certified(s, found[s]) if s in found else
            Certified(s, None, reasons.get(s, "no theorem proposed")) for s in statements]
