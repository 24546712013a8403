"""Partition map summing nonlinear component maps with plain float ``+`` (rounded to nearest)
instead of ``ops.add_up``.

Wrong: the float sum can fall below the exact sum the stability argument needs. Components: a
capped count with map ``min(d, 1.0)`` and a capped count scaled by ``2^-53`` (map
``min(d, 1) 2^-53``): at ``d_in = 2``, ``1.0 + 2^-53`` rounds (ties to even) to ``1.0``, while
one row added to each partition moves the outputs by exactly ``1 + 2^-53``.
Hole classes: 4 (a map computed in floats where exact is modelled).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _components import capped_float_count, tiny_capped_count  # noqa: E402
from _exact import stability_violation  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_partition_map import (build_partition_map, make_partition_map,  # noqa: E402
                                           partition_bound)
from obligations.base import Entry  # noqa: E402
from obligations.make_partition_map import partition_map_obligations  # noqa: E402

CONSTRUCTOR = "make_partition_map"
CLASSES = (4,)


def plus(a, b):
    return a + b


def build(transformations):
    t = build_partition_map(transformations)
    maps = tuple(c.stability_map for c in transformations)
    combine = t.stability_map.params["combine"]
    return replace(t, stability_map=Map(rule=partition_bound, params={
        "maps": maps, "combine": combine if all(m.is_linear for m in maps) else plus}))


make_pm_plus = make_partition_map.variant("make_partition_map_float_plus", build)
MECHANISMS = [Entry("outsider_pm_float_plus", make_pm_plus,
                    partition_map_obligations(make_pm_plus, "outsider_pm_float_plus"))]


def witness() -> str:
    t = make_pm_plus([capped_float_count(), tiny_capped_count()])
    observed, claimed = stability_violation(t, ([], []), ([1], [1]), 2)
    return f"float-summed maps: d_out = {observed} > map(2) = {claimed!r}"
