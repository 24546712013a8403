"""The fold rule, for one built transformation or for every argument of a constructor.

A ``Fold(step, finalize, init)`` from vectors of atoms under the symmetric distance to an int
under the absolute distance is ``d -> d * Delta``-stable when its step is right-commutative,
``step(step(a, x), y) = step(step(a, y), x)`` for every accumulator ``a`` and rows ``x, y`` (then
the fold ignores the order of its rows: adjacent transpositions generate every permutation), and
one more row moves the result by at most ``Delta``, ``|finalize(step(a, x)) - finalize(a)| <=
Delta`` for every accumulator ``a`` (a dataset at symmetric distance ``d`` is ``d`` added or
removed rows away, and the order of rows does not matter). On vectors of one size ``n``
(``SizedDomain``) two datasets at distance ``d`` are ``min(floor(d / 2), n)`` substitutions
apart, so ``|finalize(step(a, x)) - finalize(step(a, y))| <= Delta`` and ``map(d) >=
min(floor(d / 2), n) * Delta`` suffice. Unlike the additive-noise rule, this one is not bounded:
the accumulator stands for every dataset.

Python's ``len`` as the function is read as the fold of one more per row from 0, which its
documentation says it computes on a list: the theorems then cite it.

Premises, each checked here on the running object: the exact classes (``Transformation``,
``Fold`` or ``len``, a ``VectorDomain``, or a ``SizedDomain`` of one, of a float, int, bool or str
``AtomDomain``, ``SymmetricDistance``, ``AtomDomain(int)``, ``AbsoluteDistance``), an int
``init``; the step's and finalize's code tests no solver term and draws no randomness; run on a
Z3 accumulator and Z3 rows they return Z3 integers, test no term's type, and on hard accumulators
and rows give what they give when run; and Z3 proves the commutation, ``Delta`` (found by Z3,
then proved), ``finalize(a)`` in the output domain for every accumulator, and the map goal for
every natural ``d`` with the map's floats rounded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import z3

from mechanisms import float_model
from mechanisms.core import Fold, Transformation
from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import is_true
from obligations.kernel.code_checks import one_body_no_randomness
from obligations.kernel.every_argument import (HARD_VALUES, SYMBOLS, admitted, as_term,
                                               built_on_terms, signatures)
from obligations.kernel.goals import (bare, int_term, integral_term, largest_move, map_at_least,
                                      on_terms, prove, refused_claims, require)
from obligations.kernel.rules import RuleRefused, by_claim
from obligations.kernel.statements import (Claim, ObjectKind, object_statements,
                                           standard_statements)
from obligations.kernel.theorems import _KERNEL, Premise, PremiseKind, Theorem

FOLD_RULE = "fold of a right-commutative step"


def _one_more(count: Any, row: Any) -> Any:
    """``len``'s step: one more row, whatever it holds."""
    return count + 1


def _the_count(count: Any) -> Any:
    return count


LEN = Fold(_one_more, _the_count, 0)
"""Python's ``len`` on a list, read as the fold it computes."""
LEN_CITED = Premise(PremiseKind.CITES, "Python 3 docs: len(s) is the number of items of s, an int "
                    ">= 0 (object.__len__); on a list, the fold of one more per row from 0")


def fold(subject: str, built: Any) -> list[Theorem]:
    """Output domain, compatibility and stability of the one transformation ``built``; raises
    :class:`RuleRefused` naming the first premise that fails."""
    read = _read(subject, built, [])
    _agrees(subject, read)
    _, after_xy, after_yx, final, final_x, final_y = read.terms
    prove(FOLD_RULE, f"{subject}: the step is right-commutative",
          lambda: after_xy == after_yx, read.within)
    move = final_x - (final if read.size is None else final_y)
    delta = largest_move(FOLD_RULE, f"{subject}: the move of the result when {read.change}",
                         move, read.within if read.size is not None else read.within[:1])
    prove(FOLD_RULE, f"{subject}: finalize(a) is in the output domain for every accumulator a",
          lambda: is_true(built.output_domain.contains(final)))
    map_at_least(FOLD_RULE, subject, built, lambda d: read.steps(d) * delta,
                 f"{read.steps_text} * {delta}")
    return [Theorem(_KERNEL, statement, FOLD_RULE, read.premises)
            for statement in object_statements(subject, built)]


