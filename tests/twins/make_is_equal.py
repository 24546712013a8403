"""Wrong twins of ``make_is_equal``: one refuted per standard statement, and more for the output
domain and stability (a comparison of bit patterns, a coercion to float)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import z3

from mechanisms import ops
from mechanisms.core import Map, RowTransform
from mechanisms.make_is_equal import build_is_equal, make_is_equal
from mechanisms.metrics import AbsoluteDistance
from obligations.kernel.statements import Claim
from tests.twins._statements import statement_twin_entries


def equal_as_int(x: Any, value: Any) -> Any:
    """Wrong: answers 1 or 0 (an ``astype(int)`` habit), not a bool."""
    return ops.bool_as(ops.eq(x, value), int)


def same_bits(x: Any, value: Any) -> Any:
    """Wrong: equal and with the same sign bit, as a comparison of encodings (bytes, a total
    order) has it: ``-0.0`` no longer matches ``0.0``, yet the two are one multiset element, so
    ``[-0.0]`` and ``[0.0]`` (distance 0) give ``[False]`` and ``[True]`` (distance 2)."""
    if ops.is_z3(x) and isinstance(x.sort(), z3.FPSortRef):
        signs = z3.fpIsNegative(x) == z3.fpIsNegative(value)
    elif isinstance(x, float):
        signs = math.copysign(1.0, x) == math.copysign(1.0, value)
    else:
        signs = True
    return ops.all_of(ops.eq(x, value), signs)


def equal_as_floats(x: Any, value: Any) -> bool:
    """Wrong: both sides coerced to float first (``float(x) == float(value)``, a numeric-only
    habit). It cannot run on solver terms, so no solver goal applies; on values it raises on
    every str row (``float('a')``) and on ints past the float range (``10**400``): admitted
    inputs with no output, which the witness runs refute."""
    return float(x) == float(value)


def half(d_in: Any) -> Any:
    """Wrong: a row transform is 1-stable, not 1/2-stable."""
    return d_in / 2


def build_is_equal_as_int(value: Any):
    return replace(build_is_equal(value), function=RowTransform(equal_as_int, {"value": value}))


def build_is_equal_bits(value: Any):
    return replace(build_is_equal(value), function=RowTransform(same_bits, {"value": value}))


def build_is_equal_absolute_output(value: Any):
    """Wrong: absolute distance is not defined on vectors of bools."""
    return replace(build_is_equal(value), output_metric=AbsoluteDistance())


def build_is_equal_as_floats(value: Any):
    return replace(build_is_equal(value), function=RowTransform(equal_as_floats, {"value": value}))


def build_is_equal_half_map(value: Any):
    return replace(build_is_equal(value), stability_map=Map(rule=half))


make_is_equal_as_int = make_is_equal.variant("make_is_equal_as_int", build_is_equal_as_int)
make_is_equal_bits = make_is_equal.variant("make_is_equal_bits", build_is_equal_bits)
make_is_equal_absolute_output = make_is_equal.variant("make_is_equal_absolute_output",
                                                      build_is_equal_absolute_output)
make_is_equal_half_map = make_is_equal.variant("make_is_equal_half_map", build_is_equal_half_map)
make_is_equal_as_floats = make_is_equal.variant("make_is_equal_as_floats",
                                                build_is_equal_as_floats)
STATEMENT_TWIN_OF = {
    ("make_is_equal", Claim.OUTPUT_DOMAIN): ("make_is_equal_as_int", Claim.OUTPUT_DOMAIN),
    ("make_is_equal", Claim.COMPATIBILITY): ("make_is_equal_absolute_output", Claim.COMPATIBILITY),
    ("make_is_equal", Claim.STABILITY): ("make_is_equal_half_map", Claim.STABILITY),
}
REFUTED_STATEMENTS = {("make_is_equal_bits", Claim.STABILITY),
                      ("make_is_equal_as_floats", Claim.OUTPUT_DOMAIN)}
MECHANISMS = statement_twin_entries(globals(), STATEMENT_TWIN_OF.values(), REFUTED_STATEMENTS)
