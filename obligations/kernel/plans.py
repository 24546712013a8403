"""The plan of a constructor that only composes other constructors: which constructors its build
calls, on what, read once for every argument it will ever be given.

A build qualifies when its bytecode is straight-line (no branch, loop, comparison, subscript,
attribute or nested function), every global it loads is a :class:`~mechanisms.core.Constructor`,
plain data (builtin types among it), a value builtin (:data:`VALUE_BUILTINS`), a function of
the shared arithmetic layer or a domain, metric or measure class, and its values only flow through arithmetic, those functions,
``>>``, lists and tuples into constructor calls. Run once on stand-ins for its arguments (:class:`Parameter`) with each
constructor replaced by a recorder, it returns a tree of :class:`Planned` calls; since nothing
in it can depend on an argument's value, every admitted argument yields a tree of that shape,
each node built by that constructor from some arguments it admitted.
"""

from __future__ import annotations

import builtins
import dis
import types
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from mechanisms.core import Constructor
from mechanisms.errors import DPCertError
from obligations.kernel.statements import ObjectKind

STRAIGHT_LINE = frozenset({
    "RESUME", "NOP", "CACHE", "EXTENDED_ARG", "PUSH_NULL", "PRECALL", "CALL", "CALL_KW",
    "KW_NAMES", "CALL_FUNCTION", "CALL_FUNCTION_KW", "LOAD_FAST", "LOAD_FAST_CHECK",
    "LOAD_FAST_LOAD_FAST", "LOAD_CONST", "LOAD_GLOBAL", "STORE_FAST", "STORE_FAST_LOAD_FAST",
    "STORE_FAST_STORE_FAST", "BINARY_OP", "UNARY_NEGATIVE", "BUILD_LIST", "BUILD_TUPLE",
    "LIST_EXTEND", "RETURN_VALUE", "RETURN_CONST", "POP_TOP", "COPY", "SWAP"})
"""Opcodes of a build that can only pass values along (no jump among them)."""

PLAIN = (int, float, str, bool, type(None))


class PlanRefused(DPCertError):
    """The build is not a plan of constructor calls: ``why`` says where."""


class Parameter:
    """A stand-in for an argument, or for arithmetic on arguments: it can be combined and passed
    on, never looked at (a truth value, an index, a hash, a length: each refuses)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def _combine(self, operator: str, other: Any, reflected: bool = False) -> "Parameter":
        left, right = (other, self) if reflected else (self, other)
        return Parameter(f"({left!r} {operator} {right!r})")

    def __add__(self, other: Any) -> "Parameter": return self._combine("+", other)
    def __radd__(self, other: Any) -> "Parameter": return self._combine("+", other, True)
    def __sub__(self, other: Any) -> "Parameter": return self._combine("-", other)
    def __rsub__(self, other: Any) -> "Parameter": return self._combine("-", other, True)
    def __mul__(self, other: Any) -> "Parameter": return self._combine("*", other)
    def __rmul__(self, other: Any) -> "Parameter": return self._combine("*", other, True)
    def __truediv__(self, other: Any) -> "Parameter": return self._combine("/", other)
    def __rtruediv__(self, other: Any) -> "Parameter": return self._combine("/", other, True)
    def __floordiv__(self, other: Any) -> "Parameter": return self._combine("//", other)
    def __rfloordiv__(self, other: Any) -> "Parameter": return self._combine("//", other, True)
    def __pow__(self, other: Any) -> "Parameter": return self._combine("**", other)
    def __rpow__(self, other: Any) -> "Parameter": return self._combine("**", other, True)
    def __neg__(self) -> "Parameter": return Parameter(f"-{self!r}")

    def _looked_at(self, *_: Any) -> Any:
        raise PlanRefused(f"the build looks at the value of {self!r}")

    __bool__ = __index__ = __int__ = __float__ = __len__ = __iter__ = __hash__ = _looked_at
    __rshift__ = __rrshift__ = _looked_at


@dataclass(eq=False)
class Planned:
    """``constructor(**arguments)``, as the build would call it; ``kind`` is what it builds."""

    constructor: Constructor
    arguments: Mapping[str, Any]
    kind: ObjectKind

    def __rshift__(self, outer: Any) -> "Planned":
        """``self >> outer``: :func:`mechanisms.core.make_chain`, which picks the chain by the
        outer object's kind."""
        if not isinstance(outer, Planned):
            raise PlanRefused(f"{self.constructor.name}(...) >> {outer!r}: the outer part is not "
                              "built by a constructor")
        from mechanisms.make_chain_mt import make_chain_mt
        from mechanisms.make_chain_tt import make_chain_tt
        chain = make_chain_mt if outer.kind is ObjectKind.MEASUREMENT else make_chain_tt
        return Planned(chain, {"outer": outer, "inner": self}, outer.kind)


