"""Clamp with a "fast path" for concrete numbers: ``sorted((lower, x, upper))[1]``.

On solver terms (``ops.is_symbolic``) the kernel is the catalogue's; on Python numbers it takes
the median of three with ``sorted``. ``sorted`` with a NaN is order-dependent garbage: the median of
``(0.0, nan, 1.0)`` is ``nan``, so NaN leaks into the output, which must lie in ``[lower, upper]``.
The solver is shown one implementation and the program runs another.
Hole classes: 11 (branch on ``ops.is_symbolic``).
"""

import math
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import out_of_domain  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_clamp import build_clamp, clamp_kernel, make_clamp  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_clamp import clamp_obligations  # noqa: E402

CONSTRUCTOR = "make_clamp"
CLASSES = (11,)


def median_clamp(x, lower, upper):
    if ops.is_symbolic(x) or ops.is_symbolic(lower) or ops.is_symbolic(upper):
        return clamp_kernel(x, lower, upper)
    return sorted((lower, x, upper))[1]


def build(lower, upper):
    t = build_clamp(lower, upper)
    return replace(t, function=RowTransform(median_clamp, {"lower": lower, "upper": upper}))


make_clamp_median = make_clamp.variant("make_clamp_median", build)
MECHANISMS = [Entry("outsider_clamp_concrete_branch", make_clamp_median,
                    clamp_obligations(make_clamp_median, "outsider_clamp_concrete_branch"))]


def witness() -> str:
    t = make_clamp_median(0.0, 1.0)
    out = out_of_domain(t, [math.nan])
    assert math.isnan(out[0])
    return f"make_clamp(0.0, 1.0)([nan]) = {out} on the concrete branch"
