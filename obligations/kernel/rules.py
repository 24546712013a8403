"""The kernel's rules: the only makers of :class:`~obligations.kernel.theorems.Theorem`.

Each rule checks its premises itself and returns a theorem, or raises :class:`RuleRefused`
saying which premise failed. Nothing a caller passes can widen a conclusion: the statement
concluded is built here from the subject and the claim.

- :func:`by_reviewed_module`: a statement is proved when a reviewed proof module
  (:mod:`obligations.kernel.reviewed`) wrote, for this very constructor, obligations of the
  statement's claim and their supporting obligations, and every one of them was proved. The
  theorem rests on that module: the module is trusted until its reasoning moves into rules here.
- :func:`runtime_errors_from_output_domain`: a measurement whose function returns a member of
  its output domain for every admitted input and every draw raises on no admitted input, so
  whether it raises cannot depend on the data.
- :func:`composed`: a constructor whose build only composes proved constructors
  (:func:`~obligations.kernel.plans.plan_of`) meets every standard statement of the kind its
  outermost call builds, for every argument it admits.
- :func:`at_examples`: a constructor meets every standard statement, *bounded* to the arguments
  of its examples, when each object they built meets all of its own (by any rule).
- :func:`instance`: one built object meets every standard statement when the constructor that
  built it (its recorded :class:`~mechanisms.core.Provenance`, rebuilt now to an equal object)
  has all its statements proved for every admitted argument, and every transformation or
  measurement among those arguments meets all of its own.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from mechanisms.core import provenance
from mechanisms.errors import DPCertError
from obligations.base import Kind, Obligation
from obligations.kernel.plans import PlanRefused, plan_of, planned_nodes
from obligations.kernel.reviewed import reviewed_source
from obligations.kernel.statements import (CLAIMS, Claim, ObjectKind, Statement, object_kind,
                                           object_statements, standard_statements)
from obligations.kernel.theorems import _KERNEL, Premise, PremiseKind, Theorem


class RuleRefused(DPCertError):
    """A rule's premise does not hold: ``rule`` names the rule, the message the premise."""

    def __init__(self, rule: str, why: str) -> None:
        super().__init__(f"{rule}: {why}")
        self.rule, self.why = rule, why


class PartlyProved(RuleRefused):
    """A rule proved some statements and refused the others: ``theorems`` are the kernel's
    theorems of the first, ``refused`` the premise that failed for each of the others."""

    def __init__(self, rule: str, theorems: Sequence[Theorem], refused: Mapping[Claim, str]) -> None:
        super().__init__(rule, "; ".join(f"{claim.value}: {why}" for claim, why in refused.items()))
        self.theorems, self.refused = list(theorems), dict(refused)


def by_claim(rule: str, statements: Sequence[Statement], premises: Sequence[Premise],
             refused: Mapping[Claim, str]) -> list[Theorem]:
    """The theorems of ``statements`` whose claim is not ``refused``, each on ``premises``;
    raises :class:`PartlyProved` when some are refused."""
    theorems = [Theorem(_KERNEL, s, rule, tuple(premises)) for s in statements
                if s.claim not in refused]
    if refused:
        raise PartlyProved(rule, theorems, refused)
    return theorems


CLAIM_KINDS: dict[Claim, Kind] = {
    Claim.OUTPUT_DOMAIN: Kind.OUTPUT_DOMAIN,
    Claim.COMPATIBILITY: Kind.COMPATIBILITY,
    Claim.STABILITY: Kind.STABILITY,
    Claim.PRIVACY: Kind.PRIVACY,
    Claim.RUNTIME_ERRORS: Kind.RUNTIME_ERRORS,
}
"""The obligation kind that states each claim in a reviewed module."""

SUPPORTING_KINDS: dict[Claim, tuple[Kind, ...]] = {
    Claim.STABILITY: (Kind.ROUNDING, Kind.SPECIFICATION, Kind.LEMMA),
    Claim.PRIVACY: (Kind.DISTRIBUTION, Kind.ROUNDING, Kind.SPECIFICATION, Kind.LEMMA),
}
"""What a guarantee also rests on in a reviewed module: the law the code samples, the map's
rounding, the function's specification, the constructor's own lemmas."""

REVIEWED_RULE = "reviewed proof module"
ERRORS_RULE = "no runtime error from the output domain"
INSTANCE_RULE = "instance of a proved constructor"
COMPOSED_RULE = "composition of proved constructors"
EXAMPLES_RULE = "proved at its examples"