def plan_of(constructor: Constructor,
            kinds: Mapping[int, ObjectKind]) -> Planned:
    """The tree of constructor calls ``constructor.build`` makes, for any argument. ``kinds``:
    what each proved constructor builds, by ``id``; a call of any other constructor refuses."""
    build = constructor.build
    if not isinstance(build, types.FunctionType):
        raise PlanRefused(f"{constructor.name}'s build is not a plain function")
    code = build.__code__
    if build.__closure__ or any(isinstance(c, types.CodeType) for c in code.co_consts):
        raise PlanRefused(f"{constructor.name}'s build holds a closure or a nested function")
    stand_ins: dict[str, Any] = {}
    for instruction in dis.get_instructions(build):
        if instruction.opname not in STRAIGHT_LINE:
            line = instruction.positions.lineno if instruction.positions else "?"
            raise PlanRefused(f"{constructor.name}'s build is not straight-line: "
                              f"{instruction.opname} at line {line}")
        if instruction.opname == "LOAD_GLOBAL":
            name = instruction.argval
            stand_ins[name] = _stand_in(constructor.name, name, build.__globals__, kinds)
    parameters = {name: Parameter(name) for name in constructor.signature.parameters}
    planning = types.FunctionType(code, {**build.__globals__, **stand_ins}, code.co_name,
                                  build.__defaults__)
    try:
        planned = planning(**parameters)
    except PlanRefused:
        raise
    except Exception as error:  # noqa: BLE001 - whatever the build does with a stand-in
        raise PlanRefused(f"{constructor.name}'s build raised on stand-ins for its arguments: "
                          f"{type(error).__name__}: {error}") from None
    if not isinstance(planned, Planned):
        raise PlanRefused(f"{constructor.name}'s build returns {planned!r}, not the object a "
                          "constructor builds")
    return planned


def _stand_in(owner: str, name: str, namespace: Mapping[str, Any],
              kinds: Mapping[int, ObjectKind]) -> Any:
    """What the planning run loads for the global ``name``: a recorder for a proved
    constructor, plain data as it is."""
    if name in namespace:
        value = namespace[name]
    elif name in VALUE_BUILTINS:
        return _value_function(getattr(builtins, name))
    elif getattr(builtins, name, None) in PLAIN_TYPES:
        return getattr(builtins, name)
    elif hasattr(builtins, name):
        raise PlanRefused(f"{owner}'s build uses the builtin {name}")
    else:
        raise PlanRefused(f"{owner}'s build loads {name}, which is not defined")
    if _shared_value_function(value) or _data_class(value):
        return _value_function(value)
    if isinstance(value, Constructor):
        if id(value) not in kinds:
            raise PlanRefused(f"{owner}'s build calls {value.name}, which has no proved "
                              "statements in this run")
        return _recorder(value, kinds[id(value)])
    if _plain(value):
        return value
    raise PlanRefused(f"{owner}'s build loads {name}, which is neither a constructor nor plain "
                      "data")


VALUE_BUILTINS = frozenset({"abs", "min", "max", "float", "int", "round", "pow"})
"""Builtins a build may apply to values: whatever they compute, the value only flows on."""
PLAIN_TYPES = (str, bool, bytes)
"""Builtin types a build may pass along as values (``make_cast_default(str, int)``)."""
SHARED_VALUE_MODULES = frozenset({"mechanisms.ops", "mechanisms.arith"})
DATA_MODULES = frozenset({"mechanisms.domains", "mechanisms.metrics", "mechanisms.measures"})
"""Modules whose classes are data a build may make and pass on (``AtomDomain(int, bounds=...)``
for ``make_resize``): a domain, metric or measure is an argument like a number."""


def _data_class(value: Any) -> bool:
    return isinstance(value, type) and value.__module__ in DATA_MODULES


def _shared_value_function(value: Any) -> bool:
    """A function of the shared arithmetic layer, or ``core.length``: it computes a value."""
    return isinstance(value, types.FunctionType) and (
        value.__module__ in SHARED_VALUE_MODULES
        or (value.__module__ == "mechanisms.core" and value.__name__ == "length"))


def _value_function(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` on plain values; a stand-in for its result when any argument (in a list or
    tuple too) is one."""
    def apply(*args: Any, **kwargs: Any) -> Any:
        if _holds_parameter([*args, *kwargs.values()]):
            shown = [*map(repr, args), *(f"{k}={v!r}" for k, v in kwargs.items())]
            return Parameter(f"{function.__name__}({', '.join(shown)})")
        return function(*args, **kwargs)
    return apply


def _holds_parameter(values: Any) -> bool:
    return any(isinstance(v, Parameter) or (isinstance(v, (list, tuple)) and _holds_parameter(v))
               for v in values)


def _recorder(constructor: Constructor, kind: ObjectKind) -> Callable[..., Planned]:
    def record(*args: Any, **kwargs: Any) -> Planned:
        return Planned(constructor, constructor.arguments(*args, **kwargs), kind)
    return record


def _plain(value: Any) -> bool:
    if isinstance(value, (tuple, list, frozenset)):
        return all(_plain(item) for item in value)
    return isinstance(value, PLAIN) or any(value is t for t in (*PLAIN_TYPES, int, float))


def planned_nodes(planned: Any) -> list[Planned]:
    """Every :class:`Planned` call in ``planned``, outermost first."""
    if isinstance(planned, Planned):
        return [planned, *(n for value in planned.arguments.values() for n in planned_nodes(value))]
    if isinstance(planned, (list, tuple)):
        return [n for value in planned for n in planned_nodes(value)]
    return []
