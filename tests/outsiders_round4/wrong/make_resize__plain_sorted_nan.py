"""make_resize refactored with plain ``sorted(data)`` instead of the NaN-aware key. WRONG.

The refactor: ``sorted(data)[:size] + [constant] * max(size - len(data), 0)``; "floats sort fine,
the key function is noise".

The bug: ``<`` is not an order when a NaN is present (every comparison with NaN is false), so
``sorted`` leaves a NaN wherever the merge happens to put it and the result depends on the order
of the rows. The catalogue's key ``(is_nan(x), x)`` sends every NaN last. On NaN-free input the
two agree row for row (``-0.0``/``0.0`` ties are stable in both).

Standard statement broken: **stability**. ``make(size=1, constant=0.0, AtomDomain(float,
nan=True))``: ``[nan, 0.0]`` and ``[0.0, nan]`` are at symmetric distance 0 (NaN rows are one
multiset element) but give ``[nan]`` and ``[0.0]``, at distance 2 > ``map(0) = 0``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import math
from dataclasses import dataclass, replace

from mechanisms.domains import AtomDomain
from mechanisms.make_resize import build_resize, make_resize
from obligations.base import Entry

CONSTRUCTOR = "make_resize"


@dataclass(frozen=True)
class PlainSortResize:
    size: int
    constant: object

    def __call__(self, data):
        return sorted(data)[:self.size] + [self.constant] * max(self.size - len(data), 0)


def build_resize_plain_sort(size, constant, atom_domain):
    return replace(build_resize(size, constant, atom_domain),
                   function=PlainSortResize(size, constant))


make_resize_plain_sort = make_resize.variant("make_resize_plain_sort", build_resize_plain_sort)
MECHANISMS = [Entry("make_resize_plain_sort", make_resize_plain_sort)]


def check() -> str:
    domain = AtomDomain(float, nan=True)
    t, ref = make_resize_plain_sort(1, 0.0, domain), make_resize(1, 0.0, domain)
    for v in ([], [3.0, -1.0], [0.0, -0.0], [math.inf, -math.inf, 2.0]):
        assert t(v) == ref(v)
    v, w = [float("nan"), 0.0], [0.0, float("nan")]
    d_in = t.input_metric.distance(v, w)
    out_v, out_w = t(v), t(w)
    assert d_in == 0 and math.isnan(out_v[0]) and out_w == [0.0]
    assert ref(v) == ref(w) == [0.0]
    d_out = t.output_metric.distance(out_v, out_w)
    assert d_out == 2 and d_out > t.map(d_in)
    return (f"stability broken: [nan, 0.0] and [0.0, nan] at d_in=0; outputs {out_v} and "
            f"{out_w} at {d_out} > map(0) = {t.map(0)}")
