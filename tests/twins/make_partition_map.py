"""Wrong twins of ``make_partition_map`` beyond the seed's (tests/wrong_variants.py): a map over
the distinct components (keyed by ``id``: refuted on a list holding one component twice), and,
outside the proof, an overriding subclass of the partition function."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from mechanisms.core import Map
from mechanisms.make_partition_map import (PartitionFunction, build_partition_map,
                                           make_partition_map, partition_bound, partition_combiner)
from obligations.base import Entry
from obligations.make_partition_map import partition_map_obligations


def build_partition_by_identity(transformations):
    """Wrong: the maps of the distinct components (keyed by ``id``), as if a component used on two
    partitions were used once."""
    distinct = tuple({id(t): t.stability_map for t in transformations}.values())
    return replace(build_partition_map(transformations), stability_map=Map(
        rule=partition_bound, params={"maps": distinct, "combine": partition_combiner(distinct)}))


@dataclass(frozen=True)
class OverriddenPartition(PartitionFunction):
    """Outside the proof: overrides ``__call__`` (here harmlessly; the checker cannot tell)."""

    def __call__(self, data: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(f(part) for f, part in zip(self.functions, data, strict=True))


def build_partition_overridden(transformations):
    return replace(build_partition_map(transformations), function=OverriddenPartition(
        tuple(t.function for t in transformations)))


make_partition_by_identity = make_partition_map.variant("make_partition_by_identity",
                                                        build_partition_by_identity)
make_partition_overridden = make_partition_map.variant("make_partition_overridden",
                                                       build_partition_overridden)

MECHANISMS = [Entry("make_partition_by_identity", make_partition_by_identity,
                    partition_map_obligations(make_partition_by_identity, "partition_by_identity"))]
EXPECTED_REFUTATIONS = {"partition_by_identity.stability"}
TWIN_OF: dict[str, str] = {}
"""The catalogue's partition-map obligations have their twins in tests/wrong_variants.py."""
UNSUPPORTED = [Entry("make_partition_overridden", make_partition_overridden,
                     partition_map_obligations(make_partition_overridden, "partition_overridden"))]
