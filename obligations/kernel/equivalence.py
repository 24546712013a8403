"""Equality in value to a proved reference: a variant (``reference.variant(name, build)``, which
keeps its reference's preconditions) meets every standard statement of a transformation that its
reference meets for every argument, bounded to the arguments and inputs on which it was compared.

At an argument ``a`` both admit, let ``V = variant(a)`` and ``R = reference(a)``. When ``V`` has
``R``'s domains and metrics, ``V.map(d) >= R.map(d)`` for every natural ``d``, and ``V(x) = R(x)``
for every input ``x`` compared, then for such inputs ``x, x'``: ``V(x) = R(x)`` is in the output
domain, and ``d_out(V(x), V(x')) = d_out(R(x), R(x')) <= R.map(d_in) <= V.map(d_in)``.

Premises, each checked here on the running objects: the variant records the reference and has
its preconditions, ``validate`` and sorts; its build and each function compared run one body
and draw no randomness; the reference's statements are all proved; no
argument given is a transformation or measurement. Arguments tried: those given (the examples'),
each with one scalar, carrier type or atom domain replaced by each hard one, and hard values of
the declared sorts. At each that the reference builds and runs on every compared input, the
variant's build must give a ``Transformation`` with the same domains and metrics (by
structure), a map at least the reference's (:func:`_map_at_least_reference`), and the same value
of the same type on each input (:func:`compared_inputs`). The theorems are bounded: a variant
wrong elsewhere only is the refutation search's to find.
"""

from __future__ import annotations

import itertools
import math
import random
import struct
import types
from dataclasses import fields, is_dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from mechanisms.core import Map, Transformation
from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from obligations.kernel.code_checks import map_one_body, one_body_no_randomness
from obligations.kernel.every_argument import HARD_VALUES, TRIED, every_digit, hard_values
from obligations.kernel.goals import map_at_least, map_dominates, require
from obligations.kernel.row_transform import HARD_ROWS
from obligations.kernel.rules import RuleRefused, components, proved_kind
from obligations.kernel.statements import ObjectKind, standard_statements
from obligations.kernel.theorems import _KERNEL, Premise, PremiseKind, Theorem
from obligations.reach import ScanLimitError, code_objects, loads

EQUAL_RULE = "equal in value to a proved reference"
LONGEST = 3
"""Every vector of at most this many rows more than the shortest the input domain admits."""
VECTORS = 1500
"""Inputs compared per argument, at most: beyond, a seeded sample of each length."""
ARGUMENTS = 32
"""Arguments compared, at most (the first are those given)."""
HARD_DOMAINS = (AtomDomain(float, nan=True), AtomDomain(float), AtomDomain(int), AtomDomain(str),
                AtomDomain(bool), AtomDomain(int, bounds=(-1, 7)),
                AtomDomain(float, bounds=(-2.0, 1.5)))
"""Atom domains an argument that is one is replaced by."""
SHOWN = 3
"""Arguments the theorem's premise names; it counts the others."""


