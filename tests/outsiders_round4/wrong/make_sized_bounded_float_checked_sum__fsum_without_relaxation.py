"""make_sized_bounded_float_checked_sum refactored to ``math.fsum`` with the error term dropped. WRONG.

The refactor: the function becomes ``math.fsum`` ("correctly rounded, so there is no
accumulated error") and the map becomes the real-number map alone,
``float_up(floor(d_in / 2) * (U - L))``, without the ``2 * error(n)`` relaxation.

The bug: ``fsum`` rounds the exact sum once, to nearest, and the two neighbours' sums can be
rounded in opposite directions: their difference can exceed the exact difference by up to one
ulp of the sum. The relaxation was there for exactly that (for any summation, rounding of the
two outputs is what it pays for). Whenever the sums are exactly representable (small integers,
dyadic data well inside the precision) it never shows.

Standard statement broken: **stability**. ``make(3, 1.0, 1.0 + 2**-52)``: ``[1 + e, 1 + e, 1.0]``
and ``[1 + e, 1 + e, 1 + e]`` (``e = 2**-52``) are at symmetric distance 2 (one substitution);
their exact sums ``3 + 2e`` and ``3 + 3e`` round to ``3 + 2e`` and ``3 + 4e`` (ties to even),
which are ``2e`` apart > ``map(2) = (U - L) = e``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import math
from dataclasses import replace
from fractions import Fraction

from mechanisms import ops
from mechanisms.arith import float_up
from mechanisms.core import Map
from mechanisms.make_sized_bounded_float_checked_sum import (
    build_sized_bounded_float_checked_sum, make_sized_bounded_float_checked_sum)
from obligations.base import Entry

CONSTRUCTOR = "make_sized_bounded_float_checked_sum"


def exact_sum_map(d_in, lower, upper):
    return float_up(ops.floor_div(ops.exact(d_in), 2) * (ops.exact(upper) - ops.exact(lower)))


def build_sum_fsum(size, lower, upper, summation="pairwise"):
    return replace(build_sized_bounded_float_checked_sum(size, lower, upper, summation),
                   function=math.fsum,
                   stability_map=Map(rule=exact_sum_map, params={"lower": lower, "upper": upper}))


make_sum_fsum = make_sized_bounded_float_checked_sum.variant("make_sum_fsum", build_sum_fsum)
MECHANISMS = [Entry("make_sum_fsum", make_sum_fsum)]


def check() -> str:
    # dyadic data: the sums are exact and agree with the catalogue
    t0 = make_sum_fsum(4, 0.0, 8.0)
    for v in ([0.0, 8.0, 0.5, 1.25], [8.0] * 4):
        assert t0(v) == make_sized_bounded_float_checked_sum(4, 0.0, 8.0)(v)
    e = 2.0 ** -52
    lower, upper = 1.0, 1.0 + e
    t = make_sum_fsum(3, lower, upper)
    v, w = [upper, upper, lower], [upper, upper, upper]
    d_in = t.input_metric.distance(v, w)
    out_v, out_w = t(v), t(w)
    assert d_in == 2
    assert Fraction(out_v) == 3 + 2 * Fraction(e) and Fraction(out_w) == 3 + 4 * Fraction(e)
    d_out = t.output_metric.distance(out_v, out_w)
    assert d_out == 2 * Fraction(e) and d_out > t.map(d_in) == e
    assert d_out <= make_sized_bounded_float_checked_sum(3, lower, upper).map(d_in)
    return (f"stability broken: make(3, 1.0, 1+2**-52): one substitution (d_in=2); fsum outputs "
            f"{out_v!r} and {out_w!r} at 2**-51 > map(2) = 2**-52")
