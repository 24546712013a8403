"""make_cast_default refactored without the ``+ 0.0`` of the float-to-string cast. WRONG.

The refactor rewrites the cast kernels as a table of plain functions and, in the ``(float,
str)`` entry, calls ``format_value(x)`` directly: the catalogue's ``format_value(x + 0.0)`` looked
like a no-op. Every other cast keeps the catalogue's kernel.

The bug: ``x + 0.0`` is not a no-op on ``-0.0``: it turns it into ``0.0``. Without it,
``str(-0.0)`` is ``"-0.0"`` and ``str(0.0)`` is ``"0.0"``: the two rows, one multiset element
(equal numbers) under the input's symmetric distance, become two different strings. All other
floats (NaN, inf, subnormals) and all other casts print as in the catalogue.

Standard statement broken: **stability**. ``make(float, str)``: ``[0.0]`` and ``[-0.0]`` are at
symmetric distance 0, the outputs ``["0.0"]`` and ``["-0.0"]`` at distance 2 > ``map(0) = 0``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import math
from dataclasses import replace

from mechanisms.core import RowTransform
from mechanisms.make_cast_default import (CAST_KERNELS, CAST_TYPES, build_cast_default,
                                          format_value, make_cast_default)
from obligations.base import Entry

CONSTRUCTOR = "make_cast_default"


def float_to_str_direct(x):
    return format_value(x)


KERNELS = {**CAST_KERNELS, (float, str): float_to_str_direct}


def build_cast_direct(from_type, to_type):
    return replace(build_cast_default(from_type, to_type),
                   function=RowTransform(KERNELS[(from_type, to_type)]))


make_cast_direct = make_cast_default.variant("make_cast_direct", build_cast_direct)
MECHANISMS = [Entry("make_cast_direct", make_cast_direct)]


def check() -> str:
    rows = [0.0, 1.5, -2.0, math.nan, math.inf, -math.inf, 5e-324, 1e16]
    assert make_cast_direct(float, str)(rows) == make_cast_default(float, str)(rows)
    for a in CAST_TYPES:
        for b in CAST_TYPES:
            if (a, b) != (float, str):
                v = {str: ["", "3", "x"], int: [0, 7, -1], float: [0.0, -0.0, 2.5],
                     bool: [True, False]}[a]
                assert make_cast_direct(a, b)(v) == make_cast_default(a, b)(v)
    t = make_cast_direct(float, str)
    v, w = [0.0], [-0.0]
    d_in = t.input_metric.distance(v, w)
    out_v, out_w = t(v), t(w)
    d_out = t.output_metric.distance(out_v, out_w)
    assert d_in == 0 and out_v == ["0.0"] and out_w == ["-0.0"] and d_out == 2
    assert d_out > t.map(d_in)
    assert make_cast_default(float, str)(w) == ["0.0"]
    return (f"stability broken: [0.0] and [-0.0] at d_in=0; outputs {out_v} and {out_w} at "
            f"{d_out} > map(0) = {t.map(0)}")
