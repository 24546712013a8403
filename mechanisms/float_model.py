"""The floats a map computes, as Z3 reals whose rounding is explicit.

A map is code on numbers; the checker also runs it on Z3 terms. By default (no model active) a
term is an exact real and the rounding primitives of :mod:`mechanisms.arith` stand for their
exact values, which is what the privacy and stability proofs reason about. Two models tie those
proofs to the floats the code really returns:

* :func:`exact_model`: the formula with no rounding at all. ``div_up``, ``mul_up``, ``add_up``
  and ``float_up`` are the exact ``/ * +`` and identity, ``ln_up`` the real ``ln`` (:data:`LN`),
  ``sqrt_up`` the real square root (:data:`SQRT`, with ``SQRT(x)^2 = x``, ``SQRT(x) >= 0``).
* :func:`rounding_model`: IEEE-754 binary64 as the code runs it. A parameter that is a Python
  float is a :class:`FloatTerm`; each ``+ - * /`` with a float operand is one rounded operation,
  ``result = exact (1 + delta) + eta`` with ``|delta| <= u = 2^-53`` and, for ``*`` and ``/``,
  ``|eta| <= 2^-1075`` (the standard model with underflow, Higham 2002, section 2.2; ``+`` and
  ``-`` are exact below the normal range). Multiplying by a power of two is exact. Each rounding
  primitive returns a fresh float ``>= `` its exact value, the fact its own code certifies with
  an exact comparison (obligations ``arith.*``).

Overflow is outside the standard model; a map that overflows returns ``+inf``, which is above
every exact value, so it can only make a claim ``map >= exact`` hold.

A Python ``int`` parameter is an :class:`IntTerm` (:func:`int_parameter`): a Z3 integer with
Python's semantics, not Z3's. ``+ - * **`` and ``//`` (floor division, Z3's own integer division
for a positive divisor) stay exact integers; ``/`` is true division, whose result is a float
(rounded under the rounding model, the exact quotient otherwise); an operation with a Python
float is a float operation. Z3's own ``/`` on integers is integer division, which is what Python's
``/`` is not.
"""

from __future__ import annotations

import contextlib
import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterator

import z3

UNIT_ROUNDOFF = Fraction(1, 2 ** 53)
"""``u``: half the distance from 1 to the next binary64 float."""
UNDERFLOW = Fraction(1, 2 ** 1075)
"""Half the least subnormal: the absolute error of a product or quotient below the normal range."""

LN = z3.Function("ln", z3.RealSort(), z3.RealSort())
"""The real natural logarithm, uninterpreted; a proof states the facts it uses."""
SQRT = z3.Function("sqrt", z3.RealSort(), z3.RealSort())
"""The real square root, uninterpreted, with ``SQRT(x)^2 = x`` and ``SQRT(x) >= 0`` for ``x >= 0``
recorded as facts where it is applied."""
POW2_UP = z3.Function("pow2_up", z3.RealSort(), z3.RealSort())
"""``arith.pow2_up`` on terms: the proofs may assume only what it certifies on numbers (a power
of two at or above its argument)."""


@dataclass
class Model:
    """An active model: ``rounding`` or exact, and the facts its terms carry."""

    rounding: bool
    facts: list[Any] = field(default_factory=list)
    rounded_up: dict[int, Any] = field(default_factory=dict)
    """Each exact value's rounded-up float, once: the code is deterministic."""

    def fresh(self, prefix: str) -> z3.ArithRef:
        return z3.Real(f"{prefix}!{next(_NAMES)}")


_ACTIVE: list[Model] = []
_NAMES = itertools.count()


@contextlib.contextmanager
def _model(rounding: bool) -> Iterator[Model]:
    model = Model(rounding)
    _ACTIVE.append(model)
    try:
        yield model
    finally:
        _ACTIVE.pop()


def exact_model() -> contextlib.AbstractContextManager[Model]:
    """Evaluate code as its exact formula (see the module docstring)."""
    return _model(rounding=False)


def rounding_model() -> contextlib.AbstractContextManager[Model]:
    """Evaluate code as IEEE-754 runs it, rounding made explicit (see the module docstring)."""
    return _model(rounding=True)


def active() -> Model | None:
    return _ACTIVE[-1] if _ACTIVE else None


def plain(x: Any) -> Any:
    """A :class:`FloatTerm` as the plain real it denotes; anything else unchanged."""
    return z3.ArithRef(x.as_ast(), x.ctx) if isinstance(x, FloatTerm) else x


def as_float(term: Any) -> "FloatTerm":
    """``term`` (a Z3 real) as a :class:`FloatTerm`."""
    return FloatTerm(term.as_ast(), term.ctx)


