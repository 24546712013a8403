"""Arithmetic that runs on numbers and on solver terms alike.

Mechanism kernels (a clamp, a sensitivity formula, a privacy map) are written with these helpers
instead of Python's ``if``/``min``/``max``, so the checker can evaluate the very same code on Z3
terms (and, where useful, SymPy terms) and prove properties of it.

Each helper reproduces the *Python* semantics exactly, including NaN: ``minimum(a, b)`` is
``b if b < a else a``, which is what ``min(a, b)`` does, so a NaN first argument propagates on
every back end. (Z3's own ``fpMin`` follows IEEE minNum and would hide that.)
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import reduce
from typing import Any, Callable, Iterable

import sympy
import z3

from mechanisms import float_model

Term = Any
"""A Python number or bool, a Z3 expression, or a SymPy expression."""


def is_z3(value: Term) -> bool:
    return isinstance(value, z3.ExprRef)


def is_sympy(value: Term) -> bool:
    return isinstance(value, sympy.Basic)


def is_symbolic(value: Term) -> bool:
    return is_z3(value) or is_sympy(value)


def _z3_like(template: z3.ExprRef, value: Term) -> z3.ExprRef:
    """Lift a Python constant to a Z3 term of ``template``'s sort."""
    if is_z3(value):
        return value
    sort = template.sort()
    if isinstance(sort, z3.FPSortRef):
        return z3.FPVal(float(value), sort)
    if sort == z3.BoolSort():
        return z3.BoolVal(bool(value))
    if sort == z3.StringSort():
        return z3.StringVal(value)
    if sort == z3.IntSort() and isinstance(value, int):
        return z3.IntVal(value)
    return z3.RealVal(Fraction(value)) if not isinstance(value, bool) else z3.BoolVal(value)


def _first_z3(*values: Term) -> z3.ExprRef | None:
    return next((v for v in values if is_z3(v)), None)


def where(condition: Term, then: Term, otherwise: Term) -> Term:
    """``then if condition else otherwise`` on every back end."""
    if is_z3(condition) or _first_z3(then, otherwise) is not None:
        template = _first_z3(then, otherwise)
        if template is None:
            then, otherwise = z3.RealVal(Fraction(then)), z3.RealVal(Fraction(otherwise))
        else:
            then, otherwise = _z3_like(template, then), _z3_like(template, otherwise)
        return float_model.like(z3.If(to_bool(condition), then, otherwise), then, otherwise)
    if is_sympy(condition) or is_sympy(then) or is_sympy(otherwise):
        return sympy.Piecewise((then, condition), (otherwise, True))
    return then if condition else otherwise


def to_bool(value: Term) -> Term:
    return value if is_z3(value) else z3.BoolVal(bool(value)) if isinstance(value, bool) else value


def lt(a: Term, b: Term) -> Term:
    """``a < b`` (false whenever a NaN is involved, on every back end)."""
    if is_z3(a) or is_z3(b):
        template = _first_z3(a, b)
        return _z3_like(template, a) < _z3_like(template, b)
    if is_sympy(a) or is_sympy(b):
        return sympy.Lt(a, b)
    return a < b


def le(a: Term, b: Term) -> Term:
    """``a <= b`` (false whenever a NaN is involved)."""
    if is_z3(a) or is_z3(b):
        template = _first_z3(a, b)
        return _z3_like(template, a) <= _z3_like(template, b)
    if is_sympy(a) or is_sympy(b):
        return sympy.Le(a, b)
    return a <= b


def eq(a: Term, b: Term) -> Term:
    """Numeric ``a == b``: IEEE equality on floats (``-0.0 == 0.0``, ``nan != nan``)."""
    if is_z3(a) or is_z3(b):
        template = _first_z3(a, b)
        a, b = _z3_like(template, a), _z3_like(template, b)
        if isinstance(template.sort(), z3.FPSortRef):
            return z3.fpEQ(a, b)
        return a == b
    if is_sympy(a) or is_sympy(b):
        return sympy.Eq(a, b)
    return a == b


def minimum(a: Term, b: Term) -> Term:
    """Python's ``min(a, b)``: ``b if b < a else a``."""
    return where(lt(b, a), b, a)


def maximum(a: Term, b: Term) -> Term:
    """Python's ``max(a, b)``: ``b if b > a else a``."""
    return where(lt(a, b), b, a)


def absolute(a: Term) -> Term:
    """``|a|``."""
    return where(lt(a, 0), -a, a)


def is_nan(x: Term) -> Term:
    """True exactly for a NaN float; integers, rationals and reals are never NaN."""
    if is_z3(x):
        return z3.fpIsNaN(x) if isinstance(x.sort(), z3.FPSortRef) else z3.BoolVal(False)
    if isinstance(x, float):
        return math.isnan(x)
    return False


def is_finite(x: Term) -> Term:
    """False for NaN and +-inf; real and integer terms are always finite."""
    if is_z3(x):
        if isinstance(x.sort(), z3.FPSortRef):
            return z3.Not(z3.Or(z3.fpIsNaN(x), z3.fpIsInf(x)))
        return z3.BoolVal(True)
    if isinstance(x, float):
        return math.isfinite(x)
    return True


