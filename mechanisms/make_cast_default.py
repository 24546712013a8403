"""``make_cast_default(from_type, to_type)``: cast every row, with a default where a cast fails.

Types ``str``, ``int``, ``float``, ``bool``; the default is ``to_type()`` (``""``, ``0``, ``0.0``,
``False``), as in OpenDP. Casts are Python's: ``float(s)`` (``"nan"``, ``"1e400"`` -> inf,
``"  3 "`` -> 3.0, ``"1_000"`` -> 1000.0; unparsable -> 0.0), ``int(s)`` (base 10; ``"3.5"`` -> 0),
``int(x)`` of a float truncates (NaN, +-inf -> 0), ``float(n)`` of an int rounds to nearest (beyond
the float range -> 0.0), ``bool(x)`` is ``x != 0`` / ``s != ""``, ``str(x)`` (``str(-0.0)`` gives
``"0.0"``: ``-0.0`` and ``0.0`` are one multiset element; digits beyond Python's limit -> ``""``).
A float output may be NaN, so a float output domain admits NaN. Symmetric distance on both sides;
a row transform whose kernel maps one multiset element to one, so the map is ``d_in -> d_in``.

Differences from OpenDP (``make_cast_default``, Rust parsing and ``i32`` integers): OpenDP gives
0.0 for ``"  3 "`` and ``"1_000"``, 0 for ints beyond ``i32``, ``"NaN"``/``"true"``/``"-0"`` as
strings; ours follows Python. The maps are equal (``d_in``).
"""

from __future__ import annotations

from typing import Any, Callable

from mechanisms import ops
from mechanisms.core import Constructor, Exactly, Map, RowTransform, Transformation, declares
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import CarrierError
from mechanisms.make_clamp import unit_constant
from mechanisms.metrics import SymmetricDistance

CAST_TYPES = (str, int, float, bool)


def parse_float(s: str) -> float:
    """``float(s)``, or ``0.0`` where Python cannot parse ``s``."""
    try:
        return float(s)
    except ValueError:
        return 0.0


def parse_int(s: str) -> int:
    """``int(s)`` in base 10, or ``0`` where Python cannot parse ``s``."""
    try:
        return int(s)
    except ValueError:
        return 0


def format_value(x: Any) -> str:
    """``str(x)``, or ``""`` where Python refuses (an int beyond its digit limit)."""
    try:
        return str(x)
    except ValueError:
        return ""


def identity(x: Any) -> Any:
    """``x``: a cast to the same type."""
    return x


def str_to_float(s: Any) -> Any:
    return ops.opaque("parse_float", parse_float, s, float)


def str_to_int(s: Any) -> Any:
    return ops.opaque("parse_int", parse_int, s, int)


def str_to_bool(s: Any) -> Any:
    """``bool(s)``: ``s != ""``."""
    return ops.negate(ops.eq(s, ""))


def number_to_bool(x: Any) -> Any:
    """``bool(x)``: ``x != 0`` (NaN is true, ``-0.0`` false)."""
    return ops.negate(ops.eq(x, 0))


def int_to_float(n: Any) -> Any:
    """``float(n)`` rounded to nearest, ``0.0`` beyond the float range."""
    rounded = ops.to_float(n)
    return ops.where(ops.is_finite(rounded), rounded, 0.0)


def float_to_int(x: Any) -> Any:
    """``int(x)`` truncated toward zero, ``0`` for NaN and +-inf."""
    return ops.where(ops.is_finite(x), ops.truncate(x), 0)


def int_to_str(n: Any) -> Any:
    return ops.opaque("format_int", format_value, n, str)


def float_to_str(x: Any) -> Any:
    """``str(x + 0.0)``: adding ``0.0`` turns ``-0.0`` into ``0.0``, the same multiset element."""
    return ops.opaque("format_float", format_value, x + 0.0, str)


def bool_to_str(b: Any) -> Any:
    return ops.opaque("format_bool", format_value, b, str)


def bool_to_int(b: Any) -> Any:
    return ops.bool_as(b, int)


def bool_to_float(b: Any) -> Any:
    return ops.bool_as(b, float)


CAST_KERNELS: dict[tuple[type, type], Callable[[Any], Any]] = {
    (str, str): identity, (str, int): str_to_int, (str, float): str_to_float,
    (str, bool): str_to_bool,
    (int, str): int_to_str, (int, int): identity, (int, float): int_to_float,
    (int, bool): number_to_bool,
    (float, str): float_to_str, (float, int): float_to_int, (float, float): identity,
    (float, bool): number_to_bool,
    (bool, str): bool_to_str, (bool, int): bool_to_int, (bool, float): bool_to_float,
    (bool, bool): identity,
}
"""The kernel of each cast ``(from_type, to_type)``."""


@declares(*({"from_type": Exactly(a), "to_type": Exactly(b)}
             for a in CAST_TYPES for b in CAST_TYPES))
def validate_cast(from_type: Any, to_type: Any) -> None:
    """Both types are among ``str``, ``int``, ``float``, ``bool``."""
    for carrier in (from_type, to_type):
        if carrier not in CAST_TYPES:
            raise CarrierError(carrier, CAST_TYPES)


def build_cast_default(from_type: type, to_type: type) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(AtomDomain(from_type, nan=from_type is float)),
        output_domain=VectorDomain(AtomDomain(to_type, nan=to_type is float)),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(CAST_KERNELS[(from_type, to_type)]),
        stability_map=Map(constant=unit_constant),
    )


make_cast_default = Constructor("make_cast_default", build_cast_default, (), validate_cast)