def _is_power_of_two(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x > 0 and x & (x - 1) == 0


def _rounded(exact: Any, underflows: bool) -> "FloatTerm":
    """One rounded operation on ``exact``: a fresh float within the standard model of it."""
    model = active()
    assert model is not None and model.rounding, "rounded operations need rounding_model()"
    result, delta = model.fresh("fl"), model.fresh("delta")
    eta = model.fresh("eta") if underflows else 0
    model.facts += [result == exact * (1 + delta) + eta,
                    -UNIT_ROUNDOFF <= delta, delta <= UNIT_ROUNDOFF]
    if underflows:
        model.facts += [-UNDERFLOW <= eta, eta <= UNDERFLOW]
    return as_float(result)


def rounded(exact: Any) -> Any:
    """A float within the standard model of ``exact`` (a correctly rounded operation or library
    call) under the rounding model; ``exact`` itself otherwise."""
    model = active()
    if model is None or not model.rounding:
        return exact
    return _rounded(plain(exact), underflows=True)


def _as_float_operand(x: Any) -> Any:
    """Python converts an int operand to float: exact up to ``2^53``; a symbolic int is rounded."""
    if isinstance(x, z3.ArithRef) and x.is_int():
        return _rounded(z3.ToReal(x), underflows=False)
    return plain(x)


class FloatTerm(z3.ArithRef):
    """A Z3 real standing for a Python float under :func:`rounding_model`; its arithmetic rounds."""

    def _apply(self, other: Any, operation: Callable[[Any, Any], Any], underflows: bool,
               reflected: bool) -> Any:
        a, b = plain(self), _as_float_operand(other)
        exact = operation(b, a) if reflected else operation(a, b)
        return _rounded(exact, underflows)

    def __add__(self, other: Any) -> Any:
        return self._apply(other, lambda a, b: a + b, False, False)

    def __radd__(self, other: Any) -> Any:
        return self._apply(other, lambda a, b: a + b, False, True)

    def __sub__(self, other: Any) -> Any:
        return self._apply(other, lambda a, b: a - b, False, False)

    def __rsub__(self, other: Any) -> Any:
        return self._apply(other, lambda a, b: a - b, False, True)

    def __mul__(self, other: Any) -> Any:
        if _is_power_of_two(other):
            return as_float(plain(self) * other)
        return self._apply(other, lambda a, b: a * b, True, False)

    def __rmul__(self, other: Any) -> Any:
        if _is_power_of_two(other):
            return as_float(plain(self) * other)
        return self._apply(other, lambda a, b: a * b, True, True)

    def __truediv__(self, other: Any) -> Any:
        return self._apply(other, lambda a, b: a / b, True, False)

    def __rtruediv__(self, other: Any) -> Any:
        return self._apply(other, lambda a, b: a / b, True, True)

    def __neg__(self) -> Any:
        return as_float(-plain(self))

    def __pos__(self) -> Any:
        return self

    def __pow__(self, other: Any) -> Any:
        if isinstance(other, int) and other >= 1:
            result = self
            for _ in range(other - 1):
                result = result * self
            return result
        raise TypeError(f"float ** {other!r} is not modelled")


def float_value(term: Any) -> Any:
    """``term`` (a Z3 real) as a value the code holds in a Python float: a :class:`FloatTerm`
    under the rounding model, ``term`` itself otherwise."""
    model = active()
    return as_float(term) if model is not None and model.rounding else term


def float_parameter(name: str) -> Any:
    """A Z3 real for a Python float parameter (:func:`float_value`)."""
    return float_value(z3.Real(name))


def like(result: Any, *sources: Any) -> Any:
    """``result`` (e.g. an ``If`` of two floats) is a float when one of ``sources`` is, a Python
    int (:class:`IntTerm`) when it is an integer term and one of ``sources`` is."""
    if isinstance(result, z3.ArithRef) and any(isinstance(s, FloatTerm) for s in sources):
        return as_float(result)
    if isinstance(result, z3.ArithRef) and result.is_int() \
            and any(isinstance(s, IntTerm) for s in sources):
        return as_int(result)
    return result


def _z3_int(x: Any) -> Any:
    """An int operand as a plain Z3 integer term (an :class:`IntTerm` stripped of its semantics)."""
    if isinstance(x, IntTerm):
        return z3.ArithRef(x.as_ast(), x.ctx)
    return z3.IntVal(x) if isinstance(x, int) else x


def _is_integer(x: Any) -> bool:
    """A Python int (not a float) or an integer Z3 term."""
    return (isinstance(x, int) and not isinstance(x, bool)) or (
        isinstance(x, z3.ArithRef) and not isinstance(x, FloatTerm) and x.is_int())


def as_int(term: Any) -> "IntTerm":
    """``term`` (a Z3 integer) as an :class:`IntTerm`."""
    return IntTerm(term.as_ast(), term.ctx)


def int_parameter(name: str) -> "IntTerm":
    """A Z3 integer for a Python int parameter, with Python's arithmetic (:class:`IntTerm`)."""
    return as_int(z3.Int(name))


def floor_divide(a: Any, b: Any) -> Any:
    """Python's ``a // b`` of two ints: Z3's integer division (Euclidean) is the floor for a
    positive divisor, and ``a // b = (-a) // (-b)`` for a negative one (``b = 0`` raises in Python;
    here it is an unspecified integer)."""
    a, b = _z3_int(a), _z3_int(b)
    if z3.is_int_value(b):
        return a / b if b.as_long() > 0 else (-a) / (-b)
    return z3.If(b > 0, a / b, (-a) / (-b))


class IntTerm(z3.ArithRef):
    """A Z3 integer standing for a Python int: exact ``+ - * // % **``; ``/`` and any operation
    with a float give a float (see the module docstring)."""

    def _binary(self, other: Any, operation: Callable[[Any, Any], Any], reflected: bool,
                underflows: bool = False) -> Any:
        """``self op other`` (``other op self`` when ``reflected``) as Python computes it."""
        if isinstance(other, FloatTerm):
            return NotImplemented  # the float's own (rounded) operation runs
        if isinstance(other, float):
            constant = float_value(z3.RealVal(other))
            if isinstance(constant, FloatTerm):  # the int is converted, the operation rounded
                return constant._apply(self, operation, underflows, not reflected)
            mine = z3.ToReal(_z3_int(self))
            return operation(constant, mine) if reflected else operation(mine, constant)
        if isinstance(other, Fraction):
            other = z3.RealVal(other)
        a, b = _z3_int(self), _z3_int(other)
        result = operation(b, a) if reflected else operation(a, b)
        return as_int(result) if _is_integer(other) else result

    def __add__(self, other: Any) -> Any:
        return self._binary(other, lambda a, b: a + b, False)

    def __radd__(self, other: Any) -> Any:
        return self._binary(other, lambda a, b: a + b, True)

    def __sub__(self, other: Any) -> Any:
        return self._binary(other, lambda a, b: a - b, False)

    def __rsub__(self, other: Any) -> Any:
        return self._binary(other, lambda a, b: a - b, True)

    def __mul__(self, other: Any) -> Any:
        return self._binary(other, lambda a, b: a * b, False, True)

    def __rmul__(self, other: Any) -> Any:
        return self._binary(other, lambda a, b: a * b, True, True)

    def __neg__(self) -> Any:
        return as_int(-_z3_int(self))

    def __pos__(self) -> Any:
        return self

    def __pow__(self, other: Any) -> Any:
        if isinstance(other, int) and not isinstance(other, bool) and other >= 0:
            return as_int(_z3_int(self) ** other if other else z3.IntVal(1))
        raise TypeError(f"int ** {other!r} is not modelled")

    def __floordiv__(self, other: Any) -> Any:
        if not _is_integer(other):
            raise TypeError(f"int // {other!r} (not an int) is not modelled")
        return as_int(floor_divide(self, other))

    def __rfloordiv__(self, other: Any) -> Any:
        if not _is_integer(other):
            raise TypeError(f"{other!r} // int (not an int) is not modelled")
        return as_int(floor_divide(other, self))

    def __mod__(self, other: Any) -> Any:
        return self - other * (self // other)

    def __truediv__(self, other: Any) -> Any:
        if _is_integer(other):  # int / int: the correctly rounded quotient
            return rounded(z3.ToReal(_z3_int(self)) / z3.ToReal(_z3_int(other)))
        return self._binary(other, _real_quotient, False, True)

    def __rtruediv__(self, other: Any) -> Any:
        if _is_integer(other):
            return rounded(z3.ToReal(_z3_int(other)) / z3.ToReal(_z3_int(self)))
        return self._binary(other, _real_quotient, True, True)


def _real_quotient(a: Any, b: Any) -> Any:
    """``a / b`` as real division (an integer operand read as the real it is)."""
    real = lambda t: z3.ToReal(t) if isinstance(t, z3.ArithRef) and t.is_int() else t  # noqa: E731
    return real(a) / real(b)


def upward(exact: Any) -> Any:
    """What a rounding-up primitive returns on a term: ``exact`` itself, or under the rounding
    model a fresh float ``>= exact`` (the fact the primitive's code certifies)."""
    model = active()
    if model is None or not model.rounding:
        return exact
    key = plain(exact).get_id() if isinstance(exact, z3.ExprRef) else None
    if key is not None and key in model.rounded_up:
        return model.rounded_up[key]
    result = model.fresh("up")
    model.facts.append(result >= exact)
    if key is not None:
        model.rounded_up[key] = as_float(result)
    return as_float(result)


def square_root(x: Any) -> Any:
    """``SQRT(x)`` with its facts recorded, for ``sqrt_up`` under either model."""
    model = active()
    assert model is not None
    root = SQRT(plain(x))
    model.facts += [z3.Implies(plain(x) >= 0, z3.And(root >= 0, root * root == plain(x)))]
    return root
