"""make_is_equal refactored with an identity fast path for non-floats. WRONG.

The refactor: floats keep ``x == value``; for ints, strs and bools the kernel uses ``x is value``
("these are interned/cached in CPython, ``is`` is a pointer compare").

The bug: only small ints (-5..256), ``True``/``False`` and some strings are shared objects. An
int such as ``1000`` or ``2**64`` read from a file is a new object, so ``x is value`` is false
although ``x == value``. The answer then depends on the object identity of the row, not on its
value: two inputs that are the same multiset get different outputs. With small ints, bools and
literal strings (what tests usually use) it agrees with the catalogue.

Standard statement broken: **stability**. ``make(1000)``: ``[value]`` (the argument object itself
as the row) and ``[int("1000")]`` are at symmetric distance 0, but the outputs ``[True]`` and
``[False]`` are at distance 2 > ``map(0) = 0``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from dataclasses import replace

from mechanisms.core import RowTransform
from mechanisms.make_is_equal import build_is_equal, make_is_equal
from obligations.base import Entry

CONSTRUCTOR = "make_is_equal"


def fast_is_equal(x, value):
    if type(x) is float:
        return x == value
    return x is value


def build_is_equal_fast(value):
    return replace(build_is_equal(value), function=RowTransform(fast_is_equal, {"value": value}))


make_is_equal_fast = make_is_equal.variant("make_is_equal_fast", build_is_equal_fast)
MECHANISMS = [Entry("make_is_equal_fast", make_is_equal_fast)]


def check() -> str:
    for value, rows in ((3, [3, 4, 255]), (True, [True, False]), (0.0, [-0.0, 0.0, 1.0]),
                        ("a", ["a", "b"])):
        assert make_is_equal_fast(value)(rows) == make_is_equal(value)(rows)
    value = int("1000")
    t = make_is_equal_fast(value)
    v, w = [value], [int("1000")]
    assert v[0] == w[0] and v[0] is not w[0]
    d_in = t.input_metric.distance(v, w)
    out_v, out_w = t(v), t(w)
    d_out = t.output_metric.distance(out_v, out_w)
    assert d_in == 0 and out_v == [True] and out_w == [False] and d_out == 2
    assert d_out > t.map(d_in)
    assert make_is_equal(value)(w) == [True]
    return (f"stability broken: [1000] (the value object) and [int('1000')] at d_in=0; outputs "
            f"{out_v} and {out_w} at {d_out} > map(0) = {t.map(0)}")