def by_reviewed_module(claim: Claim, kind: ObjectKind | None, constructor: Any,
                       decided: Sequence[tuple[Obligation, bool]]) -> Theorem:
    """``claim`` of every ``kind`` object ``constructor`` builds, from ``decided``, the entry's
    obligations each with whether it was proved: an obligation stating the claim, written for
    ``constructor`` by a reviewed module, with every obligation of the claim's and the
    supporting kinds that the same call wrote present among ``decided`` and proved. An author's
    own obligations are checks beside it, never premises."""
    if constructor is None:
        raise RuleRefused(REVIEWED_RULE, "the entry has no constructor")
    name = constructor.name
    claim_kind = CLAIM_KINDS[claim]
    wanted = (claim_kind, *SUPPORTING_KINDS.get(claim, ()))
    sources = {id(s): s for s in (reviewed_source(o, constructor) for o, _ in decided
                                  if o.kind is claim_kind) if s is not None}
    if not sources:
        raise RuleRefused(REVIEWED_RULE, f"no obligation written for {name} by a reviewed proof "
                          f"module states {claim.value}; an author's own obligations can check "
                          "the code, not prove a standard statement")
    proved = {id(o): ok for o, ok in decided}
    premises: list[Premise] = []
    for source in sources.values():
        for obligation in source.written:
            if obligation.kind not in wanted:
                continue
            if id(obligation) not in proved:
                raise RuleRefused(REVIEWED_RULE, f"obligation {obligation.id}, which "
                                  f"{source.module} wrote with the others, is not checked")
            if not proved[id(obligation)]:
                raise RuleRefused(REVIEWED_RULE, f"obligation {obligation.id} is not proved")
            premises += _obligation_premises(obligation, source.module)
    return Theorem(_KERNEL, Statement(claim, name, kind, id(constructor)), REVIEWED_RULE,
                   tuple(dict.fromkeys(premises)))


def runtime_errors_from_output_domain(output_domain: Theorem) -> Theorem:
    """Data-independent runtime errors of a measurement, from its output-domain theorem."""
    stated = output_domain.statement
    if stated.claim is not Claim.OUTPUT_DOMAIN or stated.kind is not ObjectKind.MEASUREMENT:
        raise RuleRefused(ERRORS_RULE, f"needs the output domain of a measurement, not "
                          f"{stated.claim.value} of a {stated.kind}")
    return Theorem(_KERNEL, Statement(Claim.RUNTIME_ERRORS, stated.subject, stated.kind,
                                      stated.of, stated.built), ERRORS_RULE, output_domain.premises)


