"""Partition map that always sums the component maps (rounded up), even when all are linear.

Correct (a larger map): under the product metric ``sum_i d_i <= d_in``, so each partition's output
moves by at most ``map_i(d_i) <= map_i(d_in)`` and the total by at most ``sum_i map_i(d_in)``
(monotone maps); ``add_up`` never falls below the exact sum. It is never below the catalogue's
``max`` for non-negative maps.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


from _components import capped_count  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_clamp import make_clamp  # noqa: E402
from mechanisms.make_count import make_count  # noqa: E402
from mechanisms.make_partition_map import (build_partition_map, make_partition_map,  # noqa: E402
                                           partition_bound)
from mechanisms.make_resize import make_resize  # noqa: E402
from mechanisms.domains import AtomDomain  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_partition_map import partition_map_obligations  # noqa: E402

CONSTRUCTOR = "make_partition_map"


def build(transformations):
    return replace(build_partition_map(transformations), stability_map=Map(rule=partition_bound, params={
        "maps": tuple(t.stability_map for t in transformations), "combine": ops.add_up}))


make_pm_sum = make_partition_map.variant("make_partition_map_always_sum", build)
MECHANISMS = [Entry("outsider_right_pm_always_sum", make_pm_sum,
                    partition_map_obligations(make_pm_sum, "outsider_right_pm_always_sum"))]


def check() -> str:
    lists = [[make_clamp(0.0, 1.0), make_count(int)], [make_resize(2, 0, AtomDomain(int))] * 3,
             [capped_count(), capped_count()], [make_count(float)]]
    n = 0
    for ts in lists:
        for d in range(5):
            assert make_pm_sum(ts).map(d) >= make_partition_map(ts).map(d)
            n += 1
    return f"map >= make_partition_map's on {n} cases"
