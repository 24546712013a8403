"""What the refuters share: the two ways a refuting rule is applied (to the one object a
statement is about, or to a constructor at arguments it admits, built here), and how a witness
shows its inputs and numbers."""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any, Callable

from mechanisms.core import provenance
from obligations.kernel.goals import require
from obligations.kernel.rules import RuleRefused, components

METRICS_MODULE = "mechanisms.metrics"
"""Where the catalogue's metrics live: a refuter trusts the distances of these only."""


def built_at(rule: str, statement: Any, constructor: Any, arguments: dict[str, Any]
             ) -> tuple[Any, str]:
    """``(object, call)``: ``constructor`` applied to ``arguments`` by the kernel itself, for a
    refutation of ``statement``, which must be about every object ``constructor`` builds; an
    argument it refuses is not admitted, and refutes nothing. The last objects built are kept
    (a search refutes at many inputs of one object)."""
    require(rule, not statement.built and statement.of == id(constructor),
            f"the statement refuted is not about {constructor.name}")
    foreign = [called(c) for c in components(arguments.values()) if not catalogue_built(c)]
    require(rule, not foreign, f"{', '.join(foreign)} is not built by a catalogue constructor, "
            "so it may not meet its own standard statements, which the statement refuted "
            "assumes of its components")
    call = f"{constructor.name}({', '.join(f'{k}={called(v)}' for k, v in arguments.items())})"
    key = (id(constructor), call)
    if key not in _BUILT:
        try:
            built = constructor(**arguments)
        except Exception as error:  # noqa: BLE001 - the constructor refuses: not admitted
            raise RuleRefused(rule, f"{constructor.name} does not admit {arguments} "
                              f"({type(error).__name__}: {error})") from None
        if len(_BUILT) >= KEPT:
            _BUILT.pop(next(iter(_BUILT)))
        _BUILT[key] = (constructor, built)
    return _BUILT[key][1], call


def catalogue_built(component: Any) -> bool:
    """``component`` was built by a constructor of the built-in catalogue, whose standard
    statements the gate proves (``make check``)."""
    record = provenance(component)
    return record is not None and any(record.constructor is c for c in _catalogue_constructors())


@functools.cache
def _catalogue_constructors() -> tuple[Any, ...]:
    from obligations.catalogue import builtin_catalogue  # the catalogue imports the refuters
    return tuple(e.constructor for e in builtin_catalogue() if e.constructor is not None)


def refuters(rule: str, refuted: Callable[..., Any]) -> tuple[Callable[..., Any],
                                                              Callable[..., Any]]:
    """The two ways a refuting ``rule`` is applied, both to ``refuted(statement, built, *inputs,
    call)``: to the one object a statement is about (``of_object(statement, built, *inputs,
    call="")``, ``call`` naming it in the witness), and to a constructor at arguments it admits,
    the kernel building the object itself (``of_constructor(statement, constructor,
    arguments, *inputs)``)."""
    def of_object(statement: Any, built: Any, *inputs: Any, call: str = "") -> Any:
        require(rule, statement.built and statement.of == id(built),
                f"the statement refuted is not about {call or statement.subject}")
        return refuted(statement, built, *inputs, call)

    def of_constructor(statement: Any, constructor: Any, arguments: dict[str, Any],
                       *inputs: Any) -> Any:
        built, call = built_at(rule, statement, constructor, arguments)
        return refuted(statement, built, *inputs, call)
    return of_object, of_constructor


_BUILT: dict[tuple[int, str], tuple[Any, Any]] = {}
"""The objects :func:`built_at` built, by constructor and call; the constructor is kept with
its object, so that its ``id`` is not reused while the entry lives."""
KEPT = 16


def shown(value: Any) -> str:
    """``value``'s repr, a long list written as its runs: ``[7] + [0] * 100``."""
    if not isinstance(value, list) or len(value) <= 6:
        return repr(value)
    runs: list[list[Any]] = []
    for item in value:
        if runs and runs[-1][0] == item and type(runs[-1][0]) is type(item):
            runs[-1][1] += 1
        else:
            runs.append([item, 1])
    return " + ".join(f"[{item!r}]" if count == 1 else f"[{item!r}] * {count}"
                      for item, count in runs)


def called(value: Any) -> str:
    """An argument as the call that built it (``make_discrete_laplace(scale=1.0)``), a list or
    tuple item by item, a type by its name; anything else as its repr."""
    record = provenance(value)
    if record is not None:
        given = ", ".join(f"{k}={called(v)}" for k, v in record.arguments.items())
        return f"{record.constructor.name}({given})"
    if isinstance(value, (list, tuple)):
        items = ", ".join(map(called, value)) + ("," if type(value) is tuple and len(value) == 1
                                                 else "")
        return f"[{items}]" if isinstance(value, list) else f"({items})"
    return value.__name__ if isinstance(value, type) else repr(value)


def exact(value: Any) -> Fraction | None:
    """A finite number as a fraction; None for anything else (NaN, infinities, terms)."""
    try:
        return Fraction(value)
    except (TypeError, ValueError, OverflowError):
        return None