def all_of(*conditions: Term) -> Term:
    if any(is_z3(c) for c in conditions):
        return z3.And(*[to_bool(c) for c in conditions])
    if any(is_sympy(c) for c in conditions):
        return sympy.And(*conditions)
    return all(conditions)


def any_of(*conditions: Term) -> Term:
    if any(is_z3(c) for c in conditions):
        return z3.Or(*[to_bool(c) for c in conditions])
    if any(is_sympy(c) for c in conditions):
        return sympy.Or(*conditions)
    return any(conditions)


def negate(condition: Term) -> Term:
    if is_z3(condition):
        return z3.Not(condition)
    if is_sympy(condition):
        return sympy.Not(condition)
    return not condition


def fold(combine: Callable[[Term, Term], Term], values: Iterable[Term]) -> Term:
    """Left fold of a non-empty sequence: ``combine(...combine(v0, v1)..., vk)``."""
    return reduce(combine, values)


def add_up(a: Term, b: Term) -> Term:
    """``a + b`` rounded toward +inf on floats (never below the exact sum); on solver terms the
    exact sum, which the float result dominates (:func:`float_model.upward`)."""
    if is_symbolic(a) or is_symbolic(b):
        return float_model.upward(exact(a) + exact(b))
    if exact_numbers():
        return exact(a) + exact(b)
    from mechanisms.arith import add_up as rounded_up_sum
    return rounded_up_sum(a, b)


def truthy(value: Term) -> bool:
    """A concrete condition as a Python bool; a symbolic one is a programming error here."""
    if is_symbolic(value):
        raise TypeError(f"cannot decide the symbolic condition {value} concretely")
    return bool(value)


def exact(x: Term) -> Term:
    """A float as the exact rational it denotes (a float term as its plain real); other solver
    terms and integers unchanged."""
    return Fraction(x) if isinstance(x, float) else float_model.plain(x)


def exact_numbers() -> bool:
    """Under :func:`float_model.exact_model`, the rounding primitives return exact values on
    numbers too (rationals; ``ln`` and ``sqrt`` to 120 digits), so a replay can compare a map
    with its exact formula."""
    model = float_model.active()
    return model is not None and not model.rounding


def times(x: Term, q: Fraction) -> Term:
    """``x * q`` for a rational constant ``q``, exactly: a Fraction on numbers (a float read as
    the rational it denotes), a real on Z3 terms (an Int is first made a real)."""
    if is_z3(x):
        real = z3.ToReal(x) if x.sort() == z3.IntSort() else x
        return real * z3.RealVal(q)
    return exact(x) * q


def floor(x: Term) -> Term:
    """``floor(x)``, kept in the rationals (a Fraction, or a Z3 real) so that dividing it is exact."""
    if is_z3(x):
        return z3.ToReal(z3.ToInt(x))
    if is_sympy(x):
        return sympy.floor(x)
    return Fraction(math.floor(x))


def floor_div(a: Term, b: Term) -> Term:
    """Python's ``a // b``, the floor of ``a / b``; on Z3 terms an Int when both are Ints (Z3's
    integer division, which is the floor for a positive divisor, corrected for a negative one:
    :func:`float_model.floor_divide`), else the floor as a Real."""
    if is_z3(a) or is_z3(b):
        template = _first_z3(a, b)
        a, b = _z3_like(template, a), _z3_like(template, b)
        if a.sort() == b.sort() == z3.IntSort():  # Z3's own integer division, floor-corrected
            return float_model.like(float_model.floor_divide(a, b), a, b)
        real = lambda t: z3.ToReal(t) if t.sort() == z3.IntSort() else t  # noqa: E731
        return z3.ToReal(z3.ToInt(real(a) / real(b)))
    if is_sympy(a) or is_sympy(b):
        return sympy.floor(a / b)
    return a // b


def precise(compute: Callable[[Any], Any]) -> Any:
    """``compute(mpmath)`` at 120 significant digits: the exact value of ``ln`` or ``sqrt`` for a
    replay's comparison (far below any float's ulp)."""
    import mpmath
    with mpmath.workdps(120):
        return +compute(mpmath)


def _mpf(mpmath: Any, x: Any) -> Any:
    """A rational (or an mpmath number) as an mpmath number at the working precision."""
    if isinstance(x, (int, float, Fraction)):
        exact_x = Fraction(x)
        return mpmath.mpf(exact_x.numerator) / exact_x.denominator
    return mpmath.mpf(x)


LN_UP = z3.Function("ln_up", z3.RealSort(), z3.RealSort())
"""On Z3 terms, :func:`ln_up` is this uninterpreted function; the checker adds the lemma
``exp(ln_up(r)) >= r`` (obligation ``arith.ln_up``) as an assumption where a proof uses it."""


