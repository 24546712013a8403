"""Clamp written as ``min(max(x, lower), upper)`` (the other nesting), NaN sent to ``lower``.

Correct: for ``lower <= upper`` both nestings give the same value for every non-NaN ``x``
(``x < L``: ``L``; ``x > U``: ``U``; otherwise ``x``; with Python's ``min``/``max`` keeping the first
argument on ties, ``-0.0``/``0.0`` ties give a zero of either sign, one multiset element). NaN is
tested first, as in the catalogue, so the kernel is a function of the multiset element into
``[L, U]`` and the map ``d_in`` holds by the row-transform argument.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_clamp import build_clamp, make_clamp  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_clamp import clamp_obligations  # noqa: E402

CONSTRUCTOR = "make_clamp"


def min_of_max(x, lower, upper):
    return ops.where(ops.is_nan(x), lower, ops.minimum(ops.maximum(x, lower), upper))


def build(lower, upper):
    return replace(build_clamp(lower, upper),
                   function=RowTransform(min_of_max, {"lower": lower, "upper": upper}))


make_clamp_mm = make_clamp.variant("make_clamp_min_of_max", build)
MECHANISMS = [Entry("outsider_right_clamp_min_of_max", make_clamp_mm,
                    clamp_obligations(make_clamp_mm, "outsider_right_clamp_min_of_max"))]


def check() -> str:
    values = [math.nan, -math.inf, math.inf, -0.0, 0.0, -1.5, -1.0, 0.5, 1.0, 2.0, 5e-324, 1e308]
    bounds = [(-1.0, 1.0), (0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (-math.inf, math.inf), (2.0, 2.0),
              (-1.0, -0.0)]
    n = 0
    for lower, upper in bounds:
        ours, theirs = make_clamp_mm(lower, upper), make_clamp(lower, upper)
        a, b = ours(values), theirs(values)
        assert ours.output_metric.distance(a, b) == 0 and ours.output_domain.member(a), (a, b)
        n += 1
    return f"same output multiset as make_clamp on {len(values)} values x {n} bound pairs"