def fold_for_every_argument(constructor: Any) -> list[Theorem]:
    """Output domain, compatibility and stability of every transformation ``constructor``
    builds, for every argument it admits: it declares its arguments' sorts
    (:mod:`.every_argument`), so the build runs once per signature on solver arguments and
    every goal holds under the preconditions for all of them; ``steps(d) * |move| <= map(d)``
    replaces the numeric ``Delta``. At hard arguments it admits, the built fold computes what it
    computes on terms."""
    refused: dict[Claim, str] = {}
    premises: dict[Premise, None] = {}
    for signature in signatures(FOLD_RULE, constructor):
        subject, built, preconditions = built_on_terms(FOLD_RULE, constructor, signature)
        read = _read(subject, built, preconditions)
        premises.update(dict.fromkeys(read.premises))
        _, after_xy, after_yx, final, final_x, final_y = read.terms
        move = final_x - (final if read.size is None else final_y)
        facts = read.within if read.size is not None else read.within[:-1]
        refused = {**refused_claims([
            (Claim.STABILITY, lambda: prove(FOLD_RULE, f"{subject}: the step is right-commutative",
                                            lambda: after_xy == after_yx, read.within)),
            (Claim.OUTPUT_DOMAIN, lambda: prove(
                FOLD_RULE, f"{subject}: finalize(a) is in the output domain for every "
                "accumulator a", lambda: is_true(built.output_domain.contains(final)),
                preconditions)),
            (Claim.STABILITY, lambda: map_at_least(
                FOLD_RULE, subject, built,
                lambda d: read.steps(d) * z3.If(move < 0, -move, move),
                f"{read.steps_text} times the move of the result when {read.change}", facts)),
        ]), **refused}
        for _, call, obj in admitted(FOLD_RULE, constructor, signature):
            _agrees(call, _read(call, obj, []))
    return by_claim(FOLD_RULE, standard_statements(constructor, ObjectKind.TRANSFORMATION),
                    tuple(premises), refused)


ACCUMULATOR, ROWS = "accumulator", ("row!0", "row!1")


@dataclass(frozen=True)
class _Reading:
    """The fold read on a Z3 accumulator ``a`` and rows ``x, y`` of its row domain: ``terms``
    are ``step(a, x)``, ``step(step(a, x), y)``, ``step(step(a, y), x)``, ``finalize(a)``,
    ``finalize(step(a, x))`` and ``finalize(step(a, y))``; ``within`` the facts, the rows'
    membership last; ``size`` the one size of its datasets, None for any size; the ``premises``
    the reading rests on (the documentation of ``len``, when it is the function)."""

    function: Fold
    element: AtomDomain
    size: Any
    within: list[Any]
    terms: list[Any]
    premises: tuple[Premise, ...]

    @property
    def change(self) -> str:
        return "a row is added" if self.size is None else "a row is replaced"

    @property
    def steps_text(self) -> str:
        return "d_in" if self.size is None else "min(floor(d_in / 2), size)"

    def steps(self, d: Any) -> Any:
        """How many added rows (any size) or replaced rows (one size: at most all of them) are
        ``d`` apart."""
        if self.size is None:
            return d
        half, size = z3.ToInt(d) / 2, int_term(self.size)
        return z3.ToReal(half if size is None else z3.If(half < size, half, size))


