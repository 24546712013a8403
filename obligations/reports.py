"""Bug reports for confirmed counterexamples, in the form of an OpenDP issue."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Sequence

from obligations.base import Replay


class Code(str):
    """An argument shown as the Python expression that builds it."""

    def __repr__(self) -> str:
        return str(self)


LONG_INT_BITS = 256
"""Ints longer than this are written as ``m * 10 ** k`` or in hex: ``repr`` of an int past 4300
digits raises (Python's int-to-string limit), and a reader wants ``10 ** 400``, not 401 digits."""


def _int_literal(value: int) -> str:
    """``value`` as source: ``repr`` when short, else ``m * 10 ** k`` when ``m`` is short, else
    hex (which has no digit limit)."""
    if value.bit_length() <= LONG_INT_BITS:
        return repr(value)
    mantissa, exponent = value, 0
    while mantissa % 10 == 0:
        mantissa, exponent = mantissa // 10, exponent + 1
    if mantissa.bit_length() <= LONG_INT_BITS:
        return f"10 ** {exponent}" if mantissa == 1 else f"{mantissa} * 10 ** {exponent}"
    return hex(value)


def literal(value: Any) -> str:
    """``value`` as Python source that evaluates back to it: ``float('nan')``, not ``nan``;
    ``10 ** 400``, not 401 digits."""
    if isinstance(value, int) and not isinstance(value, bool):
        return _int_literal(value)
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    if isinstance(value, list):
        return "[" + ", ".join(map(literal, value)) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(map(literal, value)) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def show(value: Any) -> str:
    """A number as a reader wants it: ``2``, ``1/16 (= 0.0625)``, ``0.5``."""
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 \
            else f"{value} (= {float(value)!r})"
    return repr(value)


def constructor_call(constructor: Any, **arguments: Any) -> str:
    args = ", ".join(f"{k}={literal(v)}" for k, v in arguments.items())
    return f"{constructor.name}({args})"


def import_line(constructor: Any) -> str:
    return f"from {constructor.build.__module__} import {constructor.name}"


def constructor_report(constructor: Any, arguments: dict[str, Any], v: Any, w: Any, d_in: Any,
                       claimed: Any, observed: Any, confirmed: bool,
                       imports: Sequence[str] = ()) -> Replay:
    """:func:`stability_report` for a call of ``constructor`` with ``arguments``."""
    return stability_report(constructor_call(constructor, **arguments),
                            [import_line(constructor), *imports], v, w, d_in, claimed, observed,
                            confirmed)


def stability_report(call: str, imports: Sequence[str], v: Any, w: Any, d_in: Any, claimed: Any,
                     observed: Any, confirmed: bool) -> Replay:
    """A transformation ``call`` maps ``d_in``-close ``v, w`` to outputs farther apart than
    ``map(d_in)``; ``imports`` make the reproducer runnable."""
    verdict = "VIOLATION" if confirmed else "no violation on replay"
    report = "\n".join([
        f"{verdict}: {call}",
        f"  inputs   v = {literal(v)}",
        f"           w = {literal(w)}",
        f"  d_in     = {show(d_in)}",
        f"  claimed  map(d_in) = {show(claimed)}",
        f"  observed d_out     = {show(observed)}" + ("  > claimed" if confirmed else ""),
        "  reproduce:",
        *[f"    {line}" for line in imports],
        f"    t = {call}",
        f"    v, w = {literal(v)}, {literal(w)}",
        "    print(t.input_metric.distance(v, w), t.map(" + repr(d_in) + "), "
        "t.output_metric.distance(t(v), t(w)))",
    ])
    return Replay(confirmed, report)


def output_report(constructor: Any, arguments: dict[str, Any], data: Any, output: Any,
                  confirmed: bool, *details: str) -> Replay:
    """A function's output on ``data`` is not in its output domain."""
    call = constructor_call(constructor, **arguments)
    return plain_report(confirmed, f"{call} on {literal(data)}",
                        f"output {literal(output)}", *details,
                        "reproduce:", f"  {import_line(constructor)}", f"  t = {call}",
                        f"  print(t({literal(data)}), t.output_domain.member(t({literal(data)})))")


def plain_report(confirmed: bool, headline: str, *lines: str) -> Replay:
    verdict = "VIOLATION" if confirmed else "no violation on replay"
    return Replay(confirmed, "\n".join([f"{verdict}: {headline}", *[f"  {x}" for x in lines]]))
