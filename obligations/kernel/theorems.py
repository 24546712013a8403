"""Theorems: values that only the kernel's rules make (:mod:`obligations.kernel.rules`).

A theorem holds a :class:`~obligations.kernel.statements.Statement`, the name of the rule that
made it and its premises: what it rests on beyond the rule, computed as the rule is applied (the
obligations whose goals the solvers closed, the results it cites, its assumptions, the bounded
instances it checked, the reviewed proof modules it trusts), never written afterwards.

As in HOL Light's ``fusion.ml``, the guard is against mistakes, not malice: Python cannot hide
:data:`_KERNEL`, but no code outside the kernel has a reason to touch it, and a grep shows it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from mechanisms.errors import DPCertError
from obligations.kernel.statements import Statement

_KERNEL = object()
"""Passed by the kernel's rules, and only by them, to :class:`Theorem`."""
_REFUTER = object()
"""Passed by the refuters (:mod:`obligations.refuters`), and only by them, to :class:`Refutation`."""


class PremiseKind(enum.Enum):
    PROVED = "proved obligation"
    CITES = "cites"
    ASSUMES = "assumes"
    BOUNDED = "bounded"
    EXACT_ARITHMETIC = "exact arithmetic"
    REVIEWED_MODULE = "reviewed proof module"
    THEOREM = "theorem of a constructor"
    COMPONENT = "theorem of an argument"


@dataclass(frozen=True)
class Premise:
    """One thing a theorem rests on: ``PremiseKind.CITES`` with the citation, say."""

    kind: PremiseKind
    text: str

    def __str__(self) -> str:
        return f"{self.kind.value}: {self.text}"


class TheoremForgedError(DPCertError, TypeError):
    """A :class:`Theorem` was built, or changed, outside the kernel's rules."""


class Theorem:
    """``statement`` holds, by ``rule``, resting on ``premises``."""

    __slots__ = ("statement", "rule", "premises")
    statement: Statement
    rule: str
    premises: tuple[Premise, ...]

    def __init__(self, token: Any, statement: Statement, rule: str,
                 premises: tuple[Premise, ...]) -> None:
        if token is not _KERNEL:
            raise TheoremForgedError(f"a theorem of {statement.claim.value} for "
                                     f"{statement.subject} was built outside the kernel's rules; "
                                     "only obligations.kernel.rules makes theorems")
        object.__setattr__(self, "statement", statement)
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "premises", premises)

    def __setattr__(self, name: str, value: Any) -> None:
        raise TheoremForgedError(f"a theorem cannot be changed (tried to set {name})")

    def rests_on(self, kind: PremiseKind) -> list[str]:
        """The premises of one kind, as text."""
        return [p.text for p in self.premises if p.kind is kind]

    def __repr__(self) -> str:
        return f"<theorem {self.statement.claim.value} of {self.statement.subject} by {self.rule}>"


class Refutation:
    """``statement`` is false: ``witness`` says where (an admitted argument, two inputs, a
    distance, an output) and ``loss`` and ``claimed`` are the exact divergence the real code
    reaches there and the map's value it exceeds. Only the refuters (:mod:`obligations.refuters`)
    make one, after computing both exactly on the running code; a refutation can only take a
    theorem away (:meth:`~obligations.kernel.certify.Certified.refuted_by`), never make one."""

    __slots__ = ("statement", "rule", "witness", "loss", "claimed")
    statement: Statement
    rule: str
    witness: str
    loss: Any
    claimed: Any

    def __init__(self, token: Any, statement: Statement, rule: str, witness: str, loss: Any,
                 claimed: Any) -> None:
        if token is not _REFUTER:
            raise TheoremForgedError(f"a refutation of {statement.claim.value} for "
                                     f"{statement.subject} was built outside the refuters")
        for name, value in (("statement", statement), ("rule", rule), ("witness", witness),
                            ("loss", loss), ("claimed", claimed)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise TheoremForgedError(f"a refutation cannot be changed (tried to set {name})")

    def __repr__(self) -> str:
        return f"<refutation of {self.statement.claim.value} of {self.statement.subject}>"