def instance(subject: str, built: Any, constructor_theorems: Sequence[Theorem],
             component_theorems: Sequence[Theorem]) -> list[Theorem]:
    """Every standard statement of ``built`` (named ``subject``), from the theorems of the
    constructor that built it and those of the objects among its arguments."""
    record = provenance(built)
    if record is None:
        raise RuleRefused(INSTANCE_RULE, f"{subject} was not returned by a Constructor (or was "
                          "changed since, as dataclasses.replace does)")
    constructor = record.constructor
    proved = {t.statement: t for t in constructor_theorems}
    missing = [s.claim.value for s in standard_statements(constructor, object_kind(built))
               if s not in proved]
    if missing:
        raise RuleRefused(INSTANCE_RULE, f"{subject} was built by {constructor.name}, whose "
                          f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not proved")
    try:
        rebuilt = constructor(**record.arguments)
    except Exception as error:  # noqa: BLE001 - the constructor's own refusal, reported
        raise RuleRefused(INSTANCE_RULE, f"{constructor.name} refuses the arguments {subject} "
                          f"was built with: {type(error).__name__}: {error}") from None
    if rebuilt != built:
        raise RuleRefused(INSTANCE_RULE, f"{constructor.name} rebuilt from the arguments "
                          f"{subject} records is another object")
    have = {t.statement: t for t in component_theorems}
    used = [proved[s] for s in standard_statements(constructor, object_kind(built))]
    premises = [Premise(PremiseKind.THEOREM, f"{t.statement.claim.value} of {constructor.name}")
                for t in used]
    for component in components(record.arguments.values()):
        owed = object_statements("a component", component)
        found = [t for s, t in have.items() if s.built and s.of == id(component)
                 and s.claim in {o.claim for o in owed} and s.kind == object_kind(component)]
        if len({t.statement.claim for t in found}) < len(owed):
            raise RuleRefused(INSTANCE_RULE, f"an argument of {constructor.name} in {subject} "
                              f"({type(component).__name__}) does not meet all its statements")
        premises += [Premise(PremiseKind.COMPONENT, f"{t.statement.claim.value} of "
                             f"{t.statement.subject}") for t in found]
        used += found
    premises = tuple(dict.fromkeys([*premises, *(p for t in used for p in t.premises)]))
    return [Theorem(_KERNEL, statement, INSTANCE_RULE, premises)
            for statement in object_statements(subject, built)]


def proved_kind(theorems: Sequence[Theorem]) -> ObjectKind | None:
    """The kind of object whose every standard statement ``theorems`` prove, for every argument
    of their constructor, or None."""
    claims = {t.statement.claim for t in theorems if not t.statement.built}
    kinds = {t.statement.kind for t in theorems if not t.statement.built}
    return next((k for k in kinds if k is not None and set(CLAIMS[k]) <= claims), None)


def composed(constructor: Any, by_constructor: Mapping[int, Sequence[Theorem]]) -> list[Theorem]:
    """Every standard statement of ``constructor``, from its plan and the theorems of the
    constructors it calls (``by_constructor``, by their ``id``)."""
    kinds = {key: kind for key, theorems in by_constructor.items()
             if (kind := proved_kind(theorems)) is not None}
    try:
        planned = plan_of(constructor, kinds)
    except PlanRefused as refused:
        raise RuleRefused(COMPOSED_RULE, str(refused)) from None
    used = [t for node in dict.fromkeys(n.constructor for n in planned_nodes(planned))
            for t in by_constructor[id(node)] if not t.statement.built]
    premises = tuple(dict.fromkeys(
        [*(Premise(PremiseKind.THEOREM, f"{t.statement.claim.value} of {t.statement.subject}")
           for t in used), *(p for t in used for p in t.premises)]))
    return [Theorem(_KERNEL, statement, COMPOSED_RULE, premises)
            for statement in standard_statements(constructor, planned.kind)]


def at_examples(constructor: Any, built: Sequence[tuple[str, Any]],
                theorems: Sequence[Theorem]) -> list[Theorem]:
    """Every standard statement of ``constructor``, bounded to the objects ``built`` (each
    ``(call, object)``, the call that built it): each was built by ``constructor`` itself, all are
    of one kind, and ``theorems`` prove every statement of each."""
    if not built:
        raise RuleRefused(EXAMPLES_RULE, f"{constructor.name} has no example that builds")
    kinds = {object_kind(obj) for _, obj in built}
    if len(kinds) != 1 or None in kinds:
        raise RuleRefused(EXAMPLES_RULE, f"the examples of {constructor.name} build objects of "
                          "more than one kind, or no transformation or measurement")
    have = {t.statement: t for t in theorems}
    used: list[Theorem] = []
    for call, obj in built:
        record = provenance(obj)
        if record is None or record.constructor is not constructor:
            raise RuleRefused(EXAMPLES_RULE, f"the example {call} was not built by "
                              f"{constructor.name}")
        owed = [(s.claim, s.kind, s.of) for s in object_statements(call, obj)]
        found = [t for s, t in have.items() if s.built and (s.claim, s.kind, s.of) in owed]
        if len({t.statement.claim for t in found}) < len(owed):
            raise RuleRefused(EXAMPLES_RULE, f"the object {call} does not meet all its statements")
        used += found
    calls = ", ".join(call for call, _ in built)
    premises = tuple(dict.fromkeys(
        [Premise(PremiseKind.BOUNDED, f"{constructor.name}: only at the arguments of its "
                                      f"examples ({calls})"), *(p for t in used for p in t.premises)]))
    return [Theorem(_KERNEL, statement, EXAMPLES_RULE, premises)
            for statement in standard_statements(constructor, kinds.pop())]


def components(values: Iterable[Any]) -> list[Any]:
    """The transformations and measurements among ``values``, in lists and tuples too."""
    found: list[Any] = []
    for value in values:
        if object_kind(value) is not None:
            found.append(value)
        elif isinstance(value, (list, tuple)):
            found += components(value)
    return found


def _obligation_premises(obligation: Obligation, module: str) -> list[Premise]:
    premises = [Premise(PremiseKind.REVIEWED_MODULE, module),
                Premise(PremiseKind.PROVED, obligation.id)]
    premises += [Premise(PremiseKind.CITES, source) for source in obligation.cites]
    if obligation.assumes:
        premises.append(Premise(PremiseKind.ASSUMES, obligation.assumes))
    if obligation.bound:
        premises.append(Premise(PremiseKind.BOUNDED, f"{obligation.id}: {obligation.bound}"))
    if obligation.arithmetic:
        premises.append(Premise(PremiseKind.EXACT_ARITHMETIC,
                                f"{obligation.id}: {obligation.arithmetic}"))
    return premises
