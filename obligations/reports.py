"""Bug reports for confirmed counterexamples, in the form of an OpenDP issue."""

from __future__ import annotations

import dataclasses
import math
import sys
from fractions import Fraction
from typing import Any, Mapping, Sequence

import mpmath

from obligations.base import Replay


class Code(str):
    """An argument shown as the Python expression that builds it; ``setup`` are the lines a
    reproducer runs before it can evaluate the expression (imports, and the assignment of an
    object the call uses twice)."""

    setup: tuple[str, ...]

    def __new__(cls, text: str, *setup: str) -> "Code":
        code = super().__new__(cls, text)
        code.setup = setup
        return code

    def __repr__(self) -> str:
        return str(self)


def code_setup(arguments: Mapping[str, Any]) -> list[str]:
    """The setup lines of the :class:`Code` values among ``arguments``, each once."""
    lines = [line for value in arguments.values() if isinstance(value, Code)
             for line in value.setup]
    return list(dict.fromkeys(lines))


LONG_INT_BITS = 256
"""Ints longer than this are written as ``m * 10 ** k`` or in hex: ``repr`` of an int past 4300
digits raises (Python's int-to-string limit), and a reader wants ``10 ** 400``, not 401 digits."""


def _int_literal(value: int) -> str:
    """``value`` as source: ``repr`` when short, else ``2 ** k`` for a power of two, else
    ``m * 10 ** k`` when ``m`` is short, else hex (which has no digit limit)."""
    if value.bit_length() <= LONG_INT_BITS:
        return repr(value)
    if value & (value - 1) == 0:
        return f"2 ** {value.bit_length() - 1}"
    mantissa, exponent = value, 0
    while mantissa % 10 == 0:
        mantissa, exponent = mantissa // 10, exponent + 1
    if mantissa.bit_length() <= LONG_INT_BITS:
        return f"10 ** {exponent}" if mantissa == 1 else f"{mantissa} * 10 ** {exponent}"
    return hex(value)


def literal(value: Any) -> str:
    """``value`` as Python source that evaluates back to it: ``float('nan')``, not ``nan``;
    ``10 ** 400``, not 401 digits; ``float``, not ``<class 'float'>``; a dataclass as its
    constructor call (its class imported by :func:`literal_imports`)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return _int_literal(value)
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    if isinstance(value, Fraction):
        return f"Fraction({_int_literal(value.numerator)}, {_int_literal(value.denominator)})"
    if isinstance(value, list):
        return "[" + ", ".join(map(literal, value)) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(map(literal, value)) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, type) and value.__module__ == "builtins":
        return value.__name__
    if _plain_dataclass(value):
        return f"{type(value).__name__}(" + ", ".join(
            f"{f.name}={literal(getattr(value, f.name))}" for f in dataclasses.fields(value)) + ")"
    return repr(value)


def _plain_dataclass(value: Any) -> bool:
    """``value`` is a dataclass instance whose fields are all constructor arguments."""
    return dataclasses.is_dataclass(value) and not isinstance(value, type) and all(
        f.init for f in dataclasses.fields(value))


def literal_imports(value: Any) -> list[str]:
    """The import lines :func:`literal`'s source of ``value`` needs: the class of each dataclass
    instance in it (``from mechanisms.domains import AtomDomain``), each once."""
    if isinstance(value, dict):
        parts = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    elif _plain_dataclass(value):
        parts = [getattr(value, f.name) for f in dataclasses.fields(value)]
        own = f"from {type(value).__module__} import {type(value).__name__}"
        return list(dict.fromkeys([own, *[line for part in parts
                                          for line in literal_imports(part)]]))
    else:
        return []
    return list(dict.fromkeys(line for part in parts for line in literal_imports(part)))


def show(value: Any) -> str:
    """A number as a reader wants it: ``2``, ``1/16 (= 0.0625)``, ``0.5``; a ratio beyond the
    floats, ``10**400/3 (~ 3.333e+399)``."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        try:
            return f"{value} (= {float(value)!r})"
        except OverflowError:
            return f"{value} (~ {mpmath.nstr(mpmath.mpf(value.numerator) / value.denominator, 4)})"
    return repr(value)