def _read(subject: str, built: Any, facts: list[Any]) -> _Reading:
    """The fold's shape, and its step and finalize on terms (:class:`_Reading`)."""
    function, element, size = _fold_shape(subject, built)
    a = float_model.int_parameter(ACCUMULATOR)
    x, y = (SYMBOLS[element.carrier](row) for row in ROWS)
    within = [*facts, is_true(element.contains(x)), is_true(element.contains(y))]
    return _Reading(function, element, size, within, _on_terms(subject, function, within, [
        lambda: function.step(a, x), lambda: function.step(function.step(a, x), y),
        lambda: function.step(function.step(a, y), x),
        lambda: function.finalize(a, **function.params),
        lambda: function.finalize(function.step(a, x), **function.params),
        lambda: function.finalize(function.step(a, y), **function.params)]),
        (LEN_CITED,) if function is LEN else ())


def _fold_shape(subject: str, built: Any) -> tuple[Fold, AtomDomain, Any]:
    """The exact classes the rule covers, and a step and finalize that run one body and draw no
    randomness; returns the fold, its row domain and its one size (None: any)."""
    function = built.function if isinstance(built, Transformation) else None
    function = LEN if function is len else function
    require(FOLD_RULE, type(built) is Transformation and type(function) is Fold,
            f"{subject} is not a Transformation whose function is a Fold (or len)")
    require(FOLD_RULE, type(built.input_metric) is SymmetricDistance
            and type(built.output_metric) is AbsoluteDistance,
            f"{subject} is not from the symmetric distance to the absolute distance")
    sized = type(built.input_domain) is SizedDomain
    vectors = built.input_domain.inner if sized else built.input_domain
    element = vectors.element if type(vectors) is VectorDomain else None
    require(FOLD_RULE, type(element) is AtomDomain and element.carrier in SYMBOLS,
            f"the input domain of {subject} is not a VectorDomain (or a SizedDomain of one) of "
            "float, int, bool or str atoms")
    require(FOLD_RULE, type(built.output_domain) is AtomDomain and built.output_domain.carrier
            is int, f"the output domain of {subject} is not an AtomDomain of int")
    require(FOLD_RULE, type(function.init) is int, f"the fold of {subject} starts from "
            f"{function.init!r}, not an int")
    one_body_no_randomness(FOLD_RULE, [function.step, function.finalize],
                           f"the fold of {subject}")
    return function, element, built.input_domain.size if sized else None


def _on_terms(subject: str, function: Fold, within: Sequence[Any],
              runs: Sequence[Any]) -> list[Any]:
    """Each run (the step or finalize on terms, the rows ``within`` the row domain) as a bare
    Z3 integer."""
    try:
        with on_terms() as watch:
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


def _agrees(subject: str, read: _Reading) -> None:
    """On hard accumulators and admitted rows, the step and finalize give when run what they
    give on terms (``step(a, x)`` and ``finalize(a)``)."""
    a = z3.Int(ACCUMULATOR)
    x = bare(SYMBOLS[int](ROWS[0])) if read.element.carrier is int else \
        SYMBOLS[read.element.carrier](ROWS[0])
    function = read.function
    for accumulator in (function.init, *HARD_VALUES[int]):
        for row in (r for r in HARD_VALUES[read.element.carrier] if read.element.member(r)):
            try:
                stepped = function.step(accumulator, row)
                finished = function.finalize(accumulator, **function.params)
            except Exception as error:  # noqa: BLE001 - a row on which the fold raises
                raise RuleRefused(FOLD_RULE, f"the fold of {subject} raises on accumulator "
                                  f"{accumulator} and row {row!r} ({type(error).__name__}: "
                                  f"{error})") from None
            on_terms = [z3.simplify(z3.substitute(t, (a, z3.IntVal(accumulator)),
                                                  (x, as_term(row))))
                        for t in (read.terms[0], read.terms[3])]
            require(FOLD_RULE, all(type(v) is int and t.eq(z3.IntVal(v))
                                   for v, t in zip((stepped, finished), on_terms)),
                    f"the fold of {subject} computes otherwise on terms than on accumulator "
                    f"{accumulator} and row {row!r}: {stepped!r}, {finished!r} when run, "
                    f"{on_terms[0]}, {on_terms[1]} on terms")
