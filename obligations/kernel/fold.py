"""The fold rule, for one built transformation, and the exact refutation of any transformation's
stability.

A ``Fold(step, finalize, init)`` from vectors of int atoms under the symmetric distance to an int
under the absolute distance is ``d -> d * Delta``-stable when its step is right-commutative,
``step(step(a, x), y) = step(step(a, y), x)`` for every accumulator ``a`` and rows ``x, y`` (then
the fold ignores the order of its rows: adjacent transpositions generate every permutation), and
one more row moves the result by at most ``Delta``, ``|finalize(step(a, x)) - finalize(a)| <=
Delta`` for every accumulator ``a`` (a dataset at symmetric distance ``d`` is ``d`` added or
removed rows away, and the order of rows does not matter). Unlike the additive-noise rule, this
one is not bounded: the accumulator stands for every dataset.

Premises, each checked here on the running object: the exact classes (``Transformation``,
``Fold``, ``VectorDomain`` of an int ``AtomDomain``, ``SymmetricDistance``, ``AtomDomain(int)``,
``AbsoluteDistance``), an int ``init``; the step's and finalize's code tests no solver term and
draws no randomness; run on a Z3 accumulator and Z3 rows they return Z3 integers, test no term's
type, and on hard accumulators and rows give what they give when run; and Z3 proves the
commutation, ``Delta`` (found by Z3, then proved), ``finalize(a)`` in the output domain for every
accumulator, and ``map(d) >= d * Delta`` for every natural ``d`` with the map's floats rounded.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

import z3

from mechanisms import float_model
from mechanisms.core import Fold, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import is_true
from obligations.kernel.code_checks import one_body_no_randomness
from obligations.kernel.every_argument import HARD_VALUES, admitted, built_on_terms, signatures
from obligations.kernel.goals import (built_at, integral_term, largest_move, map_at_least,
                                      prove, refused_claims, require, shown)
from obligations.kernel.rules import RuleRefused, by_claim
from obligations.kernel.statements import (Claim, ObjectKind, Statement, object_statements,
                                           standard_statements)
from obligations.kernel.theorems import _KERNEL, Refutation, Theorem

FOLD_RULE = "fold of a right-commutative step"
REFUTE_RULE = "exact distance of a transformation's outputs"
METRICS_MODULE = "mechanisms.metrics"


def fold(subject: str, built: Any) -> list[Theorem]:
    """Output domain, compatibility and stability of the one transformation ``built``; raises
    :class:`RuleRefused` naming the first premise that fails."""
    function, within, terms = _read(subject, built, [])
    _agrees(subject, function, terms)
    _, after_xy, after_yx, final, final_x = terms
    prove(FOLD_RULE, f"{subject}: the step is right-commutative",
          lambda: after_xy == after_yx, within)
    delta = largest_move(FOLD_RULE, f"{subject}: the move of the result when a row is added",
                         final_x - final, within[:1])
    prove(FOLD_RULE, f"{subject}: finalize(a) is in the output domain for every accumulator a",
          lambda: is_true(built.output_domain.contains(final)))
    map_at_least(FOLD_RULE, subject, built, lambda d: d * delta, f"d_in * {delta}")
    return [Theorem(_KERNEL, statement, FOLD_RULE, ())
            for statement in object_statements(subject, built)]


def fold_for_every_argument(constructor: Any) -> list[Theorem]:
    """Output domain, compatibility and stability of every transformation ``constructor``
    builds, for every argument it admits: it declares every argument an int
    (:mod:`.every_argument`), so the build runs once on Z3 integers and every goal holds under
    the preconditions for all of them; ``d * |move| <= map(d)`` replaces the numeric ``Delta``.
    At hard arguments it admits, the built fold computes what it computes on terms."""
    refused: dict[Claim, str] = {}
    for signature in signatures(FOLD_RULE, constructor):
        require(FOLD_RULE, all(sort is int for sort in signature.values()),
                f"{constructor.name} does not declare every argument an int")
        subject, built, preconditions = built_on_terms(FOLD_RULE, constructor, signature)
        _, within, (_, after_xy, after_yx, final, final_x) = _read(subject, built, preconditions)
        move = final_x - final
        refused = {**refused_claims([
            (Claim.STABILITY, lambda: prove(FOLD_RULE, f"{subject}: the step is right-commutative",
                                            lambda: after_xy == after_yx, within)),
            (Claim.OUTPUT_DOMAIN, lambda: prove(
                FOLD_RULE, f"{subject}: finalize(a) is in the output domain for every "
                "accumulator a", lambda: is_true(built.output_domain.contains(final)),
                preconditions)),
            (Claim.STABILITY, lambda: map_at_least(
                FOLD_RULE, subject, built, lambda d: d * z3.If(move < 0, -move, move),
                "d_in times the move of one added row", within[:-1])),
        ]), **refused}
        for call, obj in admitted(FOLD_RULE, constructor, signature):
            function, _, terms = _read(call, obj, [])
            _agrees(call, function, terms)
    return by_claim(FOLD_RULE, standard_statements(constructor, ObjectKind.TRANSFORMATION), (),
                    refused)


ACCUMULATOR, ROWS = "accumulator", ("row!0", "row!1")


def _read(subject: str, built: Any, facts: list[Any]) -> tuple[Fold, list[Any], list[Any]]:
    """``(fold, within, terms)``: the rule's shape, the facts (``facts``, and two rows ``x, y``
    in the row domain) and, on a Z3 accumulator ``a``, ``step(a, x)``, ``step(step(a, x),
    y)``, ``step(step(a, y), x)``, ``finalize(a)`` and ``finalize(step(a, x))``."""
    function, element = _fold_shape(subject, built)
    a = float_model.int_parameter(ACCUMULATOR)
    x, y = (float_model.int_parameter(row) for row in ROWS)
    within = [*facts, is_true(element.contains(x)), is_true(element.contains(y))]
    return function, within, _on_terms(subject, function, within, [
        lambda: function.step(a, x), lambda: function.step(function.step(a, x), y),
        lambda: function.step(function.step(a, y), x),
        lambda: function.finalize(a, **function.params),
        lambda: function.finalize(function.step(a, x), **function.params)])


def _fold_shape(subject: str, built: Any) -> tuple[Fold, AtomDomain]:
    """The exact classes the rule covers, and a step and finalize that run one body and draw no
    randomness; returns the fold and its row domain."""
    function = built.function if isinstance(built, Transformation) else None
    require(FOLD_RULE, type(built) is Transformation and type(function) is Fold,
            f"{subject} is not a Transformation whose function is a Fold")
    require(FOLD_RULE, type(built.input_metric) is SymmetricDistance
            and type(built.output_metric) is AbsoluteDistance,
            f"{subject} is not from the symmetric distance to the absolute distance")
    element = built.input_domain.element if type(built.input_domain) is VectorDomain else None
    require(FOLD_RULE, type(element) is AtomDomain and element.carrier is int,
            f"the input domain of {subject} is not a VectorDomain of int atoms")
    require(FOLD_RULE, type(built.output_domain) is AtomDomain and built.output_domain.carrier
            is int, f"the output domain of {subject} is not an AtomDomain of int")
    require(FOLD_RULE, type(function.init) is int, f"the fold of {subject} starts from "
            f"{function.init!r}, not an int")
    one_body_no_randomness(FOLD_RULE, [function.step, function.finalize],
                           f"the fold of {subject}")
    return function, element


def _on_terms(subject: str, function: Fold, within: Sequence[Any],
              runs: Sequence[Any]) -> list[Any]:
    """Each run (the step or finalize on terms, the rows ``within`` the row domain) as a bare
    Z3 integer."""
    from checker.type_tests import TypeTestWatch  # the checker's guard, trusted as the kernel is
    try:
        with TypeTestWatch() as watch:
            values = [run() for run in runs]
    except Exception as error:  # noqa: BLE001 - whatever the fold raises on terms
        raise RuleRefused(FOLD_RULE, f"the fold of {subject} does not run on solver terms "
                          f"({type(error).__name__}: {error})") from None
    require(FOLD_RULE, not watch.found, f"the fold of {subject} tests the type of a solver term "
            f"({'; '.join(sorted(watch.found))})")
    terms = [integral_term(FOLD_RULE, f"the fold of {subject} on terms", v, within)
             for v in values]
    require(FOLD_RULE, all(t is not None for t in terms),
            f"the fold of {subject} does not compute an int on a solver accumulator and row")
    return terms


def _agrees(subject: str, function: Fold, terms: list[Any]) -> None:
    """On hard accumulators and rows, the step and finalize give when run what they give on
    terms (``step(a, x)`` and ``finalize(a)``, the first and fourth of :func:`_read`'s)."""
    a, x = z3.Int(ACCUMULATOR), z3.Int(ROWS[0])
    for accumulator in (function.init, *HARD_VALUES[int]):
        for row in HARD_VALUES[int]:
            try:
                stepped = function.step(accumulator, row)
                finished = function.finalize(accumulator, **function.params)
            except Exception as error:  # noqa: BLE001 - a row on which the fold raises
                raise RuleRefused(FOLD_RULE, f"the fold of {subject} raises on accumulator "
                                  f"{accumulator} and row {row} ({type(error).__name__}: "
                                  f"{error})") from None
            on_terms = [z3.simplify(z3.substitute(t, (a, z3.IntVal(accumulator)),
                                                  (x, z3.IntVal(row)))) for t in (terms[0], terms[3])]
            require(FOLD_RULE, all(type(v) is int and t.eq(z3.IntVal(v))
                                   for v, t in zip((stepped, finished), on_terms)),
                    f"the fold of {subject} computes otherwise on terms than on accumulator "
                    f"{accumulator} and row {row}: {stepped!r}, {finished!r} when run, "
                    f"{on_terms[0]}, {on_terms[1]} on terms")


def refute_stability(statement: Statement, built: Any, dataset: Any, other: Any, d_in: Any,
                     call: str = "") -> Refutation:
    """A refutation of ``statement``, the stability of the one transformation ``built`` (named
    ``call`` in the witness, if given), at two inputs."""
    require(REFUTE_RULE, statement.built and statement.of == id(built),
            f"the statement refuted is not about {call or statement.subject}")
    return _refuted(statement, built, dataset, other, d_in, call)


def refute_stability_of_constructor(statement: Statement, constructor: Any,
                                    arguments: dict[str, Any], dataset: Any, other: Any,
                                    d_in: Any) -> Refutation:
    """A refutation of ``constructor``'s stability statement at ``arguments``, which it admits
    (the kernel builds the object itself), and two inputs."""
    built, call = built_at(REFUTE_RULE, statement, constructor, arguments)
    return _refuted(statement, built, dataset, other, d_in, call)


def _refuted(statement: Statement, built: Any, dataset: Any, other: Any, d_in: Any,
             call: str) -> Refutation:
    """The outputs of the two inputs, computed by the running code, are farther apart in the
    output metric than ``map(d_in)``, both distances computed exactly by the catalogue's
    metrics; ``statement`` is known to be about ``built``."""
    subject = call or statement.subject
    require(REFUTE_RULE, statement.claim is Claim.STABILITY and type(built) is Transformation,
            f"the statement refuted is not the stability of the transformation {subject}")
    require(REFUTE_RULE, all(type(m).__module__ == METRICS_MODULE
                             for m in (built.input_metric, built.output_metric)),
            f"the metrics of {subject} are not the catalogue's")
    require(REFUTE_RULE, built.input_domain.member(dataset) and built.input_domain.member(other),
            f"{dataset!r} or {other!r} is not in the input domain of {subject}")
    distance = built.input_metric.distance(dataset, other)
    require(REFUTE_RULE, _exact(distance) is not None and _exact(distance) <= _exact(d_in),
            f"{dataset!r} and {other!r} are at distance {distance} > {d_in}")
    claimed = built.map(d_in)
    outputs = (built.function(dataset), built.function(other))
    d_out = built.output_metric.distance(*outputs)
    exceeded = _exact(claimed) is not None and (
        d_out == float("inf") or _exact(d_out) is not None and _exact(d_out) > _exact(claimed))
    require(REFUTE_RULE, exceeded, f"d_out = {d_out} does not exceed map({d_in}) = {claimed!r}")
    witness = (f"{subject}: {shown(dataset)} and {shown(other)} at distance {distance} <= d_in = "
               f"{d_in}; "
               f"outputs {outputs[0]!r} and {outputs[1]!r} at distance {d_out} > map({d_in}) = "
               f"{claimed!r}")
    return Refutation(_KERNEL, statement, REFUTE_RULE, witness, d_out, claimed)


def _exact(value: Any) -> Fraction | None:
    """A finite number as a fraction; None for anything else (NaN, infinities, terms)."""
    try:
        return Fraction(value)
    except (TypeError, ValueError, OverflowError):
        return None
