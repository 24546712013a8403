"""Is-equal with stability map ``ceil(d_in / 2)`` (``(d_in + 1) // 2``): "under the symmetric
distance an edit counts 2 (one row out, one in), but an edit flips only one boolean".

Wrong: the output metric is the symmetric distance too, so a flipped boolean is itself one row
out and one in: replacing the row ``1.0`` by ``2.0`` (``d_in = 2``) turns ``[True]`` into
``[False]``, ``d_out = 2 > map(2) = 1``. The map is right for ``d_in <= 1`` (``map(1) = 1``), so
the usual ``t.map(1) == 1`` unit test passes.
Hole classes: 9 (nonlinear integer map), 10 (shows only with ``d_in >= 2``).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_is_equal import build_is_equal, make_is_equal  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_is_equal"
CLASSES = (9, 10)


def ceil_half(d_in):
    return ops.floor_div(d_in + 1, 2)


def build(value):
    return replace(build_is_equal(value), stability_map=Map(rule=ceil_half))


make_is_equal_half = make_is_equal.variant("make_is_equal_ceil_half_map", build)
MECHANISMS = [Entry("outsider_is_equal_ceil_half_map", make_is_equal_half)]


def witness() -> str:
    t = make_is_equal_half(1.0)
    assert t.map(1) == 1
    v, w = [1.0], [2.0]
    observed, claimed = stability_violation(t, v, w, 2)
    big = make_is_equal_half(7)
    observed_big, claimed_big = stability_violation(big, [7] * 5, [0] * 5, 10)
    return (f"map(1) = 1 but [1.0] vs [2.0] (d_in = 2) give {t(v)} vs {t(w)}, "
            f"d_out = {observed} > map(2) = {claimed}; five replaced rows: "
            f"{observed_big} > map(10) = {claimed_big}")
