"""Partition map that collects the component maps in a dict keyed by ``id(map)`` ("each map
evaluated once"), then sums them.

Wrong: a list holding the same component twice, ``[t, t]``, has one map object, so the sum has one
term. With ``t`` a capped count (map ``min(d, 1)``), one row added to each partition: ``d_in = 2``,
claimed 1, observed 2.
Hole classes: 3 (a combinator that deduplicates by identity).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _components import capped_count  # noqa: E402
from _exact import stability_violation  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_partition_map import (build_partition_map, make_partition_map,  # noqa: E402
                                           partition_bound, partition_combiner)
from obligations.base import Entry  # noqa: E402
from obligations.make_partition_map import partition_map_obligations  # noqa: E402

CONSTRUCTOR = "make_partition_map"
CLASSES = (3,)


def build(transformations):
    t = build_partition_map(transformations)
    unique = tuple({id(c.stability_map): c.stability_map for c in transformations}.values())
    return replace(t, stability_map=Map(rule=partition_bound, params={
        "maps": unique, "combine": partition_combiner(unique)}))


make_pm_dedupe = make_partition_map.variant("make_partition_map_dedupe", build)
MECHANISMS = [Entry("outsider_pm_dedupe_by_id", make_pm_dedupe,
                    partition_map_obligations(make_pm_dedupe, "outsider_pm_dedupe_by_id"))]


def witness() -> str:
    capped = capped_count()
    t = make_pm_dedupe([capped, capped])
    observed, claimed = stability_violation(t, ([], []), ([1], [1]), 2)
    return f"[t, t] (t a capped count): d_out = {observed} > map(2) = {claimed}"
