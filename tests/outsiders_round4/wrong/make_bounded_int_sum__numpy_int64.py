"""make_bounded_int_sum refactored to sum with numpy in int64. WRONG.

The refactor: ``int(np.asarray(data, dtype=np.int64).sum())`` ("vectorised; ``int(...)`` so that
the output is a Python int as the output domain requires").

The bug: numpy's int64 addition wraps around modulo 2^64 silently (no warning for array
reductions). The catalogue sums Python ints exactly. Whenever no partial sum leaves
``[-2^63, 2^63)`` the two agree, which covers every realistic test of ages and counts; with large
bounds, a single added row can flip the sum across the wrap.

Standard statement broken: **stability**. ``make(0, 2**62)``: ``[2**62]`` and ``[2**62, 2**62]``
are at symmetric distance 1; the sums are ``2**62`` and ``-2**63`` (``2**63`` wrapped), at
absolute distance ``3 * 2**62`` > ``map(1) = 2**62``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from dataclasses import replace

import numpy as np

from mechanisms.make_bounded_int_sum import build_bounded_int_sum, make_bounded_int_sum
from obligations.base import Entry

CONSTRUCTOR = "make_bounded_int_sum"


def numpy_sum(data):
    return int(np.asarray(data, dtype=np.int64).sum())


def build_bounded_int_sum_numpy(lower, upper):
    return replace(build_bounded_int_sum(lower, upper), function=numpy_sum)


make_bounded_int_sum_numpy = make_bounded_int_sum.variant("make_bounded_int_sum_numpy",
                                                          build_bounded_int_sum_numpy)
MECHANISMS = [Entry("make_bounded_int_sum_numpy", make_bounded_int_sum_numpy)]


def check() -> str:
    small, small_ref = make_bounded_int_sum_numpy(0, 120), make_bounded_int_sum(0, 120)
    for v in ([], [0], [18, 65, 120, 33] * 50):
        assert small(v) == small_ref(v) and type(small(v)) is int
    upper = 2 ** 62
    t = make_bounded_int_sum_numpy(0, upper)
    v, w = [upper], [upper, upper]
    d_in = t.input_metric.distance(v, w)
    out_v, out_w = t(v), t(w)
    assert d_in == 1 and out_v == 2 ** 62 and out_w == -(2 ** 63)
    d_out = t.output_metric.distance(out_v, out_w)
    assert d_out == 3 * 2 ** 62 and d_out > t.map(d_in)
    assert make_bounded_int_sum(0, upper)(w) == 2 ** 63
    return (f"stability broken: [2**62] and [2**62, 2**62] at d_in=1; outputs {out_v} and "
            f"{out_w} at {d_out} > map(1) = {t.map(1)}")
