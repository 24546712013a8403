"""Proposing theorems for the standard statements of an entry or of one built object: untrusted.
It only chooses which of the kernel's rules to try; a wrong choice fails a statement, since the
kernel accepts a theorem only for the statement it derived itself
(:func:`obligations.kernel.certify.certify`)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from mechanisms.core import provenance
from obligations.base import Entry, Kind, Obligation
from obligations.kernel.additive_noise import additive_noise
from obligations.kernel.certify import has_reviewed_proof
from obligations.kernel.finite_law import finite_law
from obligations.kernel.fold import fold, fold_for_every_argument
from obligations.kernel.row_transform import (row_filter, row_filter_for_every_argument,
                                               row_transform, row_transform_for_every_argument)
from obligations.kernel.rules import (PartlyProved, RuleRefused, at_examples, by_reviewed_module,
                                      components, composed, instance,
                                      runtime_errors_from_output_domain)
from obligations.kernel.chain import chain_for_every_argument, takes_pair
from obligations.kernel.composition import composition_for_every_argument, takes_components
from obligations.kernel.conversion import conversion_for_every_argument
from obligations.kernel.equivalence import equal_in_value
from obligations.kernel.coordinate_noise import coordinate_noise_for_every_argument
from obligations.kernel.statements import Claim, Statement
from obligations.kernel.theorems import Theorem


def propose(entry: Entry, statements: Sequence[Statement],
            decided: Sequence[tuple[Obligation, bool]],
            by_constructor: Mapping[int, Sequence[Theorem]],
            examples: Sequence[tuple[str, Any]] = (), every_argument: bool = True,
            reference_examples: Sequence[tuple[str, Any]] = ()
            ) -> tuple[list[Theorem], dict[Statement, str]]:
    """Theorems for ``statements`` from a rule that proves them for every argument the
    constructor admits: from its declared sorts, else, with a reviewed proof module, from
    ``entry``'s decided obligations (where they leave a statement unproved, a variant they do
    not fit, from what follows), else from its plan over the constructors proved so far
    (``by_constructor``), else, bounded, from its reference's theorems where it computes the same
    values (at the arguments of its and its reference's examples, ``reference_examples``), else,
    bounded, from the objects its ``examples`` built (``(call, object)``); and why the others
    have none."""
    universal, reasons = _for_every_argument(entry.constructor) if every_argument else ({}, [])
    remaining = [s for s in statements if s.claim not in universal]
    if universal and not remaining:
        return list(universal.values()), {}
    if universal:
        rest, why = propose(entry, remaining, decided, by_constructor, examples,
                            every_argument=False, reference_examples=reference_examples)
        return ([*universal.values(), *(t for t in rest if t.statement.claim not in universal)],
                {s: "; ".join([*reasons, w]) for s, w in why.items()})
    if entry.constructor is not None and not has_reviewed_proof(entry):
        return _by_plan_or_examples(entry, statements, by_constructor, examples, reasons,
                                    reference_examples)
    theorems: dict[Claim, Theorem] = {}
    reasons: dict[Statement, str] = {}
    for statement in statements:
        try:
            theorems[statement.claim] = by_reviewed_module(statement.claim, statement.kind,
                                                           entry.constructor, decided)
        except RuleRefused as refused:
            reasons[statement] = str(refused)
    errors = next((s for s in statements if s.claim is Claim.RUNTIME_ERRORS), None)
    stated = any(o.kind is Kind.RUNTIME_ERRORS for o, _ in decided)
    if errors is not None and not stated and Claim.OUTPUT_DOMAIN in theorems:
        theorems[Claim.RUNTIME_ERRORS] = runtime_errors_from_output_domain(
            theorems[Claim.OUTPUT_DOMAIN])
        reasons.pop(errors, None)
    if reasons and entry.constructor is not None:  # a variant the module's goals do not fit
        others, why = _by_plan_or_examples(entry, statements, by_constructor, examples, [],
                                           reference_examples)
        if not why:
            return others, {}
        theorems = {t.statement.claim: t for t in others} | theorems
        reasons = {s: f"{w}; {why[s]}" for s, w in reasons.items() if s.claim not in theorems}
    return list(theorems.values()), reasons


def _by_plan_or_examples(entry: Entry, statements: Sequence[Statement],
                         by_constructor: Mapping[int, Sequence[Theorem]],
                         examples: Sequence[tuple[str, Any]], reasons: list[str],
                         reference_examples: Sequence[tuple[str, Any]] = ()
                         ) -> tuple[list[Theorem], dict[Statement, str]]:
    """Theorems from the theorems proved for the constructor in this run by another entry, else
    from its plan over the constructors proved so far, else, bounded, from its reference's where
    it computes the same values (at the arguments of its and its reference's examples), else,
    bounded, from the objects its ``examples`` built."""
    if by_constructor.get(id(entry.constructor)):
        return list(by_constructor[id(entry.constructor)]), {}
    reference = getattr(entry.constructor, "reference", None)
    arguments = [record.arguments for _, built in (*examples, *reference_examples)
                 if (record := provenance(built)) is not None]
    for rule in (lambda: composed(entry.constructor, by_constructor),
                 lambda: equal_in_value(entry.constructor,
                                        by_constructor.get(id(reference), ()), arguments),
                 lambda: _at_examples(entry, examples, by_constructor)):
        try:
            return rule(), {}
        except RuleRefused as refused:
            reasons.append(str(refused))
    return [], {s: "; ".join(reasons) for s in statements}


def _for_every_argument(constructor: Any) -> tuple[dict[Claim, Theorem], list[str]]:
    """The theorems a rule for every argument proves of ``constructor`` (one that declares its
    arguments' sorts, or takes one argument, a list of measurements, or two, a chain's components
    or a zCDP measurement and a delta), by claim, and why the rules
    refused."""
    reasons: list[str] = []
    if constructor is None:
        return {}, reasons
    if constructor.signatures:
        rules = (row_transform_for_every_argument, row_filter_for_every_argument,
                 fold_for_every_argument, coordinate_noise_for_every_argument)
    elif takes_components(constructor):
        rules = (composition_for_every_argument,)
    elif takes_pair(constructor):
        rules = (chain_for_every_argument, conversion_for_every_argument)
    else:
        return {}, reasons
    for rule in rules:
        try:
            return {t.statement.claim: t for t in rule(constructor)}, reasons
        except PartlyProved as partly:
            return {t.statement.claim: t for t in partly.theorems}, [str(partly)]
        except RuleRefused as refused:
            reasons.append(str(refused))
    return {}, reasons


def propose_object(subject: str, built: Any,
                   by_constructor: Mapping[int, Sequence[Theorem]]) -> list[Theorem]:
    """Theorems of every statement of ``built``, by the instance rule applied bottom-up: first to
    the objects among its constructor's arguments. ``by_constructor``: the theorems proved in
    this run, by ``id`` of their constructor. Raises :class:`RuleRefused` with the first reason."""
    reasons: list[str] = []
    for rule in (lambda: _instance(subject, built, by_constructor),
                 lambda: row_transform(subject, built), lambda: row_filter(subject, built),
                 lambda: fold(subject, built),
                 lambda: additive_noise(subject, built), lambda: finite_law(subject, built)):
        try:
            return rule()
        except RuleRefused as refused:
            reasons.append(refused.why if refused.rule == NO_RULE else str(refused))
    raise RuleRefused(NO_RULE, "; ".join(reasons))


NO_RULE = "no rule applies"


def _instance(subject: str, built: Any,
              by_constructor: Mapping[int, Sequence[Theorem]]) -> list[Theorem]:
    record = provenance(built)
    if record is None:
        return instance(subject, built, (), ())  # refuses, saying why
    parts: list[Theorem] = []
    for index, component in enumerate(components(record.arguments.values())):
        parts += propose_object(f"{subject} > {record.constructor.name} argument {index}",
                                component, by_constructor)
    return instance(subject, built, by_constructor.get(id(record.constructor), ()), parts)


def _at_examples(entry: Entry, examples: Sequence[tuple[str, Any]],
                 by_constructor: Mapping[int, Sequence[Theorem]]) -> list[Theorem]:
    objects = [t for call, built in examples for t in propose_object(call, built, by_constructor)]
    return at_examples(entry.constructor, examples, objects)