def equal_in_value(constructor: Any, reference_theorems: Sequence[Theorem],
                   arguments: Sequence[Mapping[str, Any]]) -> list[Theorem]:
    """Every standard statement of ``constructor`` from those of its reference
    (``reference_theorems``), compared at ``arguments`` and at hard arguments of its declared
    sorts; raises :class:`RuleRefused` naming the first premise that fails."""
    reference = getattr(constructor, "reference", None)
    require(EQUAL_RULE, reference is not None, f"{constructor.name} is not a variant "
            "(Constructor.variant) of another constructor")
    require(EQUAL_RULE, constructor.preconditions == reference.preconditions
            and constructor.validate is reference.validate
            and constructor.signatures == reference.signatures,
            f"{constructor.name} does not keep the preconditions, validate and sorts of "
            f"{reference.name}")
    one_body_no_randomness(EQUAL_RULE, [constructor.build], f"the build of {constructor.name}")
    candidates = _candidates(constructor, arguments)
    used = [t for t in reference_theorems
            if not t.statement.built and t.statement.of == id(reference)]
    require(EQUAL_RULE, proved_kind(used) is ObjectKind.TRANSFORMATION,
            f"not every standard statement of {reference.name}, a transformation, is proved in "
            "this run")
    compared: list[str] = []
    vectors = 0
    for tried in candidates:
        try:
            theirs = reference(**tried)
        except Exception:  # noqa: BLE001 - not admitted: the statements say nothing there
            continue
        call = f"{constructor.name}({', '.join(f'{n}={_short(v)}' for n, v in tried.items())})"
        try:
            mine = constructor(**tried)
        except Exception:  # noqa: BLE001 - no object built: nothing to compare, nothing counted
            continue
        compared_here = _compare(call, mine, theirs, reference.name)
        if compared_here is None:
            continue
        vectors += compared_here
        compared.append(call)
        if len(compared) == ARGUMENTS:
            break
    require(EQUAL_RULE, bool(compared), f"{constructor.name} builds a transformation at none "
            f"of the arguments tried where {reference.name} builds one: nothing was compared")
    shown = "; ".join(compared[:SHOWN]) + (f"; and {len(compared) - SHOWN} more"
                                           if len(compared) > SHOWN else "")
    bound = Premise(PremiseKind.BOUNDED, f"{constructor.name}: equal in value to "
                    f"{reference.name} only at {len(compared)} arguments ({shown}), on {vectors} "
                    "inputs in all")
    premises = tuple(dict.fromkeys(
        [bound, *(Premise(PremiseKind.THEOREM, f"{t.statement.claim.value} of {reference.name}")
                  for t in used), *(p for t in used for p in t.premises)]))
    return [Theorem(_KERNEL, statement, EQUAL_RULE, premises)
            for statement in standard_statements(constructor, ObjectKind.TRANSFORMATION)]


def _candidates(constructor: Any, arguments: Sequence[Mapping[str, Any]]
                ) -> list[dict[str, Any]]:
    """The arguments given; each with one scalar (or one item of a list of scalars) replaced by
    each hard value of its type, one carrier type by each other, one atom domain by each of
    :data:`HARD_DOMAINS`; then hard values of each declared signature (up to
    :data:`~.every_argument.TRIED` each). Refuses a transformation or measurement among them: a
    combinator's components are arguments no hard value stands for (one chained after itself)."""
    require(EQUAL_RULE, not components([v for a in arguments for v in a.values()]),
            f"{constructor.name} takes transformations or measurements: the rule compares "
            "constructors of data arguments only")
    found = [dict(a) for a in arguments]
    for given in arguments:
        for name, value in given.items():
            if type(value) in HARD_VALUES:
                found += [{**given, name: hard} for hard in HARD_VALUES[type(value)]]
            elif isinstance(value, type) and value in HARD_VALUES:
                found += [{**given, name: carrier} for carrier in HARD_VALUES]
            elif type(value) is AtomDomain:
                found += [{**given, name: domain} for domain in HARD_DOMAINS]
            elif type(value) in (list, tuple):
                found += [{**given, name: type(value)([*value[:i], hard, *value[i + 1:]])}
                          for i, item in enumerate(value) if type(item) in HARD_VALUES
                          for hard in HARD_VALUES[type(item)]]
    for signature in constructor.signatures:
        names = list(signature)
        offered = itertools.product(*(hard_values(signature[n]) for n in names))
        found += [dict(zip(names, values)) for values in itertools.islice(offered, TRIED)]
    return list({_short(sorted(a.items(), key=str), None): a for a in found}.values())


