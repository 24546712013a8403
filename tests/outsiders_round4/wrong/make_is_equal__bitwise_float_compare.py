"""make_is_equal refactored to compare floats by their bit patterns. WRONG.

The refactor: "IEEE ``==`` has surprises; compare the exact bits instead", i.e. for float values
the kernel is ``struct.pack("<d", x) == struct.pack("<d", value)`` (other types keep ``==``).

The bug: ``-0.0`` and ``0.0`` have different bits but are equal numbers and one multiset element
under the symmetric distance (``SymmetricDistance`` identifies rows by ``==``, every NaN alike).
Rows of one multiset element must get one answer; here ``0.0`` and ``-0.0`` get two. (A NaN
value, whose bits a NaN row could match, is refused by the preconditions.) On every other float
the bits agree exactly when ``==`` does, so it equals the catalogue away from signed zeros.

Standard statement broken: **stability**. ``make(0.0)``: ``[0.0]`` and ``[-0.0]`` are at
symmetric distance 0, but give ``[True]`` and ``[False]``, at distance 2 > ``map(0) = 0``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import math
import struct
from dataclasses import replace

from mechanisms.core import RowTransform
from mechanisms.make_is_equal import build_is_equal, make_is_equal
from obligations.base import Entry

CONSTRUCTOR = "make_is_equal"


def bitwise_is_equal(x, value):
    if type(x) is float:
        return struct.pack("<d", x) == struct.pack("<d", value)
    return x == value


def build_is_equal_bits(value):
    return replace(build_is_equal(value),
                   function=RowTransform(bitwise_is_equal, {"value": value}))


make_is_equal_bits = make_is_equal.variant("make_is_equal_bits", build_is_equal_bits)
MECHANISMS = [Entry("make_is_equal_bits", make_is_equal_bits)]


def check() -> str:
    rows = [1.0, 2.5, math.inf, -math.inf, math.nan, 5e-324]
    for value in (1.0, math.inf, -math.inf, 5e-324, 2.5):
        assert make_is_equal_bits(value)(rows) == make_is_equal(value)(rows)
    assert make_is_equal_bits(7)([7, 8, 10 ** 400]) == make_is_equal(7)([7, 8, 10 ** 400])
    t = make_is_equal_bits(0.0)
    v, w = [0.0], [-0.0]
    d_in = t.input_metric.distance(v, w)
    out_v, out_w = t(v), t(w)
    d_out = t.output_metric.distance(out_v, out_w)
    assert d_in == 0 and out_v == [True] and out_w == [False] and d_out == 2
    assert d_out > t.map(d_in)
    assert make_is_equal(0.0)(v) == make_is_equal(0.0)(w) == [True]
    return (f"stability broken: [0.0] and [-0.0] at d_in=0; outputs {out_v} and {out_w} at "
            f"{d_out} > map(0) = {t.map(0)}")
