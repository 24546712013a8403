"""Wrong twins of ``make_cast_default``: one refuted per obligation."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms import ops
from mechanisms.core import RowTransform
from mechanisms.make_cast_default import (CAST_KERNELS, build_cast_default, format_value,
                                          make_cast_default)
from mechanisms.metrics import AbsoluteDistance
from obligations.base import Entry
from obligations.make_cast_default import cast_default_obligations


def float_to_int_float_default(x: Any) -> Any:
    """Wrong: the default ``0.0`` is a float, so NaN and +-inf cast to a float, not an int."""
    return ops.where(ops.is_finite(x), ops.truncate(x), 0.0)


def float_to_str_signed_zero(x: Any) -> Any:
    """Wrong: ``str(-0.0)`` is ``"-0.0"``, but ``-0.0`` and ``0.0`` are one multiset element."""
    return ops.opaque("format_float", format_value, x, str)


def _with_kernel(from_type: type, to_type: type, cast: tuple[type, type], kernel: Any):
    built = build_cast_default(from_type, to_type)
    kernels = {**CAST_KERNELS, cast: kernel}
    return replace(built, function=RowTransform(kernels[(from_type, to_type)]))


def build_cast_float_default(from_type: type, to_type: type):
    return _with_kernel(from_type, to_type, (float, int), float_to_int_float_default)


def build_cast_signed_zero(from_type: type, to_type: type):
    return _with_kernel(from_type, to_type, (float, str), float_to_str_signed_zero)


def build_cast_absolute_output(from_type: type, to_type: type):
    """Wrong: absolute distance is for numbers, not vectors."""
    return replace(build_cast_default(from_type, to_type), output_metric=AbsoluteDistance())


make_cast_float_default = make_cast_default.variant("make_cast_float_default",
                                                    build_cast_float_default)
make_cast_signed_zero = make_cast_default.variant("make_cast_signed_zero", build_cast_signed_zero)
make_cast_absolute_output = make_cast_default.variant("make_cast_absolute_output",
                                                      build_cast_absolute_output)

MECHANISMS = [
    Entry("make_cast_float_default", make_cast_float_default,
          cast_default_obligations(make_cast_float_default, "cast_float_default")),
    Entry("make_cast_signed_zero", make_cast_signed_zero,
          cast_default_obligations(make_cast_signed_zero, "cast_signed_zero")),
    Entry("make_cast_absolute_output", make_cast_absolute_output,
          cast_default_obligations(make_cast_absolute_output, "cast_absolute_output")),
]

EXPECTED_REFUTATIONS = {
    "cast_float_default.output_domain",
    "cast_signed_zero.stability",
    "cast_absolute_output.compatibility",
}

TWIN_OF = {
    "cast_default.output_domain": "cast_float_default.output_domain",
    "cast_default.compatibility": "cast_absolute_output.compatibility",
    "cast_default.stability": "cast_signed_zero.stability",
}


def parse_float_narrow(s: str) -> float:
    """Wrong: catches ``TypeError`` where ``float(s)`` raises ``ValueError``: any unparsable
    string (``"abc"``) raises instead of giving the default."""
    try:
        return float(s)
    except TypeError:
        return 0.0


def str_to_float_narrow(s):
    return ops.opaque("parse_float", parse_float_narrow, s, float)


def build_cast_raising_parse(from_type, to_type):
    built = build_cast_default(from_type, to_type)
    if (from_type, to_type) != (str, float):
        return built
    return replace(built, function=RowTransform(str_to_float_narrow))


make_cast_raising_parse = make_cast_default.variant("make_cast_raising_parse",
                                                    build_cast_raising_parse)
MECHANISMS.append(Entry("make_cast_raising_parse", make_cast_raising_parse,
                        cast_default_obligations(make_cast_raising_parse, "cast_raising_parse")))
EXPECTED_REFUTATIONS.add("cast_raising_parse.output_domain")


def int_to_str_unguarded(n: Any) -> Any:
    """Wrong: ``str(n)`` without the digit-limit guard: ``str(10 ** 5000)`` raises
    ``ValueError`` (Python's int-to-string limit), a raise on a member of the input domain (and
    the report must write that row without hitting the same limit)."""
    return ops.opaque("format_int", str, n, str)


def build_cast_unguarded_format(from_type, to_type):
    return _with_kernel(from_type, to_type, (int, str), int_to_str_unguarded)


make_cast_unguarded_format = make_cast_default.variant("make_cast_unguarded_format",
                                                       build_cast_unguarded_format)
MECHANISMS.append(Entry("make_cast_unguarded_format", make_cast_unguarded_format,
                        cast_default_obligations(make_cast_unguarded_format,
                                                 "cast_unguarded_format")))
EXPECTED_REFUTATIONS.add("cast_unguarded_format.output_domain")


def int_to_float_default_one(n: Any) -> Any:
    """Wrong: a float beyond the range becomes ``1.0``, not ``float``'s default ``0.0``."""
    rounded = ops.to_float(n)
    return ops.where(ops.is_finite(rounded), rounded, 1.0)


def float_to_str_shifted(x: Any) -> Any:
    """Wrong: formats ``x + 1.0`` (still one string per multiset element, so stable)."""
    return ops.opaque("format_float", format_value, x + 1.0, str)


def number_to_bool_inverted(x: Any) -> Any:
    """Wrong: ``x == 0`` is the negation of ``bool(x)``."""
    return ops.eq(x, 0)


SPECIFICATION_TWINS = {
    "cast_default_one": ((int, float), int_to_float_default_one),
    "cast_shifted_format": ((float, str), float_to_str_shifted),
    "cast_inverted_bool": ((int, bool), number_to_bool_inverted),
}
"""Casts that keep the output domain and stability but compute another function."""



def _building_with(cast: tuple[type, type], kernel: Any):
    def build(from_type: type, to_type: type):
        return _with_kernel(from_type, to_type, cast, kernel)
    return build


for _name, (_cast, _kernel) in SPECIFICATION_TWINS.items():
    _variant = make_cast_default.variant(f"make_{_name}", _building_with(_cast, _kernel))
    MECHANISMS.append(Entry(f"make_{_name}", _variant, cast_default_obligations(_variant, _name)))
    EXPECTED_REFUTATIONS.add(f"{_name}.specification")
TWIN_OF["cast_default.specification"] = "cast_default_one.specification"