def _compare(call: str, mine: Any, theirs: Any, reference: str) -> int | None:
    """The premises at one argument; returns how many inputs were compared, or None when there
    is none short enough to build or the reference raises on one (nothing there to compare
    with: the argument is not counted)."""
    require(EQUAL_RULE, type(mine) is Transformation and type(theirs) is Transformation,
            f"{call} or {reference} at its arguments is not a Transformation")
    one_body_no_randomness(EQUAL_RULE, [mine.function], f"the function of {call}")
    for field in ("input_domain", "output_domain", "input_metric", "output_metric"):
        require(EQUAL_RULE, same_object(getattr(mine, field), getattr(theirs, field)),
                f"the {field.replace('_', ' ')} of {call} is {getattr(mine, field)}, "
                f"{reference}'s is {getattr(theirs, field)}")
    _map_at_least_reference(call, mine, theirs, reference)
    inputs = compared_inputs(call, mine.input_domain,
                             [*scalars_of(mine.function), *scalars_of(theirs.function)])
    if not inputs:
        return None
    try:
        expectations = [theirs.function(x) for x in inputs]
    except Exception:  # noqa: BLE001 - the reference's own failure, not the variant's
        return None
    for x, expected in zip(inputs, expectations):
        try:
            got = mine.function(x)
        except Exception as error:  # noqa: BLE001 - a raise where the reference returns
            raise RuleRefused(EQUAL_RULE, f"{call} raises on {_short(x)} ({type(error).__name__}:"
                              f" {error}), where {reference} returns {_short(expected)}") from None
        require(EQUAL_RULE, same_value(got, expected), f"{call} returns {_short(got)} on "
                f"{_short(x)}, {reference} {_short(expected)}")
    return len(inputs)


def _map_at_least_reference(call: str, mine: Transformation, theirs: Transformation,
                            reference: str) -> None:
    """``mine.map(d) >= theirs.map(d)`` for every natural ``d``: the same map; or the
    reference's linear, ``d -> mul_up(d, c)`` with a finite ``c``, and the variant's linear with
    a constant at least ``c`` (rounding up is monotone), or, for an int ``c`` (the product
    ``d * c`` is then exact), proved at least ``d * c``; else proved on one solver ``d_in`` with
    both maps run under the rounding model."""
    if same_object(mine.stability_map, theirs.stability_map):
        return
    map_one_body(EQUAL_RULE, call, mine)
    c_mine, c_theirs = _linear_constant(mine), _linear_constant(theirs)
    if c_theirs is not None and c_mine is not None and Fraction(c_mine) >= Fraction(c_theirs):
        return
    if type(c_theirs) is int:
        map_at_least(EQUAL_RULE, call, mine, lambda d: d * c_theirs,
                     f"{reference}'s map d_in * {c_theirs}")
        return
    map_dominates(EQUAL_RULE, call, mine, theirs, f"{reference}'s map")


def _linear_constant(built: Transformation) -> int | float | None:
    """The constant ``c`` of a linear :class:`~mechanisms.core.Map` (``d -> mul_up(d, c)``), if
    it is a finite int or float, else None."""
    stated = built.stability_map
    if type(stated) is not Map or not stated.is_linear:
        return None
    constant = stated.constant(**stated.params)
    return constant if type(constant) in (int, float) and math.isfinite(constant) else None


def compared_inputs(call: str, domain: Any, seen: Sequence[Any]) -> list[list[Any]]:
    """Members of ``domain`` (vectors of atoms, of one size or of any) to compare on: every
    vector of the shortest admitted lengths over the hard values of its atoms, the values
    ``seen`` in the functions (their parameters and code) and an equal copy of each (a fresh
    object, for code that tests ``is``), a seeded sample where they are too many; and, for each
    int ``c`` seen up to :data:`LONGEST_SEEN`, vectors of ``c`` and ``c + 1`` distinct rows (a
    cap the code writes)."""
    sized = type(domain) is SizedDomain
    vectors = domain.inner if sized else domain
    element = vectors.element if type(vectors) is VectorDomain else None
    require(EQUAL_RULE, type(element) is AtomDomain and element.carrier in HARD_VALUES,
            f"the input domain of {call} is not vectors of float, int, bool or str atoms")
    carrier = element.carrier
    pool = list({_key(v): v for v in (*HARD_VALUES[carrier], *HARD_ROWS.get(carrier, ()),
                                      *(s for s in seen if type(s) is carrier),
                                      *(element.bounds or ()))
                 if type(v) is carrier and element.member(v)}.values())
    require(EQUAL_RULE, bool(pool), f"no hard value is an atom of the input domain of {call}")
    pool += [copy for v in pool if (copy := distinct_copy(v)) is not v]
    shortest = max(int(vectors.min_size), 0)
    if (domain.size if sized else shortest) > LONGEST_SEEN:
        return []  # no vector of the domain is short enough to build
    lengths = [domain.size] if sized else range(shortest, shortest + LONGEST + 1)
    share = VECTORS // len(lengths)
    rng = random.Random(0)
    found: list[list[Any]] = []
    for n in lengths:
        if len(pool) ** n <= share:
            found += map(list, itertools.product(pool, repeat=n))
        else:
            found += [[rng.choice(pool) for _ in range(n)] for _ in range(share)]
    caps = sorted({c for c in seen if type(c) is int and LONGEST < c <= LONGEST_SEEN})
    for n in (m for c in caps for m in (c, c + 1)):
        rows = [_distinct(carrier, i) for i in range(n)]
        found += [rows, rows[::-1]]
    return [x for x in found if domain.member(x)]


