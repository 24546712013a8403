"""Wrong twins of ``make_cast_default``: one refuted per standard statement, and more for the
output domain (a parse that raises, a format past the digit limit)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms import ops
from mechanisms.core import RowTransform
from mechanisms.make_cast_default import (CAST_KERNELS, build_cast_default, format_value,
                                          make_cast_default)
from mechanisms.metrics import AbsoluteDistance
from obligations.base import Entry
from obligations.kernel.statements import Claim
from tests.twins._statements import statement_twin_entries


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


def int_to_str_unguarded(n: Any) -> Any:
    """Wrong: ``str(n)`` without the digit-limit guard: ``str(10 ** 5000)`` raises
    ``ValueError`` (Python's int-to-string limit), a raise on a member of the input domain (and
    the report must write that row without hitting the same limit)."""
    return ops.opaque("format_int", str, n, str)


def build_cast_unguarded_format(from_type, to_type):
    return _with_kernel(from_type, to_type, (int, str), int_to_str_unguarded)


make_cast_unguarded_format = make_cast_default.variant("make_cast_unguarded_format",
                                                       build_cast_unguarded_format)


STATEMENT_TWIN_OF = {
    ("make_cast_default", Claim.OUTPUT_DOMAIN): ("make_cast_float_default", Claim.OUTPUT_DOMAIN),
    ("make_cast_default", Claim.COMPATIBILITY): ("make_cast_absolute_output",
                                                 Claim.COMPATIBILITY),
    ("make_cast_default", Claim.STABILITY): ("make_cast_signed_zero", Claim.STABILITY),
}
REFUTED_STATEMENTS = {("make_cast_raising_parse", Claim.OUTPUT_DOMAIN)}
MECHANISMS = statement_twin_entries(globals(), STATEMENT_TWIN_OF.values(), REFUTED_STATEMENTS)
UNSUPPORTED = [Entry("make_cast_unguarded_format", make_cast_unguarded_format)]
"""Wrong only on rows past the digits ``str`` writes, which the search does not build (their
``repr`` raises too): the row-transform rule, which runs the kernel on such a row, refuses it,
so it is never proved, though not refuted."""