def constructor_call(constructor: Any, **arguments: Any) -> str:
    args = ", ".join(f"{k}={literal(v)}" for k, v in arguments.items())
    return f"{constructor.name}({args})"


def _binds(module: Any, constructor: Any) -> bool:
    """``module`` names ``constructor`` by its name."""
    return module is not None and vars(module).get(constructor.name) is constructor


def _lists_it(module: Any, constructor: Any) -> bool:
    """``module``'s ``MECHANISMS`` (what ``dpcert check`` loads) has an entry of ``constructor``."""
    entries = vars(module).get("MECHANISMS") if module is not None else None
    return isinstance(entries, list) and any(
        getattr(entry, "constructor", None) is constructor for entry in entries)


def import_line(constructor: Any) -> str:
    """The reproducer's import of ``constructor`` by its name, from the module that binds it
    (its build function's, else the first loaded one: a variant made from a catalogue build
    function lives in the module that names it); a constructor that no module names but a
    module's ``MECHANISMS`` lists is taken from that list."""
    home = constructor.build.__module__
    candidates = [home, *list(sys.modules)]
    binder = next((name for name in candidates if _binds(sys.modules.get(name), constructor)),
                  None)
    if binder is not None:
        return f"from {binder} import {constructor.name}"
    lister = next((name for name in candidates if _lists_it(sys.modules.get(name), constructor)),
                  home)
    return (f"from {lister} import MECHANISMS; {constructor.name} = next(entry.constructor for "
            f"entry in MECHANISMS if entry.constructor.name == {constructor.name!r})")


def constructor_report(constructor: Any, arguments: dict[str, Any], v: Any, w: Any, d_in: Any,
                       claimed: Any, observed: Any, confirmed: bool,
                       imports: Sequence[str] = ()) -> Replay:
    """:func:`stability_report` for a call of ``constructor`` with ``arguments``."""
    return stability_report(constructor_call(constructor, **arguments),
                            [import_line(constructor), *code_setup(arguments),
                             *literal_imports(arguments), *imports], v, w,
                            d_in, claimed, observed, confirmed)


def stability_report(call: str, imports: Sequence[str], v: Any, w: Any, d_in: Any, claimed: Any,
                     observed: Any, confirmed: bool) -> Replay:
    """A transformation ``call`` maps ``d_in``-close ``v, w`` to outputs farther apart than
    ``map(d_in)``; ``imports`` make the reproducer runnable, and it asserts the stability
    inequality on the real code."""
    verdict = "VIOLATION" if confirmed else "no violation on replay"
    report = "\n".join([
        f"{verdict}: {call}",
        f"  inputs   v = {literal(v)}",
        f"           w = {literal(w)}",
        f"  d_in     = {show(d_in)}",
        f"  claimed  map(d_in) = {show(claimed)}",
        f"  observed d_out     = {show(observed)}" + ("  > claimed" if confirmed else ""),
        *[f"  {line}" for line in stability_reproducer(imports, call, v, w, d_in)],
    ])
    return Replay(confirmed, report)


def stability_reproducer(imports: Sequence[str], call: str, v: Any, w: Any, d_in: Any
                         ) -> list[str]:
    """The ``reproduce:`` block of a stability violation: build ``call``, run it on ``v`` and
    ``w`` and assert the distance of the outputs is at most ``map(d_in)``."""
    return reproducer(
        *imports, f"t = {call}", f"v, w = {literal(v)}, {literal(w)}",
        f"d_out, claimed = t.output_metric.distance(t(v), t(w)), t.map({literal(d_in)})",
        claim_assertion("d_out <= claimed", f"d_out = {{d_out!r}} > map({literal(d_in)}) = "
                        "{claimed!r}: outputs of d_in-close inputs are farther apart than the "
                        "map allows"))