def ln_up(r: Term) -> Term:
    """An upper bound of ``ln(r)`` for ``r >= 1``: a float never below the exact logarithm."""
    if is_z3(r):
        if float_model.active() is not None:
            return float_model.upward(float_model.LN(exact(r)))
        return LN_UP(r)
    if is_sympy(r):
        return sympy.log(r)
    if exact_numbers():
        return precise(lambda m: m.log(_mpf(m, r)))
    from mechanisms.arith import ln_up as certified_ln_up
    return certified_ln_up(Fraction(r))


def mul_up(a: Term, b: Term) -> Term:
    """``a * b`` rounded toward +inf on floats (never below the exact product); on solver terms
    the exact product, which the float result dominates."""
    if is_symbolic(a) or is_symbolic(b):
        return float_model.upward(exact(a) * exact(b))
    if exact_numbers():
        return exact(a) * exact(b)
    from mechanisms.arith import mul_up as rounded_up_product
    return rounded_up_product(a, b)


SQRT_UP = z3.Function("sqrt_up", z3.RealSort(), z3.RealSort())
"""On Z3 terms, :func:`sqrt_up` is this uninterpreted function; a proof that uses it assumes its
stated facts ``sqrt_up(x) >= 0`` and ``sqrt_up(x)^2 >= x`` for ``x >= 0``, which the code
certifies exactly (``mechanisms.arith.sqrt_up``)."""


def sqrt_up(x: Term) -> Term:
    """An upper bound of ``sqrt(x)`` for ``x >= 0``: a float never below the exact root."""
    if is_z3(x):
        if float_model.active() is not None:
            return float_model.upward(float_model.square_root(exact(x)))
        return SQRT_UP(x)
    if is_sympy(x):
        return sympy.sqrt(x)
    if exact_numbers():
        return precise(lambda m: m.sqrt(_mpf(m, x)))
    from mechanisms.arith import sqrt_up as certified_sqrt_up
    return certified_sqrt_up(x)


def carrier_of(x: Term) -> type:
    """The Python type a value (or a solver term standing for one) belongs to."""
    if is_z3(x):
        sort = x.sort()
        if isinstance(sort, z3.FPSortRef):
            return float
        if sort == z3.BoolSort() or sort == z3.StringSort():
            return bool if sort == z3.BoolSort() else str
        return int if sort == z3.IntSort() else float
    return type(x)


def sort_of(carrier: type) -> z3.SortRef:
    """The Z3 sort whose terms stand for values of ``carrier`` (float, int, bool, str)."""
    return {float: z3.Float64(), int: z3.IntSort(), bool: z3.BoolSort(),
            str: z3.StringSort()}[carrier]


def truncate(x: Term) -> Term:
    """Python's ``int(x)`` of a finite float (toward zero); ``0`` for NaN and +-inf, where
    Python raises (on Z3 terms an unspecified integer there): guard it with :func:`is_finite`."""
    if is_z3(x):
        real = z3.fpToReal(x)
        return z3.If(real >= 0, z3.ToInt(real), -z3.ToInt(-real))
    return int(x) if math.isfinite(x) else 0


def numeral_value(x: z3.FPRef) -> Fraction:
    """The rational a finite Z3 float numeral (or constant expression) of any format denotes."""
    value = z3.simplify(z3.fpToReal(x))
    return Fraction(value.numerator_as_long(), value.denominator_as_long())


def to_float(x: Term) -> Term:
    """Python's ``float(x)`` of an int or a rational, rounded to nearest (ties to even); +-inf
    where Python raises ``OverflowError``."""
    if is_z3(x):
        real = z3.ToReal(x) if x.sort() == z3.IntSort() else x
        return z3.fpToFP(z3.RNE(), real, z3.Float64())
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def bool_as(b: Term, carrier: type) -> Term:
    """``carrier(b)`` of a bool: ``1``/``0`` as an int or a float."""
    if is_z3(b):
        one, zero = (z3.FPVal(1.0, z3.Float64()), z3.FPVal(0.0, z3.Float64())) \
            if carrier is float else (z3.IntVal(1), z3.IntVal(0))
        return z3.If(b, one, zero)
    return carrier(b)


def opaque(name: str, function: Callable[[Term], Term], x: Term, result: type) -> Term:
    """``function(x)`` for a deterministic function with no solver form (parsing, formatting):
    on a Z3 term, an uninterpreted function from ``x``'s sort to ``result``'s sort, of which a
    proof may use only that it is a function: one per function object, named ``name`` (or
    ``name!k`` for the k-th other function given the same name), recorded in :data:`OPAQUE` so
    that the checker can evaluate it on a constant."""
    if is_z3(x):
        return z3.Function(_opaque_name(name, function), x.sort(), sort_of(result))(x)
    return function(x)


OPAQUE: dict[str, Callable[[Any], Any]] = {}
"""The function each uninterpreted function of :func:`opaque` stands for, by its name."""


def _opaque_name(name: str, function: Callable[[Any], Any]) -> str:
    key, k = name, 1
    while OPAQUE.setdefault(key, function) is not function:
        k += 1
        key = f"{name}!{k}"
    return key
