"""Resize with a map capped by the output size: ``min(2 d_in, 2 size)``.

Correct and tighter: both outputs have exactly ``size`` rows, and two multisets of ``size`` rows
are at symmetric distance at most ``2 size``; the first term is the catalogue's valid map.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import itertools  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.domains import AtomDomain  # noqa: E402
from mechanisms.make_resize import build_resize, make_resize  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_resize import resize_obligations  # noqa: E402

CONSTRUCTOR = "make_resize"
CLASSES = (8,)


def capped(d_in, size):
    return ops.minimum(2 * d_in, 2 * size)


def build(size, constant, atom_domain):
    return replace(build_resize(size, constant, atom_domain),
                   stability_map=Map(rule=capped, params={"size": size}))


make_resize_cap = make_resize.variant("make_resize_size_cap", build)
MECHANISMS = [Entry("outsider_right_resize_size_cap", make_resize_cap,
                    resize_obligations(make_resize_cap, "outsider_right_resize_size_cap"))]


def check() -> str:
    vectors = [list(v) for n in range(4) for v in itertools.product((0, 1, 2), repeat=n)]
    pairs = 0
    for size in (1, 2, 3):
        t = make_resize_cap(size, 1, AtomDomain(int))
        outs = [t(v) for v in vectors]
        for i, v in enumerate(vectors):
            for j, w in enumerate(vectors):
                d = t.input_metric.distance(v, w)
                assert t.output_metric.distance(outs[i], outs[j]) <= t.map(d)
                assert t.map(d) <= make_resize(size, 1, AtomDomain(int)).map(d)
                pairs += 1
    return f"exhaustive over {pairs} pairs of short vectors: within the capped map"