def output_report(constructor: Any, arguments: dict[str, Any], data: Any, output: Any,
                  confirmed: bool, *details: str, finite: bool = False) -> Replay:
    """A function's output on ``data`` is not in its output domain (or, with ``finite``, not a
    finite number), or the function raised; the reproducer runs it and asserts both."""
    call = constructor_call(constructor, **arguments)
    run = f"t({literal(data)})"
    return plain_report(confirmed, f"{call} on {literal(data)}",
                        f"output {literal(output)}", *details,
                        *reproducer(import_line(constructor), *code_setup(arguments),
                                    *literal_imports(arguments),
                                    *(["import math"] if finite else []),
                                    f"t = {call}", *returns(f"output = {run}", run),
                                    *([claim_assertion("math.isfinite(output)",
                                                       "output {output!r} is not finite")]
                                      if finite else []),
                                    member_assertion("t")))


def reproducer(*lines: str) -> list[str]:
    """A bug report's ``reproduce:`` block: ``lines`` of Python (imports, the constructor call,
    the inputs, then an ``assert`` of the broken claim), indented under the heading and never
    wrapped; ``from fractions import Fraction`` first when a line uses ``Fraction(`` and none
    imports it; an import line given twice is written once. Run while the bug is present, the
    block fails with an ``AssertionError`` stating the broken inequality; once the bug is fixed
    it passes."""
    imported = any("import Fraction" in line for line in lines)
    needed = not imported and any("Fraction(" in line for line in lines)
    body = (["from fractions import Fraction"] if needed else []) + [
        line for i, line in enumerate(lines)
        if not (line.startswith(("from ", "import ")) and line in lines[:i])]
    return ["reproduce:", *[f"  {line}" for line in body]]


def claim_assertion(condition: str, message: str) -> str:
    """``assert condition, f"message"``: a reproducer's check of the claim the bug breaks;
    ``message`` is an f-string body that names the values (``{d_out!r} > {claimed!r}``)."""
    return f"assert {condition}, f{message!r}"


def member_assertion(built: str, output: str = "output") -> str:
    """Asserts that ``output`` is a member of ``built``'s output domain (both Python names)."""
    return claim_assertion(f"{built}.output_domain.member({output})",
                           f"output {{{output}!r}} is not in the output domain "
                           f"{{{built}.output_domain}}")


def returns(statement: str, what: str) -> list[str]:
    """Reproducer lines that run ``statement``; an exception it raises is re-raised as an
    ``AssertionError`` saying that ``what`` raised it: where the claim is that the function
    returns, a raise (no output at all) is the violation."""
    message = what.replace("{", "{{").replace("}", "}}") + \
        " raises {type(error).__name__}: {error}"
    return ["try:", f"    {statement}", "except Exception as error:",
            f"    raise AssertionError(f{message!r}) from error"]


def bound_assertion(what: str, bound: str = "map(d_in)") -> str:
    """Asserts ``observed <= claimed`` (names the reproducer has bound): the loss or distance
    ``what`` is at most the claimed ``bound``."""
    return claim_assertion("observed <= claimed",
                           f"{what} = {{observed}} > {bound} = {{claimed!r}}")


LOSS_DIGITS = 50
"""Significant digits of the replays' (and their reproducers') logarithms of exact ratios."""


def log_lines(ratio: str) -> list[str]:
    """Reproducer lines binding ``observed`` to ``ln(ratio)``, ``ratio`` an expression for an exact
    ratio of probabilities (a ``Fraction``, or ``inf`` for an output one input never gives), as
    the replays compute it: mpmath at :data:`LOSS_DIGITS` digits."""
    return ["import mpmath", f"mpmath.mp.dps = {LOSS_DIGITS}", f"ratio = {ratio}",
            "observed = mpmath.inf if ratio == float('inf') else "
            "mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)"]


def plain_report(confirmed: bool, headline: str, *lines: str) -> Replay:
    verdict = "VIOLATION" if confirmed else "no violation on replay"
    return Replay(confirmed, "\n".join([f"{verdict}: {headline}", *[f"  {x}" for x in lines]]))
