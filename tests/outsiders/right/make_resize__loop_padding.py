"""Resize written as an explicit loop: sort, keep while below the size, then append the constant
until the size is reached.

Correct: the same function as the catalogue (the ``size`` least rows in the same total order,
then ``max(size - len, 0)`` copies of the constant), hence the same map ``2 d_in``.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import itertools  # noqa: E402
import math  # noqa: E402
from typing import Any, Callable  # noqa: E402

from mechanisms.domains import AtomDomain  # noqa: E402
from mechanisms.make_resize import build_resize, make_resize, resize_key  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_resize import resize_obligations  # noqa: E402

CONSTRUCTOR = "make_resize"


@dataclass(frozen=True)
class LoopResize:
    key: Callable[[Any], Any]
    size: Any
    constant: Any

    def __call__(self, data):
        out = []
        for x in sorted(data, key=self.key):
            if len(out) == self.size:
                break
            out.append(x)
        while len(out) < self.size:
            out.append(self.constant)
        return out


def build(size, constant, atom_domain):
    return replace(build_resize(size, constant, atom_domain),
                   function=LoopResize(resize_key, size, constant))


make_resize_loop = make_resize.variant("make_resize_loop", build)
MECHANISMS = [Entry("outsider_right_resize_loop_padding", make_resize_loop,
                    resize_obligations(make_resize_loop, "outsider_right_resize_loop_padding"))]


def check() -> str:
    atoms = (math.nan, -0.0, 0.0, 1.5, -2.0)
    n = 0
    for size in (1, 2, 4):
        domain = AtomDomain(float, nan=True)
        ours, theirs = make_resize_loop(size, 0.5, domain), make_resize(size, 0.5, domain)
        for k in range(5):
            for v in itertools.product(atoms, repeat=k):
                assert ours.output_metric.distance(ours(list(v)), theirs(list(v))) == 0
                n += 1
    return f"same output multisets as make_resize on {n} vectors"
