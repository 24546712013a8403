"""What the rules share: code run on solver terms under guards (no type test on a term, no
branch on one), a premise that holds or refuses, a Z3 goal proved within a time limit (first
with its IEEE-754 products replaced by what the standard fixes of them), the largest value of a
term, the map goal ``map(d) >= lower(d)`` for every natural ``d`` (floats rounded as IEEE-754
does)."""

from __future__ import annotations

import contextlib
import math
from fractions import Fraction
from typing import Any, Callable, Iterator, Sequence

import z3

from mechanisms import float_model
from obligations.kernel.code_checks import map_one_body
from obligations.kernel.rules import RuleRefused
from obligations.symbols import natural_int

GOAL_SECONDS = 10.0


class BranchOnTerm(Exception):
    """Code run on terms branched on one (``if d_in == 3:``) where no path is followed: Z3's own
    ``bool`` would take one side (for ``==``, whether both are the same expression)."""


def _refused(term: Any) -> bool:
    if z3.is_true(term) or z3.is_false(term):
        return z3.is_true(term)
    raise BranchOnTerm(f"a Python branch on the solver term {term}: the solver would follow one "
                       "side only")


_DECIDING: list[Callable[[Any], bool]] = []
"""What answers Python's ``bool`` of a Z3 boolean now (the last); with none, Z3's own."""
z3.BoolRef.__bool__ = lambda term: (  # type: ignore[method-assign]
    _DECIDING[-1](term) if _DECIDING else super(z3.BoolRef, term).__bool__())


@contextlib.contextmanager
def deciding(decide: Callable[[Any], bool]) -> Iterator[None]:
    """Within this block ``decide(term)`` answers Python's ``bool`` of every Z3 boolean."""
    _DECIDING.append(decide)
    try:
        yield
    finally:
        _DECIDING.pop()


def no_branches() -> contextlib.AbstractContextManager[None]:
    """Within this block a branch on a solver term raises :class:`BranchOnTerm`, unless
    :func:`~obligations.kernel.paths.every_path` decides branches around it."""
    return deciding(_DECIDING[-1] if _DECIDING else _refused)


@contextlib.contextmanager
def on_terms() -> Iterator[Any]:
    """The guards of code run on solver terms: no type test on a term (the checker's
    ``TypeTestWatch``, whose ``found`` the caller checks) and no branch on one."""
    from checker.type_tests import TypeTestWatch  # the checker's guard, trusted as the kernel is
    with TypeTestWatch() as watch, no_branches():
        yield watch


def require(rule: str, condition: bool, why: str) -> None:
    if not condition:
        raise RuleRefused(rule, why)


def prove(rule: str, name: str, claim: Callable[[], Any], facts: Sequence[Any] = ()) -> None:
    """``facts => claim()`` is valid (Z3, within :data:`GOAL_SECONDS`), ``facts`` read once the
    claim is built (it may run the object's code on terms, add rounding facts, or raise). A goal
    with IEEE-754 products is first tried with them replaced (:func:`products_abstracted`),
    which Z3 decides without bit-blasting a multiplier; if that does not prove it, as stated."""
    try:
        with no_branches():
            stated = claim()
    except Exception as error:  # noqa: BLE001 - the object's code on solver terms
        raise RuleRefused(rule, f"{name}: cannot be stated on solver terms "
                          f"({type(error).__name__}: {error})") from None
    solver = z3.Solver()
    solver.set("timeout", int(GOAL_SECONDS * 1000))
    try:
        solver.add(*facts, z3.Not(stated))
    except z3.Z3Exception as error:  # a fact or claim that is not a boolean (a precondition's)
        raise RuleRefused(rule, f"{name}: its facts are not all booleans ({error})") from None
    if _fp_products(*solver.assertions()):  # bit-blasting one is slow: first without
        without = z3.Solver()
        without.set("timeout", int(GOAL_SECONDS * 1000))
        without.add(products_abstracted(z3.And(*solver.assertions())))
        if without.check() == z3.unsat:
            return
    answer = solver.check()
    require(rule, answer == z3.unsat, f"{name}: "
            f"{'refuted at ' + str(solver.model()) if answer == z3.sat else 'not decided'}")


