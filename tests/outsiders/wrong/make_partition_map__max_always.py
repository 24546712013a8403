"""Partition map that always combines the component maps with ``max`` (the seed's "all but one
partition distance is zero").

Wrong for nonlinear components: under the product metric a ``d_in``-close pair may change several
partitions. Two capped counts (map ``min(d, 1)``), one row added to each: ``d_in = 2``, claimed
``max(1, 1) = 1``, observed 2.
Hole classes: 10 (shows only with nonlinear components and ``d_in >= 2``).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _components import capped_count  # noqa: E402
from _exact import stability_violation  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_partition_map import (build_partition_map, make_partition_map,  # noqa: E402
                                           partition_bound)
from obligations.base import Entry  # noqa: E402
from obligations.make_partition_map import partition_map_obligations  # noqa: E402

CONSTRUCTOR = "make_partition_map"
CLASSES = (10,)


def build(transformations):
    t = build_partition_map(transformations)
    maps = tuple(c.stability_map for c in transformations)
    return replace(t, stability_map=Map(rule=partition_bound,
                                        params={"maps": maps, "combine": ops.maximum}))


make_pm_max = make_partition_map.variant("make_partition_map_max", build)
MECHANISMS = [Entry("outsider_pm_max_always", make_pm_max,
                    partition_map_obligations(make_pm_max, "outsider_pm_max_always"))]


def witness() -> str:
    t = make_pm_max([capped_count(), capped_count()])
    observed, claimed = stability_violation(t, ([], []), ([1], [1]), 2)
    return f"two capped counts, one row each: d_out = {observed} > map(2) = {claimed}"
