"""make_bounded_int_sum with its map written as ``d_in * max(lower, upper)``. WRONG.

The refactor replaces ``int_sum_constant`` (``max(|lower|, |upper|)``) by a shorter rule,
``d_in * ops.maximum(lower, upper)``, i.e. ``d_in * upper``, reasoning "the largest row is
``upper``".

The bug: one row moves the sum by its absolute value, which for a negative row can exceed
``upper``. The map is right whenever ``|lower| <= |upper|`` (every non-negative range, and the
symmetric ones), and too small when the range reaches further below zero than above.

Standard statement broken: **stability**. ``make(-10, 5)``: ``[]`` and ``[-10]`` at symmetric
distance 1 have sums ``0`` and ``-10``, at distance 10 > ``map(1) = 5``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from dataclasses import replace

from mechanisms import ops
from mechanisms.core import Map
from mechanisms.make_bounded_int_sum import build_bounded_int_sum, make_bounded_int_sum
from obligations.base import Entry

CONSTRUCTOR = "make_bounded_int_sum"


def top_map(d_in, lower, upper):
    return d_in * ops.maximum(lower, upper)


def build_bounded_int_sum_top(lower, upper):
    return replace(build_bounded_int_sum(lower, upper),
                   stability_map=Map(rule=top_map, params={"lower": lower, "upper": upper}))


make_bounded_int_sum_top = make_bounded_int_sum.variant("make_bounded_int_sum_top",
                                                        build_bounded_int_sum_top)
MECHANISMS = [Entry("make_bounded_int_sum_top", make_bounded_int_sum_top)]


def check() -> str:
    for lower, upper in ((0, 10), (-3, 3), (-2, 7), (0, 0)):
        t, ref = make_bounded_int_sum_top(lower, upper), make_bounded_int_sum(lower, upper)
        assert all(t.map(d) == ref.map(d) for d in range(50))
    t = make_bounded_int_sum_top(-10, 5)
    v, w = [], [-10]
    d_in = t.input_metric.distance(v, w)
    out_v, out_w = t(v), t(w)
    d_out = t.output_metric.distance(out_v, out_w)
    assert d_in == 1 and d_out == 10 and d_out > t.map(d_in)
    assert d_out <= make_bounded_int_sum(-10, 5).map(d_in)
    return (f"stability broken: [] and [-10] at d_in=1 under (-10, 5); outputs {out_v} and "
            f"{out_w} at {d_out} > map(1) = {t.map(1)}")
