"""The row-transform rule, for one built object: ``v -> [k(x) for x in v]`` between vectors of
atoms, symmetric distance on both sides, is ``d -> d``-stable when ``k`` maps one multiset element
to one (Dwork and Roth's row-by-row argument; the catalogue's ``lemma.row_transform``), so any
map ``>= d`` is a stability map.

Premises, each checked here on the running object: the exact classes (``Transformation``,
``RowTransform``, ``VectorDomain`` of ``AtomDomain``, ``SymmetricDistance``); the kernel runs
one body (no solver-term test in its code, no ``isinstance`` on a term while it runs, the same
answers on solver terms as on hard values of its carrier) and draws no randomness; and three
goals Z3 proves for every atom of the carrier: ``k(x)`` is in the output atom domain, equal
elements map to equal elements, ``map(d) >= d`` for every natural ``d``. For a constructor that
declares the sorts of its arguments, the same goals are proved once per signature with the
arguments as solver terms under the preconditions: the rule then holds for every argument.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Filter, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.metrics import SymmetricDistance
from obligations.base import is_true
from obligations.kernel.code_checks import map_one_body, one_body_no_randomness
from obligations.kernel.every_argument import (HARD_VALUES, admitted, as_term, built_on_terms,
                                               opaque_evaluated, signatures, subterms)
from obligations.kernel.goals import on_terms, prove, refused_claims, require
from obligations.kernel.rules import RuleRefused, by_claim
from obligations.kernel.statements import (Claim, ObjectKind, object_statements,
                                           standard_statements)
from obligations.kernel.theorems import Premise, PremiseKind, Theorem
from obligations.symbols import same_element

ROW_RULE = "row transform"
FILTER_RULE = "row filter"

SORTS: dict[type, tuple[Callable[[str], Any], Any]] = {
    float: (lambda name: z3.FP(name, z3.Float64()), z3.Float64()),
    int: (z3.Int, z3.IntSort()),
    bool: (z3.Bool, z3.BoolSort()),
    str: (z3.String, z3.StringSort()),
}
"""Each carrier the rule covers: a solver constant of it, and its sort."""


def row_transform(subject: str, built: Any) -> list[Theorem]:
    """Output domain, compatibility and stability of the one object ``built``; raises
    :class:`~obligations.kernel.rules.RuleRefused` naming the first premise that fails
    (:class:`~obligations.kernel.rules.PartlyProved` when only some goals fail)."""
    return _of_object(ROW_RULE, subject, built)


def row_transform_for_every_argument(constructor: Any) -> list[Theorem]:
    """Output domain, compatibility and stability of every transformation ``constructor``
    builds, for every argument it admits: for each declared signature
    (:mod:`.every_argument`), the build runs on solver arguments and the rule's goals hold under
    the preconditions; at hard arguments it admits, the running kernel agrees with its solver
    form."""
    return _for_every_argument(ROW_RULE, constructor)


def row_filter(subject: str, built: Any) -> list[Theorem]:
    """The same for a filter ``v -> [x for x in v if keep(x)]`` (rule :data:`FILTER_RULE`)."""
    return _of_object(FILTER_RULE, subject, built)


def row_filter_for_every_argument(constructor: Any) -> list[Theorem]:
    """The same for every filter ``constructor`` builds, for every argument it admits."""
    return _for_every_argument(FILTER_RULE, constructor)


PREMISES = {ROW_RULE: (Premise(PremiseKind.THEOREM, "lemma.row_transform (row-by-row stability)"),),
            FILTER_RULE: ()}
FUNCTIONS = {ROW_RULE: RowTransform, FILTER_RULE: Filter}


def _of_object(rule: str, subject: str, built: Any) -> list[Theorem]:
    terms = _runs_as_on_terms(rule, subject, built)
    return by_claim(rule, object_statements(subject, built),
                    (*PREMISES[rule], *_opaque_assumed(terms)),
                    _goals(rule, subject, built, terms, []))


def _for_every_argument(rule: str, constructor: Any) -> list[Theorem]:
    refused: dict[Claim, str] = {}
    assumed: list[Premise] = []
    for signature in signatures(rule, constructor):
        subject, built, facts = built_on_terms(rule, constructor, signature)
        function, element_in, element_out = _shape(rule, subject, built)
        terms = _on_terms(rule, subject, function, element_in, element_out)
        refused = {**_goals(rule, subject, built, terms, facts), **refused}
        assumed += _opaque_assumed(terms)
        for _, call, obj in admitted(rule, constructor, signature):
            _runs_as_on_terms(rule, call, obj)
    return by_claim(rule, standard_statements(constructor, ObjectKind.TRANSFORMATION),
                    (*PREMISES[rule], *dict.fromkeys(assumed)), refused)


def _opaque_assumed(terms: tuple[Any, ...]) -> list[Premise]:
    """The assumption a proof through opaque functions (:func:`mechanisms.ops.opaque`: parsing,
    formatting, with no solver form) rests on: each is a total function into its stated sort,
    never raising; the solver reads it as an uninterpreted function, and the running kernel is
    compared with it on hard values only."""
    names = sorted({a.decl().name() for term in terms if isinstance(term, z3.ExprRef)
                    for a in subterms(term) if a.decl().name() in ops.OPAQUE})
    return [Premise(PremiseKind.ASSUMES, f"{name}, an opaque function (no solver form), is a "
                    "total function into its stated sort, raising on no row (run on hard rows)")
            for name in names]


def _shape(rule: str, subject: str, built: Any) -> tuple[Any, AtomDomain, AtomDomain]:
    """The exact classes the rule covers, the lengths it allows, and a kernel (or predicate)
    that runs one body and draws no randomness; returns the function and its input and output
    atom domains."""
    function = built.function if isinstance(built, Transformation) else None
    cls = FUNCTIONS[rule]
    require(rule, type(built) is Transformation and type(function) is cls,
            f"{subject} is not a Transformation whose function is a {cls.__name__}")
    for side in ("input", "output"):
        require(rule, type(getattr(built, f"{side}_metric")) is SymmetricDistance,
                f"the {side} metric of {subject} is not SymmetricDistance")
        domain = getattr(built, f"{side}_domain")
        require(rule, type(domain) is VectorDomain and type(domain.element) is AtomDomain,
                f"the {side} domain of {subject} is not a VectorDomain of AtomDomain")
    lengths = (built.input_domain.min_size, built.output_domain.min_size)
    require(rule, all(type(n) is int for n in lengths) and lengths[1] <= (
        max(lengths[0], 0) if rule == ROW_RULE else 0),
        f"{subject} maps vectors of at least {lengths[0]} entries to vectors that must have "
        f"at least {lengths[1]}: a row transform keeps the length, a filter may drop every row")
    element_in, element_out = built.input_domain.element, built.output_domain.element
    require(rule, element_in.carrier in SORTS and element_out.carrier in SORTS,
            f"the atoms of {subject} are not float, int, bool or str")
    one_body_no_randomness(rule, [function.kernel if rule == ROW_RULE else function.keep],
                           "the kernel's code" if rule == ROW_RULE else "the filter's predicate")
    return function, element_in, element_out


def _on_terms(rule: str, subject: str, function: Any, element_in: AtomDomain,
              element_out: AtomDomain) -> tuple[Any, Any, Any, Any]:
    """``(x, y, k(x), k(y))`` for two solver atoms of the input carrier, the kernel testing no
    term's type and computing an atom of the output carrier (a filter's predicate: a bool)."""
    constant, _ = SORTS[element_in.carrier]
    x, y = constant("x"), constant("y")
    try:
        with on_terms() as watch:
            kx, ky = function.scalar(x), function.scalar(y)
    except Exception as error:  # noqa: BLE001 - whatever the kernel raises on terms
        raise RuleRefused(rule, f"the kernel of {subject} does not run on solver terms "
                          f"({type(error).__name__}: {error})") from None
    require(rule, not watch.found, f"the kernel tests the type of a solver term "
            f"({'; '.join(sorted(watch.found))})")
    computed = element_out.carrier if rule == ROW_RULE else bool
    kx, ky = (as_term(k) if type(k) is computed else k for k in (kx, ky))  # a constant
    require(rule, isinstance(kx, z3.ExprRef) and kx.sort() == SORTS[computed][1],
            f"the kernel of {subject} does not compute a {computed.__name__} on "
            f"a solver {element_in.carrier.__name__}")
    return x, y, kx, ky


def _runs_as_on_terms(rule: str, subject: str, built: Any) -> tuple[Any, Any, Any, Any]:
    """The rule's shape, and the kernel's terms, which its running answers on hard values of
    the carrier agree with."""
    function, element_in, element_out = _shape(rule, subject, built)
    terms = _on_terms(rule, subject, function, element_in, element_out)
    _agrees(rule, function, terms[0], terms[2], element_in)
    return terms


def _goals(rule: str, subject: str, built: Any, terms: tuple[Any, Any, Any, Any],
           facts: list[Any]) -> dict[Claim, str]:
    """The rule's goals for all atoms ``x, y`` under ``facts``: what fails, by the claim it
    supports. A row transform: ``k(x)`` in the output atom domain; one element to one. A filter:
    a kept ``x`` in the output atom domain; equal elements kept alike. Both: ``map(d_in) >=
    d_in``."""
    x, y, kx, ky = terms
    element_in, element_out = built.input_domain.element, built.output_domain.element
    d = z3.Real("d")
    if rule == ROW_RULE:
        domain = ("kernel(x) is in the output atom domain",
                  lambda: z3.Implies(is_true(element_in.contains(x)),
                                     is_true(element_out.contains(kx))))
        alike = ("the kernel maps one multiset element to one",
                 lambda: z3.Implies(is_true(same_element(x, y)), is_true(same_element(kx, ky))))
    else:
        domain = ("a kept row is in the output atom domain",
                  lambda: z3.Implies(z3.And(is_true(element_in.contains(x)), kx),
                                     is_true(element_out.contains(x))))
        alike = ("equal rows are kept alike",
                 lambda: z3.Implies(is_true(same_element(x, y)), kx == ky))
    return refused_claims([
        (Claim.OUTPUT_DOMAIN, lambda: prove(rule, f"{subject}: {domain[0]}", domain[1], facts)),
        (Claim.STABILITY, lambda: prove(rule, f"{subject}: {alike[0]}", alike[1], facts)),
        (Claim.STABILITY, lambda: map_one_body(rule, subject, built)),
        (Claim.STABILITY, lambda: prove(
            rule, f"{subject}: map(d_in) >= d_in for every natural d_in",
            lambda: z3.Implies(z3.And(z3.IsInt(d), d >= 0), is_true(ops.le(d, built.map(d)))),
            facts)),
    ])


HARD_ROWS: dict[type, tuple[Any, ...]] = {int: (10 ** 5000,)}
"""Rows the kernel also runs on beside the hard values: an int past the digits ``str`` writes
(a formatting that forgets Python's limit raises there)."""


def _agrees(rule: str, function: Any, x: Any, kx: Any, element: AtomDomain) -> None:
    """On hard values of the carrier, the kernel's running answer is its answer on terms."""
    for value in (*HARD_VALUES[element.carrier], *HARD_ROWS.get(element.carrier, ())):
        if not element.member(value):
            continue
        try:
            running = function.scalar(value)
        except Exception as error:  # noqa: BLE001 - an admitted row on which the kernel raises
            raise RuleRefused(rule, f"the kernel raises on the admitted row {_written(value)} "
                              f"({type(error).__name__}: {error})") from None
        solved = opaque_evaluated(z3.substitute(kx, (x, as_term(value))))
        require(rule, type(running) in SORTS and solved.eq(z3.simplify(as_term(running))),
                 f"the kernel computes otherwise on solver terms than on {_written(value)}: "
                 f"{_written(running)} when run, {solved} on terms")


def _written(value: Any) -> str:
    """``repr(value)``; an int past the digits ``repr`` writes as ``10 ** k``, or in hex."""
    try:
        return repr(value)
    except ValueError:
        digits = round(abs(value).bit_length() * math.log10(2))
        power = next((k for k in (digits - 1, digits, digits + 1) if 10 ** k == abs(value)), None)
        return hex(value) if power is None else f"{'-' if value < 0 else ''}10 ** {power}"

