"""make_clamp refactored as a RowTransform subclass whose ``__call__`` is an if/elif loop.

The function is a subclass of ``RowTransform`` (keeping the catalogue's kernel and parameters,
so ``scalar`` still works) whose replaced ``__call__`` clamps with explicit comparisons:
``x != x`` (NaN) -> lower; ``upper < x`` -> upper; ``x < lower`` -> lower; else ``x`` itself.

Why it is correct: the catalogue computes ``m = upper if upper < x else x`` then
``lower if m < lower else m`` (with NaN sent to lower first). If ``upper < x`` the catalogue gives
``upper`` (``upper < lower`` is false since ``lower <= upper``); otherwise ``m = x`` and both give
``lower`` exactly when ``x < lower`` and ``x`` (the same object, so ``-0.0`` stays ``-0.0``)
otherwise. Comparisons with ``-0.0`` are IEEE (``-0.0 < 0.0`` is false) in both; ``+-inf`` are
ordinary comparands. So the output equals the catalogue's bit for bit, on int and float rows.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import itertools
import math
import struct
from dataclasses import replace

from mechanisms.core import RowTransform
from mechanisms.make_clamp import build_clamp, clamp_kernel, make_clamp
from obligations.base import Entry

CONSTRUCTOR = "make_clamp"


class LoopClamp(RowTransform):
    """``RowTransform(clamp_kernel, params)`` with a hand-written loop as its ``__call__``."""

    def __call__(self, data):
        lower, upper = self.params["lower"], self.params["upper"]
        out = []
        for x in data:
            if x != x:
                out.append(lower)
            elif upper < x:
                out.append(upper)
            elif x < lower:
                out.append(lower)
            else:
                out.append(x)
        return out


def build_clamp_loop(lower, upper):
    built = build_clamp(lower, upper)
    return replace(built, function=LoopClamp(clamp_kernel, {"lower": lower, "upper": upper}))


make_clamp_loop = make_clamp.variant("make_clamp_loop", build_clamp_loop)
MECHANISMS = [Entry("make_clamp_loop", make_clamp_loop)]


def _key(x):
    return ("f", struct.pack("<d", x)) if type(x) is float else (type(x).__name__, x)


FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, 5e-324, -5e-324, 1.7976931348623157e308, math.inf,
          -math.inf, math.nan, -math.nan]
INTS = [0, 1, -1, 2, 2 ** 63, -(2 ** 63) - 1, 10 ** 400, -(10 ** 400)]


def check() -> str:
    compared = 0
    for values in (FLOATS, INTS):
        finite = [x for x in values if not (type(x) is float and math.isnan(x))]
        bounds = [(a, b) for a in finite for b in finite if a <= b]
        rows = values
        vectors = [list(p) for n in range(3) for p in itertools.product(rows, repeat=n)]
        for lower, upper in bounds:
            new, ref = make_clamp_loop(lower, upper), make_clamp(lower, upper)
            assert (new.input_domain, new.output_domain, new.input_metric, new.output_metric) == \
                (ref.input_domain, ref.output_domain, ref.input_metric, ref.output_metric)
            for v in vectors:
                a, b = new(v), ref(v)
                assert type(a) is list and [_key(x) for x in a] == [_key(x) for x in b], \
                    (lower, upper, v, a, b)
                compared += 1
            for d in range(0, 20):
                assert new.map(d) == ref.map(d)
    return f"bit-for-bit equal to make_clamp on {compared} (bounds, vector) pairs, equal maps"
