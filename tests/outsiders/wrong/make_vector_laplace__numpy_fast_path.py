"""Vector Laplace whose function object (a subclass of ``VectorNoise``) overrides ``__call__``
with a numpy fast path: the draws are collected into an array and added with
``np.asarray(arg) + noise`` ("vectorised addition"), then ``.tolist()``... forgotten: the result
is ``list(array)``.

Wrong: ``list(array)`` holds ``numpy.int64`` scalars, not Python ``int``; the declared output
domain ``VectorDomain(AtomDomain(int))`` admits exact ints only (``type(v) is int``), so every
non-empty release is outside it, and a downstream ``make_*`` on ints (or a JSON encoder) meets
values of another type, which also wrap around at ``2^63``.
Hole classes: 2 (a subclass overrides the method that runs).
"""

import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from _exact import out_of_domain  # noqa: E402
from mechanisms.make_vector_laplace import (VectorNoise, build_vector_laplace,  # noqa: E402
                                            make_vector_laplace)
from mechanisms.samplers import system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_vector_laplace"
CLASSES = (2,)


@dataclass(frozen=True)
class NumpyNoise(VectorNoise):
    def __call__(self, arg, rng=None):
        scale = Fraction(self.scale)
        if scale <= 0:
            return list(arg)
        rng = system_rng(rng)
        noise = np.array([self.sampler(scale, rng) for _ in arg], dtype=np.int64)
        return list(np.asarray(arg, dtype=np.int64) + noise)


def build(scale):
    m = build_vector_laplace(scale)
    return replace(m, function=NumpyNoise(m.function.scale, m.function.sampler))


make_vl_np = make_vector_laplace.variant("make_vector_laplace_numpy", build)
MECHANISMS = [Entry("outsider_vl_numpy_fast_path", make_vl_np)]


def witness() -> str:
    m = make_vl_np(2.0)
    out = out_of_domain(m, [5, 7])
    return f"scale 2: release on [5, 7] is {out!r}, entries of type {type(out[0]).__name__}"