def _fp_products(*formulas: Any) -> list[Any]:
    """The IEEE-754 products (``fp.mul``) in ``formulas``, each once."""
    found: dict[int, Any] = {}
    seen: set[int] = set()
    pending = list(formulas)
    while pending:
        term = pending.pop()
        if term.get_id() not in seen:
            seen.add(term.get_id())
            if z3.is_app(term):
                if term.decl().kind() == z3.Z3_OP_FPA_MUL:
                    found[term.get_id()] = term
                pending += term.children()
    return list(found.values())


def products_abstracted(formula: Any) -> Any:
    """``formula`` with each IEEE-754 product ``a * b`` replaced by what IEEE 754-2019 fixes of
    it: NaN when an operand is NaN or it is 0 x inf (6.2, 7.2); else the exclusive or of the
    operands' signs (6.3) on a magnitude that is not NaN, an unknown function of the rounding
    mode, that sign and the operands' magnitudes. The real product is one such function, so a
    model of ``formula`` is a model of this one: unsat here is unsat there."""
    magnitudes: dict[Any, Any] = {}  # one fresh function per sort, so congruence still holds
    while products := [p for p in _fp_products(formula) if not _fp_products(*p.children())]:
        replaced, known = [], []
        for product in products:
            mode, a, b = product.children()
            sort = product.sort()
            magnitude = magnitudes.setdefault(sort, z3.FreshFunction(
                mode.sort(), z3.BoolSort(), sort, sort, sort))
            negative = z3.Xor(z3.fpIsNegative(a), z3.fpIsNegative(b))
            size = magnitude(mode, negative, z3.fpAbs(a), z3.fpAbs(b))
            invalid = z3.Or(z3.fpIsNaN(a), z3.fpIsNaN(b), z3.And(z3.fpIsInf(a), z3.fpIsZero(b)),
                            z3.And(z3.fpIsZero(a), z3.fpIsInf(b)))
            replaced.append((product, z3.If(invalid, z3.fpNaN(sort),
                                             z3.If(negative, z3.fpNeg(size), size))))
            known.append(z3.And(z3.Not(z3.fpIsNaN(size)), z3.Not(z3.fpIsNegative(size))))
        formula = z3.And(z3.substitute(formula, *replaced), *known)
    return formula


def refused_claims(checks: Sequence[tuple[Any, Callable[[], None]]]) -> dict[Any, str]:
    """Runs each ``(claim, check)`` unless a check of the same claim already failed; returns the
    first failure of each claim (a :class:`RuleRefused`'s premise)."""
    refused: dict[Any, str] = {}
    for claim, check in checks:
        if claim not in refused:
            try:
                check()
            except RuleRefused as failed:
                refused[claim] = failed.why
    return refused


def bare(term: Any) -> Any:
    """A Z3 term without the Python semantics of :mod:`mechanisms.float_model`'s term classes."""
    return z3.ArithRef(term.as_ast(), term.ctx)


