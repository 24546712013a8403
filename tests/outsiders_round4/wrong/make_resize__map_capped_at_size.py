"""make_resize with its map capped at ``size``: ``d_in -> min(2 d_in, size)``. WRONG.

The refactor keeps the catalogue's function and replaces the map with
``ops.minimum(2 * d_in, size)``, on the reasoning "the output has exactly ``size`` rows, so two
outputs cannot differ by more than ``size`` rows".

The bug: symmetric distance counts rows of *both* multisets; two outputs of ``size`` rows with
nothing in common are ``2 * size`` apart. The true cap would be ``2 * size``; this map is too
small (by a factor up to 2) as soon as ``2 d_in > size``, and equal to the catalogue's below.

Standard statement broken: **stability**. ``make(size=1, constant=0.0, AtomDomain(float))``:
``[0.0]`` and ``[1.0]`` at symmetric distance 2 give ``[0.0]`` and ``[1.0]``, at distance 2 >
``map(2) = min(4, 1) = 1``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from dataclasses import replace

from mechanisms import ops
from mechanisms.core import Map
from mechanisms.domains import AtomDomain
from mechanisms.make_resize import build_resize, make_resize
from obligations.base import Entry

CONSTRUCTOR = "make_resize"


def capped_map(d_in, size):
    return ops.minimum(2 * d_in, size)


def build_resize_capped(size, constant, atom_domain):
    return replace(build_resize(size, constant, atom_domain),
                   stability_map=Map(rule=capped_map, params={"size": size}))


make_resize_capped = make_resize.variant("make_resize_capped", build_resize_capped)
MECHANISMS = [Entry("make_resize_capped", make_resize_capped)]


def check() -> str:
    t = make_resize_capped(1, 0.0, AtomDomain(float))
    ref = make_resize(1, 0.0, AtomDomain(float))
    big = make_resize_capped(100, 0, AtomDomain(int))
    assert all(big.map(d) == make_resize(100, 0, AtomDomain(int)).map(d) for d in range(51))
    v, w = [0.0], [1.0]
    d_in = t.input_metric.distance(v, w)
    out_v, out_w = t(v), t(w)
    d_out = t.output_metric.distance(out_v, out_w)
    assert d_in == 2 and out_v == [0.0] and out_w == [1.0] and d_out == 2
    assert d_out > t.map(d_in) and d_out <= ref.map(d_in)
    return (f"stability broken: {v} and {w} at d_in={d_in}; outputs at {d_out} > "
            f"map({d_in}) = {t.map(d_in)} (catalogue's {ref.map(d_in)})")
