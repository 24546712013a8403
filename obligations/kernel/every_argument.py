"""What the rules for every argument share: a constructor's declared signatures
(``Constructor(sorts=...)``), its build run once per signature on solver terms with its
preconditions as facts, and a few hard arguments it admits, at which the object rules check that
the running code computes what it computes on terms.

The sorts are enforced before the preconditions and the build run, so every argument the
constructor admits is of one declared signature and meets the preconditions; a goal valid under
the preconditions for solver terms of those sorts holds for it (``validate`` may only refuse
more).
"""

from __future__ import annotations

import contextlib
import itertools
import math
import struct
import sys
from typing import Any, Callable, Iterator

import z3

from mechanisms import float_model, ops
from mechanisms.core import Exactly, TupleOf
from mechanisms.errors import sort_text
from obligations.base import is_true
from obligations.kernel.code_checks import build_one_body
from obligations.kernel.goals import on_terms, prove, require
from obligations.kernel.rules import RuleRefused

HARD_VALUES: dict[type, tuple[Any, ...]] = {
    float: (0.0, -0.0, 1.5, -2.0, 7.0, math.nan, math.inf, -math.inf, 5e-324,
            1.7976931348623157e308),
    int: (0, 1, -1, 7, 10 ** 20, -(10 ** 20)),
    bool: (False, True),
    str: ("", "a", " A ", "\u00df", "0"),
}
"""Values of each sort on which running code is compared with its solver form."""

SYMBOLS: dict[type, Callable[[str], Any]] = {
    float: lambda name: z3.FP(name, z3.Float64()),
    int: float_model.int_parameter,
    bool: z3.Bool,
    str: z3.String,
}
"""A solver constant standing for every argument of each sort."""


REAL_SYMBOLS: dict[type, Callable[[str], Any]] = {
    float: float_model.float_parameter,
    int: float_model.int_parameter,
}
"""For rules whose goals are real arithmetic: a float as the real it denotes (its arithmetic
rounded under :func:`~mechanisms.float_model.rounding_model`). It stands for every finite float
only: a rule using it first proves, with :data:`SYMBOLS`, that the preconditions admit no NaN or
infinity (:func:`finite_floats`)."""


def symbol(sort: Any, name: str, symbols: dict[type, Callable[[str], Any]] = SYMBOLS) -> Any:
    """The solver constant standing for every argument of ``sort``; the value itself for an
    :class:`~mechanisms.core.Exactly`; a tuple of constants, one per :func:`leaves`, for a
    :class:`~mechanisms.core.TupleOf`."""
    if isinstance(sort, TupleOf):
        return tuple(symbol(s, f"{name}_{i}", symbols) for i, s in enumerate(sort.sorts))
    return sort.value if isinstance(sort, Exactly) else symbols[sort](name)


def leaves(name: str, sort: Any) -> list[tuple[str, Any]]:
    """The solver constants' names and sorts an argument of ``sort`` is read as."""
    if isinstance(sort, TupleOf):
        return [leaf for i, s in enumerate(sort.sorts) for leaf in leaves(f"{name}_{i}", s)]
    return [(name, sort)]


def leaf_values(name: str, sort: Any, value: Any) -> list[tuple[str, Any, Any]]:
    """The name, sort and value of each of :func:`leaves` in an argument ``value`` of ``sort``
    named ``name``."""
    if isinstance(sort, TupleOf):
        return [leaf for i, (s, v) in enumerate(zip(sort.sorts, value))
                for leaf in leaf_values(f"{name}_{i}", s, v)]
    return [(name, sort, value)]