LONGEST_SEEN = 10_000
"""The longest vectors built from an int the code writes."""


def distinct_copy(value: Any) -> Any:
    """A new object equal to ``value``, as a row read from a file is (where Python makes one:
    not for small ints, bools or one-character strings): an identity test tells it apart."""
    if type(value) is int:
        size = value.bit_length() // 8 + 1
        return int.from_bytes(value.to_bytes(size, "big", signed=True), "big", signed=True)
    if type(value) is float:
        return struct.unpack("<d", struct.pack("<d", value))[0]
    if type(value) is str:
        return "".join(list(value))
    return value


def _distinct(carrier: type, i: int) -> Any:
    """The ``i``-th of distinct rows of ``carrier`` (bool has two)."""
    return {int: i, float: float(i), str: str(i), bool: i % 2 == 1}[carrier]


def scalars_of(function: Any) -> list[Any]:
    """The scalars a function object holds or writes: among its fields and parameters (its
    candidates, its constant, the value it compares with), and the constants and scalar
    globals or closure values of the code it can run (:func:`~obligations.reach.loads`: a
    value it singles out, a cap it applies)."""
    values = [getattr(function, "__dict__", {}).get(name) for name in
              getattr(function, "__dataclass_fields__", {})]
    found: list[Any] = []
    while values:
        value = values.pop()
        if isinstance(value, Mapping):
            values += value.values()
        elif isinstance(value, (list, tuple)):
            values += value
        elif type(value) in HARD_VALUES:
            found.append(value)
    try:
        loaded = [load.value for load in loads(function)]
    except ScanLimitError:
        loaded = []
    runs = [f for f in (function, getattr(type(function), "__call__", None), *loaded)
            if isinstance(f, types.FunctionType)]
    return [*found, *(c for f in runs for code in code_objects(f.__code__)
                      for c in code.co_consts if type(c) in HARD_VALUES),
            *(v for v in loaded if type(v) in HARD_VALUES)]


def same_value(a: Any, b: Any) -> bool:
    """``a`` and ``b`` are the same value of the same type, recursively: floats bit for bit (any
    NaN the same), lists, tuples and dicts item by item (a dict's keys of the same types)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return _key(a) == _key(b)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        keys = {_key(k): k for k in b}
        return len(a) == len(b) and all(
            _key(k) in keys and same_value(k, keys[_key(k)]) and same_value(v, b[keys[_key(k)]])
            for k, v in a.items())
    return bool(a == b)


def same_object(a: Any, b: Any) -> bool:
    """``a`` and ``b`` behave alike because they are built alike: the same object, or of the
    same class with the same fields (dataclasses, recursively), or the same plain value
    (:func:`same_value`); never by a class's own ``__eq__``, which a variant may write."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if is_dataclass(a) and not isinstance(a, type):
        return all(same_object(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(same_object(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return list(map(_key, a)) == list(map(_key, b)) and all(
            same_object(a[k], b[k]) for k in a)
    return type(a) in (*HARD_VALUES, type(None), Fraction) and same_value(a, b)


def _key(value: Any) -> Any:
    """A hashable key that tells apart what :func:`same_value` does (``0.0`` from ``-0.0``,
    ``True`` from ``1``)."""
    if isinstance(value, float):
        return float, "nan" if math.isnan(value) else struct.pack("<d", value)
    return type(value), value


def _short(value: Any, longest: int | None = 60) -> str:
    """``repr(value)``, cut to ``longest`` characters (a long int written whole first)."""
    with every_digit():
        text = repr(value)
    return text if longest is None or len(text) <= longest else text[:longest - 3] + "..."
