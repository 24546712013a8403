"""Wrong twins of ``make_count_by``: one refuted (with a confirmed counterexample) per obligation,
each a slip a porter of OpenDP's ``make_count_by`` could make."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms import ops
from mechanisms.core import Map
from mechanisms.make_count_by import build_count_by, make_count_by
from mechanisms.metrics import L01InfDistance, SymmetricDistance
from obligations.base import Entry
from obligations.make_count_by import count_by_obligations


def float_increment(count: Any) -> Any:
    """Wrong: ``count + 1.0`` makes the counts floats, outside ``AtomDomain(int)``."""
    return count + 1.0


def double_increment(count: Any) -> Any:
    """Wrong: every row counts twice."""
    return count + 2


def one_key_map(d_in: Any) -> Any:
    """Wrong: ``(1, d_in, d_in)``, "one record touches one key", true only for ``d_in <= 1``."""
    return 1, d_in, d_in


class SwappedL01Inf(L01InfDistance):
    """Wrong: l1 and linf swapped in the step (l1 the max, linf the sum)."""

    @staticmethod
    def step(distance: Any, a: Any, b: Any, differs: Any) -> Any:
        l0, l1, linf = distance
        change = ops.absolute(ops.exact(a) - ops.exact(b))
        return ops.where(differs, l0 + 1, l0), ops.maximum(l1, change), linf + change


class UnionL01Inf(L01InfDistance):
    """Wrong: l0 counts every key of either map, changed or not."""

    @staticmethod
    def key_differs(in_both: Any, a: Any, b: Any) -> Any:
        return True


def build_float(carrier: type):
    built = build_count_by(carrier)
    return replace(built, function=replace(built.function, increment=float_increment))


def build_double(carrier: type):
    built = build_count_by(carrier)
    return replace(built, function=replace(built.function, increment=double_increment))


def build_symmetric_output(carrier: type):
    """Wrong: symmetric distance is for vectors, not for maps."""
    return replace(build_count_by(carrier), output_metric=SymmetricDistance())


def build_swapped_metric(carrier: type):
    return replace(build_count_by(carrier), output_metric=SwappedL01Inf())


def build_union_metric(carrier: type):
    return replace(build_count_by(carrier), output_metric=UnionL01Inf())


def build_one_key_map(carrier: type):
    return replace(build_count_by(carrier), stability_map=Map(rule=one_key_map))


make_count_by_float = make_count_by.variant("make_count_by_float", build_float)
make_count_by_double = make_count_by.variant("make_count_by_double", build_double)
make_count_by_symmetric_output = make_count_by.variant("make_count_by_symmetric_output",
                                                       build_symmetric_output)
make_count_by_swapped_metric = make_count_by.variant("make_count_by_swapped_metric",
                                                     build_swapped_metric)
make_count_by_union_metric = make_count_by.variant("make_count_by_union_metric",
                                                   build_union_metric)
make_count_by_one_key_map = make_count_by.variant("make_count_by_one_key_map", build_one_key_map)

MECHANISMS = [
    Entry("make_count_by_float", make_count_by_float,
          count_by_obligations(make_count_by_float, "count_by_float")),
    Entry("make_count_by_double", make_count_by_double,
          count_by_obligations(make_count_by_double, "count_by_double")),
    Entry("make_count_by_symmetric_output", make_count_by_symmetric_output,
          count_by_obligations(make_count_by_symmetric_output, "count_by_symmetric_output")),
    Entry("make_count_by_swapped_metric", make_count_by_swapped_metric,
          count_by_obligations(make_count_by_swapped_metric, "count_by_swapped_metric")),
    Entry("make_count_by_union_metric", make_count_by_union_metric,
          count_by_obligations(make_count_by_union_metric, "count_by_union_metric")),
    Entry("make_count_by_one_key_map", make_count_by_one_key_map,
          count_by_obligations(make_count_by_one_key_map, "count_by_one_key_map")),
]

EXPECTED_REFUTATIONS = {
    "count_by_float.output_domain",
    "count_by_double.counts",
    "count_by_symmetric_output.compatibility",
    "count_by_swapped_metric.metric_facts",
    "count_by_union_metric.histogram",
    "count_by_one_key_map.stability",
}

TWIN_OF = {
    "count_by.output_domain": "count_by_float.output_domain",
    "count_by.compatibility": "count_by_symmetric_output.compatibility",
    "count_by.metric_facts": "count_by_swapped_metric.metric_facts",
    "count_by.counts": "count_by_double.counts",
    "count_by.histogram": "count_by_union_metric.histogram",
    "count_by.stability": "count_by_one_key_map.stability",
}