def assembled(signature: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The arguments whose :func:`leaves` have ``values``, an :class:`Exactly`'s its value."""
    def argument(name: str, sort: Any) -> Any:
        if isinstance(sort, TupleOf):
            return tuple(argument(f"{name}_{i}", s) for i, s in enumerate(sort.sorts))
        return sort.value if isinstance(sort, Exactly) else values[name]
    return {name: argument(name, sort) for name, sort in signature.items()}


def hard_values(sort: Any) -> tuple[Any, ...]:
    if isinstance(sort, TupleOf):
        return tuple(itertools.product(*(hard_values(s) for s in sort.sorts)))
    return (sort.value,) if isinstance(sort, Exactly) else HARD_VALUES[sort]


def _covered(sort: Any, symbols: dict[type, Callable[[str], Any]]) -> bool:
    if isinstance(sort, TupleOf):
        return all(_covered(s, symbols) for s in sort.sorts)
    return isinstance(sort, Exactly) or sort in symbols


def described(signature: dict[str, Any]) -> str:
    return ", ".join(sort_text(name, sort) for name, sort in signature.items())


ADMITTED = 3
"""How many hard arguments a rule for every argument also checks as built objects."""
TRIED = 400
"""How many combinations of hard values are offered to the constructor, at most."""


@contextlib.contextmanager
def every_digit() -> Iterator[None]:
    """Python's limit on the decimal digits of an int it writes or reads, lifted while one of
    the kernel's own conversions to or from Z3 (which speaks decimal) runs, never a user's."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(limit)


def as_term(value: Any) -> Any:
    """A bool, int, float or str as the solver constant of its value."""
    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        with every_digit():
            return z3.IntVal(value)
    if isinstance(value, float):
        return z3.FPVal(value, z3.Float64())
    return z3.StringVal(value)


def value_of(term: Any) -> Any:
    """The Python value of a solver constant (bool, int, float, str), or None for a term that is
    not one."""
    if z3.is_true(term) or z3.is_false(term):
        return z3.is_true(term)
    if z3.is_int_value(term):
        with every_digit():
            return term.as_long()
    if z3.is_string_value(term):
        return term.as_string()
    if isinstance(term, z3.FPNumRef):
        if term.isNaN():  # one NaN in Z3, of no one bit pattern
            return math.nan
        bits = z3.simplify(z3.fpToIEEEBV(term)).as_long()
        return struct.unpack(">d", bits.to_bytes(8, "big"))[0]
    return None


def opaque_evaluated(term: Any) -> Any:
    """``term`` (simplified) with every application of an opaque function
    (:func:`mechanisms.ops.opaque`) to a constant replaced by the value the function it names
    returns when run on that constant."""
    for _ in range(OPAQUE_DEPTH):
        term = z3.simplify(term)
        applied = {a.get_id(): a for a in subterms(term)
                   if a.num_args() == 1 and a.decl().name() in ops.OPAQUE
                   and value_of(a.arg(0)) is not None}
        if not applied:
            return term
        term = z3.substitute(term, *[(a, as_term(ops.OPAQUE[a.decl().name()](value_of(a.arg(0)))))
                                     for a in applied.values()])
    return z3.simplify(term)


OPAQUE_DEPTH = 8
"""Opaque applications nested deeper are left unevaluated (and the comparison then fails)."""


def subterms(term: Any) -> list[Any]:
    """Every application in ``term`` (constants included), ``term`` first."""
    found, todo = [], [term]
    while todo:
        current = todo.pop()
        if z3.is_app(current):
            found.append(current)
            todo.extend(current.children())
    return found


def signatures(rule: str, constructor: Any) -> tuple[dict[str, type], ...]:
    """The signatures ``constructor`` declares, each naming every parameter with a sort that
    :data:`SYMBOLS` covers."""
    parameters = set(constructor.signature.parameters)
    declared = constructor.signatures
    require(rule, bool(parameters) and bool(declared)
            and all(set(s) == parameters and all(_covered(t, SYMBOLS) for t in s.values())
                    for s in declared),
            f"{constructor.name} does not declare the sort (float, int, bool or str, or a "
            "TupleOf them) of every argument (Constructor(sorts=...))")
    return declared


def built_on_terms(rule: str, constructor: Any, signature: dict[str, type],
                   symbols: dict[type, Callable[[str], Any]] = SYMBOLS
                   ) -> tuple[str, Any, list[Any]]:
    """``(subject, built, facts)``: the build run on one solver constant per argument of
    ``signature`` (its code testing for no solver term, and no type test on a term meanwhile),
    and the preconditions on them."""
    require(rule, all(_covered(sort, symbols) for sort in signature.values()),
            f"{constructor.name} has an argument of a sort this rule does not read "
            f"({described(signature)})")
    build_one_body(rule, constructor)
    symbols = {name: symbol(sort, name, symbols) for name, sort in signature.items()}
    subject = f"{constructor.name}({described(signature)})"
    try:
        with on_terms() as watch:
            built = constructor.build(**symbols)
            facts = [is_true(holds) for holds in constructor.assumptions(**symbols)]
    except Exception as error:  # noqa: BLE001 - the build on solver terms
        raise RuleRefused(rule, f"{subject}: the build does not run on solver terms "
                          f"({type(error).__name__}: {error})") from None
    require(rule, not watch.found, f"{subject}: the build tests the type of a solver term "
            f"({'; '.join(sorted(watch.found))})")
    return subject, built, facts


def admitted(rule: str, constructor: Any, signature: dict[str, type]
             ) -> list[tuple[dict[str, Any], str, Any]]:
    """``(arguments, call, object)`` for up to :data:`ADMITTED` arguments of hard values of
    ``signature`` that ``constructor`` admits; none admitted refuses (the preconditions are not
    shown satisfiable, and nothing would check the running code)."""
    names = list(signature)
    found: list[tuple[dict[str, Any], str, Any]] = []
    offered = itertools.product(*(hard_values(signature[n]) for n in names))
    for values in itertools.islice(offered, TRIED):
        arguments = dict(zip(names, values))
        try:
            built = constructor(**arguments)
        except Exception:  # noqa: BLE001 - not admitted
            continue
        found.append((arguments, f"{constructor.name}"
                      f"({', '.join(f'{n}={v!r}' for n, v in arguments.items())})", built))
        if len(found) == ADMITTED:
            break
    require(rule, bool(found), f"{constructor.name} admits none of "
            f"{min(TRIED, math.prod(len(hard_values(signature[n])) for n in names))} hard "
            f"arguments of ({described(signature)})")
    return found


def finite_floats(rule: str, constructor: Any, signature: dict[str, type]) -> None:
    """The preconditions admit no NaN or infinite float argument of ``signature``: proved on
    :data:`SYMBOLS` (IEEE-754 floats), so that :data:`REAL_SYMBOLS` stand for every argument."""
    floats = [leaf for name, sort in signature.items() for leaf, s in leaves(name, sort)
              if s is float]
    if not floats:
        return
    subject, _, facts = built_on_terms(rule, constructor, signature)
    prove(rule, f"{subject}: the preconditions admit only finite {', '.join(floats)}",
          lambda: z3.And(*[ops.is_finite(z3.FP(name, z3.Float64())) for name in floats]), facts)


def kind_on_terms(constructor: Any) -> Any:
    """The kind of object (:class:`~obligations.kernel.statements.ObjectKind`) ``constructor``
    builds on solver arguments of its first declared signature, or None."""
    from obligations.kernel.statements import object_kind
    if not constructor.signatures:
        return None
    try:
        return object_kind(built_on_terms("kind", constructor,
                                          signatures("kind", constructor)[0])[1])
    except RuleRefused:
        return None
