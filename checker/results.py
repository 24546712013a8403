"""Verdicts and results. Only ``proved`` passes the gate."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import Any

from obligations.reports import show


class Verdict(str, enum.Enum):
    PROVED = "proved"
    REFUTED = "refuted"
    UNKNOWN = "unknown"
    ERROR = "error"


@dataclass
class GoalResult:
    name: str
    verdict: Verdict
    solver: str
    seconds: float
    message: str = ""
    counterexample: dict[str, Any] | None = None
    confirmed: bool | None = None
    """For a refutation: did the real implementation violate the claim on the counterexample?"""
    report: str = ""


@dataclass
class ObligationResult:
    mechanism: str
    id: str
    kind: str
    statement: str
    latex: str
    verdict: Verdict
    seconds: float
    goals: list[GoalResult] = field(default_factory=list)
    uses: tuple[str, ...] = ()
    bound: str | None = None
    arithmetic: str | None = None
    message: str = ""
    cites: tuple[str, ...] = ()
    assumes: str | None = None

    @property
    def under_exact_arithmetic(self) -> bool:
        """Proved, but of a model with exact arithmetic where the code rounds: not a proof about
        the floats the code computes (``--arithmetic ieee`` fails on it)."""
        return self.verdict is Verdict.PROVED and self.arithmetic is not None

    @property
    def solver(self) -> str:
        return "+".join(sorted({g.solver for g in self.goals})) or "-"

    @property
    def label(self) -> str:
        """The verdict with its qualifiers, as a reviewer should read it."""
        notes: list[str] = []
        if self.verdict is Verdict.PROVED:
            if self.bound:
                notes.append(f"bounded: {self.bound}")
            if self.arithmetic:
                notes.append(self.arithmetic)
            if self.assumes:
                notes.append(f"assumes {self.assumes}")
            notes += [f"cites {source}" for source in self.cites]
        if self.verdict is Verdict.REFUTED:
            refuted = [g for g in self.goals if g.verdict is Verdict.REFUTED]
            notes.append("confirmed" if any(g.confirmed for g in refuted) else "not confirmed")
        if self.verdict is Verdict.UNKNOWN and self.message:
            notes.append(self.message.split(":")[0]
                         + (": float sampler" if "float sampler:" in self.message else ""))
        verdict = "proved under exact arithmetic" if self.under_exact_arithmetic else self.verdict.value
        return verdict + (f" ({'; '.join(notes)})" if notes else "")

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["verdict"] = self.verdict.value
        data["label"] = self.label
        data["under_exact_arithmetic"] = self.under_exact_arithmetic
        data["solver"] = self.solver
        for goal in data["goals"]:
            goal["verdict"] = goal["verdict"].value
            if goal["counterexample"] is not None:
                goal["counterexample"] = {k: show(v) for k, v in goal["counterexample"].items()}
        return data
