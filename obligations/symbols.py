"""Solver constants for the values obligations quantify over."""

from __future__ import annotations

import re
from typing import Any, Callable

import z3

from mechanisms import float_model, ops


def float64(name: str) -> z3.FPRef:
    """Any IEEE-754 double: NaN, +-inf, -0.0 and subnormals included."""
    return z3.FP(name, z3.Float64())


def integer(name: str) -> z3.ArithRef:
    """Any (unbounded) integer, like Python's ``int``."""
    return z3.Int(name)


def real(name: str) -> z3.ArithRef:
    return z3.Real(name)


def natural(name: str) -> tuple[z3.ArithRef, list[Any]]:
    """A count or distance (``d_in``, ``t``): a real constrained to ``{0, 1, 2, ...}``.

    Modelled as a real rather than a Z3 integer so that ``d_in / 2`` in a map means true division,
    exactly as in Python, not Z3's integer division.
    """
    term = z3.Real(name)
    return term, [z3.IsInt(term), term >= 0]


def natural_int(name: str) -> tuple[Any, list[Any]]:
    """A count or distance that the code holds as a Python ``int``: a Z3 integer with Python's
    arithmetic (:class:`mechanisms.float_model.IntTerm`: ``/`` is true division, ``//`` the floor),
    constrained to ``{0, 1, 2, ...}``."""
    term = float_model.int_parameter(name)
    return term, [term >= 0]


CARRIERS: dict[str, tuple[type, Callable[[str], Any]]] = {
    "float64": (float, float64),
    "int": (int, integer),
}
"""The scalar types a generic constructor (clamp) is proved for, and their solver constants."""


def same_element(a: Any, b: Any) -> Any:
    """``a`` and ``b`` are the same multiset element: equal values, or both NaN
    (:func:`mechanisms.metrics.multiset_key`)."""
    return ops.any_of(ops.all_of(ops.is_nan(a), ops.is_nan(b)), ops.eq(a, b))


def model_value(carrier: type, solved: Any) -> Any:
    """A model's value as a Python value of ``carrier`` (a Z3 string reads ``"..."``, with
    ``\\u{hex}`` escapes)."""
    if carrier is str:
        text = solved[1:-1] if solved.startswith('"') and solved.endswith('"') else solved
        return re.sub(r"\\u\{([0-9a-fA-F]+)\}", lambda m: chr(int(m.group(1), 16)), text)
    return carrier(solved)