def int_term(value: Any) -> Any:
    """A Python int or a Z3 integer term as a bare Z3 integer term; None for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return z3.IntVal(value)
    if isinstance(value, z3.ArithRef) and value.is_int():
        return bare(value)
    return None


def integral_term(rule: str, name: str, value: Any, facts: Sequence[Any]) -> Any:
    """``value`` as a bare Z3 integer term; a real term (``ops.where(c, 1, 0)`` gives one) only
    when Z3 proves it an integer under ``facts``; None for anything else."""
    if int_term(value) is not None:
        return int_term(value)
    if isinstance(value, z3.ArithRef) and value.is_real():
        term = bare(value)
        prove(rule, f"{name} is an integer", lambda: z3.IsInt(term), facts)
        return z3.ToInt(term)
    return None


def largest_move(rule: str, name: str, move: Any, facts: Sequence[Any]) -> Fraction:
    """The largest ``|move|`` under ``facts``, a rational: Z3 maximises, then the bound is
    proved."""
    moved = z3.If(move < 0, -move, move)
    optimizer = z3.Optimize()
    optimizer.set("timeout", int(GOAL_SECONDS * 1000))
    optimizer.add(*facts)
    best = optimizer.maximize(moved)
    value = optimizer.upper(best) if optimizer.check() == z3.sat else None
    require(rule, value is not None and (z3.is_int_value(value) or z3.is_rational_value(value)),
            f"{name}: no finite largest value found")
    bound = Fraction(value.as_long()) if z3.is_int_value(value) else value.as_fraction()
    prove(rule, f"{name}: at most {bound}",
          lambda: z3.And(move <= as_real(bound), -move <= as_real(bound)), facts)
    return bound


def map_at_least(rule: str, subject: str, built: Any, lower: Callable[[Any], Any],
                 what: str, facts: Sequence[Any] = ()) -> None:
    """``built.map(d) >= lower(d)`` (``what`` says it in words) for every natural ``d`` (and
    every value of the other constants under ``facts``), the map run on a Z3 integer under the
    rounding model."""
    _map_goal(rule, subject, built, lambda d: lambda: lower(z3.ToReal(bare(d))), what, facts)


def map_dominates(rule: str, subject: str, built: Any, other: Any, what: str) -> None:
    """``built.map(d) >= other.map(d)`` for every natural ``d`` (``what`` names ``other``'s
    map), both run on one Z3 integer under the rounding model."""
    map_one_body(rule, what, other)

    def others(d: Any) -> Any:
        value = _map_on_term(rule, what, other, d)
        require(rule, not (isinstance(value, float) and value == math.inf),
                f"{what} is infinite on a solver d_in")
        return lambda: as_real(value)
    _map_goal(rule, subject, built, others, what)


def _map_goal(rule: str, subject: str, built: Any, lower: Callable[[Any], Callable[[], Any]],
              what: str, facts: Sequence[Any] = ()) -> None:
    """``built.map(d) >= lower(d)()``: ``lower`` is given the natural Z3 integer ``d`` under the
    rounding model, and what it returns gives the bound when the goal is proved."""
    map_one_body(rule, subject, built)
    given = list(facts)
    with float_model.rounding_model() as model:
        d, facts = natural_int("d_in")
        value = _map_on_term(rule, subject, built, d)
        bound = None if isinstance(value, float) and value == math.inf else lower(d)
        facts = [*facts, *model.facts, *given]
    if bound is None:
        return
    prove(rule, f"{subject}: map(d_in) >= {what}, for every natural d_in",
          lambda: as_real(value) >= bound(), facts)


def _map_on_term(rule: str, subject: str, built: Any, d: Any) -> Any:
    """``built.map(d)`` on the solver ``d``, as a plain number or Z3 term."""
    try:
        with no_branches():
            value = built.map(d)
    except Exception as error:  # noqa: BLE001 - the map on solver terms
        raise RuleRefused(rule, f"the map of {subject} does not run on a solver d_in "
                          f"({type(error).__name__}: {error})") from None
    if isinstance(value, float) and value == math.inf:
        return value
    value = float_model.plain(value)
    require(rule, isinstance(value, (int, float, Fraction, z3.ArithRef))
            and not (isinstance(value, float) and math.isnan(value)),
            f"the map of {subject} returns {value!r} on a solver d_in")
    return value


def as_real(value: Any) -> Any:
    """A number or Z3 arithmetic term as a Z3 real."""
    if isinstance(value, z3.ArithRef):
        return z3.ToReal(value) if value.is_int() else value
    exact = Fraction(value)
    return z3.RealVal(f"{exact.numerator}/{exact.denominator}")
