"""The standard statements: what must hold of every constructor, written by the kernel from the
kind of object the constructor builds, never by the constructor's author.

For a constructor ``C`` and every argument ``a`` it admits, with ``T = C(a)``:

- output domain: ``T.function(x)`` returns a member of ``T.output_domain`` for every ``x`` in
  ``T.input_domain`` (and every draw of its randomness);
- compatibility: ``T.input_metric`` is defined on ``T.input_domain`` (a transformation's
  ``output_metric`` on its ``output_domain`` too);
- stability (transformation): ``d_out(T(x), T(x')) <= T.map(d_in)`` whenever
  ``d_in(x, x') <= d_in``; privacy (measurement): ``D(T(x) || T(x')) <= T.map(d_in)`` in
  ``T.output_measure``'s divergence;
- data-independent runtime errors (measurement): ``T(x)`` raises iff ``T(x')`` raises.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from mechanisms.core import Measurement, Transformation


class Claim(enum.Enum):
    OUTPUT_DOMAIN = "output domain"
    COMPATIBILITY = "domain-metric compatibility"
    STABILITY = "stability"
    PRIVACY = "privacy"
    RUNTIME_ERRORS = "data-independent runtime errors"


class ObjectKind(enum.Enum):
    TRANSFORMATION = "transformation"
    MEASUREMENT = "measurement"


CLAIMS: dict[ObjectKind | None, tuple[Claim, ...]] = {
    ObjectKind.TRANSFORMATION: (Claim.OUTPUT_DOMAIN, Claim.COMPATIBILITY, Claim.STABILITY),
    ObjectKind.MEASUREMENT: (Claim.OUTPUT_DOMAIN, Claim.COMPATIBILITY, Claim.PRIVACY,
                             Claim.RUNTIME_ERRORS),
    None: (Claim.OUTPUT_DOMAIN, Claim.COMPATIBILITY, Claim.STABILITY, Claim.PRIVACY),
}
"""The claims owed by each kind of object; ``None``: the kind is not known (nothing was built),
so both guarantees are owed and neither can be proved."""

_WORDING = {
    Claim.OUTPUT_DOMAIN: "{every}every x in {t}.input_domain, {t}.function(x) returns a member of "
                         "{t}.output_domain{draws}",
    Claim.COMPATIBILITY: "{lead}{t}.input_metric is defined on {t}.input_domain{output_metric}",
    Claim.STABILITY: "{every}every d_in >= 0 and all x, x' in {t}.input_domain with "
                     "{t}.input_metric.distance(x, x') <= d_in: "
                     "{t}.output_metric.distance({t}(x), {t}(x')) <= {t}.map(d_in)",
    Claim.PRIVACY: "{every}every d_in >= 0 and all x, x' in {t}.input_domain with "
                   "{t}.input_metric.distance(x, x') <= d_in: the divergence of {t}(x) from "
                   "{t}(x') in {t}.output_measure is at most {t}.map(d_in)",
    Claim.RUNTIME_ERRORS: "{every}all x, x' in {t}.input_domain: {t}(x) raises if and only if "
                          "{t}(x') raises",
}

FOR_EVERY_ARGUMENT = ("for every argument a that {c} admits (each transformation or measurement "
                      "in a meeting its own standard statements), ")


@dataclass(frozen=True)
class Statement:
    """One standard claim, as data: about every object the constructor ``of`` (its ``id``; named
    ``subject``) builds or, when ``built``, about the one object ``of`` (named ``subject`` in the
    report); ``kind`` is the kind of object (``None`` if unknown). Two constructors or objects
    of one name are two subjects: statements compare by ``of``."""

    claim: Claim
    subject: str
    kind: ObjectKind | None
    of: int
    built: bool = False

    @property
    def text(self) -> str:
        t = self.subject if self.built else f"{self.subject}(a)"
        lead = "" if self.built else FOR_EVERY_ARGUMENT.format(c=self.subject)
        return _WORDING[self.claim].format(
            every=lead or "for ", lead=lead, t=t,
            draws=" for every draw of its randomness" if self.kind is not ObjectKind.TRANSFORMATION
            else "",
            output_metric=(f", and {t}.output_metric on {t}.output_domain"
                           if self.kind is not ObjectKind.MEASUREMENT else ""))


def standard_statements(constructor: Any, kind: ObjectKind | None) -> tuple[Statement, ...]:
    """What must be proved of ``constructor``, which builds objects of ``kind``."""
    return tuple(Statement(claim, constructor.name, kind, id(constructor))
                 for claim in CLAIMS[kind])


def object_kind(built: Any) -> ObjectKind | None:
    if isinstance(built, Transformation):
        return ObjectKind.TRANSFORMATION
    if isinstance(built, Measurement):
        return ObjectKind.MEASUREMENT
    return None


def object_statements(subject: str, built: Any) -> tuple[Statement, ...]:
    """What must be proved of the one object ``built``, named ``subject`` in the report (it is
    alive while it is checked, so its ``id`` names it)."""
    return tuple(Statement(claim, subject, object_kind(built), id(built), built=True)
                 for claim in CLAIMS[object_kind(built)])
