"""make_resize refactored to keep the first ``size`` rows (``data[:size]``) instead of sorting. WRONG.

The refactor: "the sort is O(n log n) and only there to pick *some* rows: take the head", i.e.
``list(data[:size]) + [constant] * max(size - len(data), 0)``.

The bug: the kept rows now depend on the order of the rows, not only on the multiset. Vectors
that are permutations of each other are at symmetric distance 0 but can give different outputs.
It equals the catalogue whenever the input is already sorted (NaN last) or not longer than
``size``.

Standard statement broken: **stability**. ``make(size=1, constant=0.0, AtomDomain(float))``:
``[2.0, 1.0]`` and ``[1.0, 2.0]`` are at distance 0, their outputs ``[2.0]`` and ``[1.0]`` at
distance 2 > ``map(0) = 0``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from dataclasses import dataclass, replace

from mechanisms.domains import AtomDomain
from mechanisms.make_resize import build_resize, make_resize
from obligations.base import Entry

CONSTRUCTOR = "make_resize"


@dataclass(frozen=True)
class HeadResize:
    size: int
    constant: object

    def __call__(self, data):
        return list(data[:self.size]) + [self.constant] * max(self.size - len(data), 0)


def build_resize_head(size, constant, atom_domain):
    return replace(build_resize(size, constant, atom_domain), function=HeadResize(size, constant))


make_resize_head = make_resize.variant("make_resize_head", build_resize_head)
MECHANISMS = [Entry("make_resize_head", make_resize_head)]


def check() -> str:
    t = make_resize_head(1, 0.0, AtomDomain(float))
    ref = make_resize(1, 0.0, AtomDomain(float))
    for v in ([], [3.0], [1.0, 2.0], [-1.0, 0.0, 5.0]):
        assert t(v) == ref(v)
    v, w = [2.0, 1.0], [1.0, 2.0]
    d_in = t.input_metric.distance(v, w)
    out_v, out_w = t(v), t(w)
    d_out = t.output_metric.distance(out_v, out_w)
    assert d_in == 0 and out_v == [2.0] and out_w == [1.0] and d_out == 2
    assert d_out > t.map(d_in)
    return (f"stability broken: {v} and {w} at d_in=0; outputs {out_v} and {out_w} at "
            f"{d_out} > map(0) = {t.map(0)}")
