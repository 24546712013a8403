"""Clamp whose function object is a ``RowTransform`` subclass with a vectorised ``__call__``.

The subclass keeps the catalogue kernel (so ``scalar`` and the kernel look right) but overrides
``__call__`` with ``numpy.clip``, which propagates NaN (``np.clip(nan, 0, 1)`` is ``nan``) and
returns numpy floats. NaN rows escape ``[lower, upper]``.
Hole classes: 2 (a subclass of a kernel class overrides the method that runs).
"""

import math
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import out_of_domain  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_clamp import build_clamp, clamp_kernel, make_clamp  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_clamp import clamp_obligations  # noqa: E402

CONSTRUCTOR = "make_clamp"
CLASSES = (2,)


@dataclass(frozen=True)
class VectorisedClamp(RowTransform):
    def __call__(self, data):
        if not data:
            return []
        return [float(x) for x in np.clip(np.asarray(data, dtype=float),
                                          self.params["lower"], self.params["upper"])]


def build(lower, upper):
    t = build_clamp(lower, upper)
    return replace(t, function=VectorisedClamp(clamp_kernel, {"lower": lower, "upper": upper}))


make_clamp_numpy = make_clamp.variant("make_clamp_numpy", build)
MECHANISMS = [Entry("outsider_clamp_numpy_fast_path", make_clamp_numpy,
                    clamp_obligations(make_clamp_numpy, "outsider_clamp_numpy_fast_path"))]


def witness() -> str:
    t = make_clamp_numpy(0.0, 1.0)
    out = out_of_domain(t, [2.0, math.nan])
    assert math.isnan(out[1])
    return f"make_clamp(0.0, 1.0)([2.0, nan]) = {out}: numpy.clip lets NaN through"
