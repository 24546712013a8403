"""Clamp written as the textbook ``max(min(x, upper), lower)`` with no NaN case.

Wrong: Python's ``min(nan, U)`` is ``nan`` and ``max(nan, L)`` is ``nan``, so a NaN row leaves the
clamp as NaN and the output-domain promise ``[lower, upper]`` (no NaN) is broken.
Hole classes: none of the listed ones (a plain, realistic bug: the seed's own pseudocode).
"""

import math
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import out_of_domain  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_clamp import build_clamp, make_clamp  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_clamp import clamp_obligations  # noqa: E402

CONSTRUCTOR = "make_clamp"
CLASSES = ()


def textbook_clamp(x, lower, upper):
    return ops.maximum(ops.minimum(x, upper), lower)


def build(lower, upper):
    t = build_clamp(lower, upper)
    return replace(t, function=RowTransform(textbook_clamp, {"lower": lower, "upper": upper}))


make_clamp_nan_passthrough = make_clamp.variant("make_clamp_nan_passthrough", build)
MECHANISMS = [Entry("outsider_clamp_nan_passthrough", make_clamp_nan_passthrough,
                    clamp_obligations(make_clamp_nan_passthrough, "outsider_clamp_nan_passthrough"))]


def witness() -> str:
    t = make_clamp_nan_passthrough(0.0, 1.0)
    out = out_of_domain(t, [0.5, math.nan])
    assert math.isnan(out[1])
    return f"make_clamp(0.0, 1.0)([0.5, nan]) = {out}: NaN outside [0, 1]"
