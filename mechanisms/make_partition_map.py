"""``make_partition_map(transformations)``: apply ``t_i`` to partition ``i`` of partitioned data.

Input metric: the product metric, ``d_in >= sum_i d_i(v_i, w_i)``, so a ``d_in``-close pair may
differ in several partitions at once. The seed claims the map ``max_i t_i.map(d_in)`` because "all
but one partition distance is zero", which holds only when one record changes. Here:

* if every component map is linear (``c_i``-stable), the map is ``max_i t_i.map(d_in)``:
  ``sum_i c_i d_i <= (max_i c_i) sum_i d_i <= max_i c_i d_in``, and each ``t_i.map(d_in)`` is
  ``d_in * c_i`` rounded up (``core.linear_value``), never below ``c_i d_in``;
* otherwise the map is ``sum_i t_i.map(d_in)``, sound for any components, because each
  ``d_i <= d_in``; float sums are rounded up. (The max is unsound for, say,
  ``t.map(d) = min(d, 1)`` on two partitions.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from mechanisms import ops
from mechanisms.core import Constructor, Map, Transformation
from mechanisms.domains import ProductDomain
from mechanisms.errors import CombinatorError
from mechanisms.metrics import ProductMetric


def partition_combiner(maps: Sequence[Map]) -> Callable[[Any, Any], Any]:
    """``max`` when every component map is linear, else ``+`` rounded up (float sums of maps must
    not fall below the exact sum)."""
    return ops.maximum if all(m.is_linear for m in maps) else ops.add_up


def partition_bound(d_in: Any, maps: Sequence[Map], combine: Callable[[Any, Any], Any]) -> Any:
    """``combine(...combine(m_1(d_in), m_2(d_in))..., m_k(d_in))``."""
    return ops.fold(combine, [m(d_in) for m in maps])


@dataclass(frozen=True)
class PartitionFunction:
    """``(v_1, ..., v_k) -> (f_1(v_1), ..., f_k(v_k))``."""

    functions: tuple[Callable[[Any], Any], ...]

    def __call__(self, data: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(f(part) for f, part in zip(self.functions, data, strict=True))


def validate_components(transformations: Sequence[Transformation]) -> None:
    if not isinstance(transformations, (list, tuple)) or not transformations:
        raise CombinatorError("make_partition_map needs a non-empty list of transformations",
                              transformations=transformations)
    for position, t in enumerate(transformations):
        if not isinstance(t, Transformation):
            raise CombinatorError(f"component {position} is {t!r}, not a Transformation",
                                  position=position)


def build_partition_map(transformations: Sequence[Transformation]) -> Transformation:
    maps = tuple(t.stability_map for t in transformations)
    return Transformation(
        input_domain=ProductDomain(tuple(t.input_domain for t in transformations)),
        output_domain=ProductDomain(tuple(t.output_domain for t in transformations)),
        input_metric=ProductMetric(tuple(t.input_metric for t in transformations)),
        output_metric=ProductMetric(tuple(t.output_metric for t in transformations)),
        function=PartitionFunction(tuple(t.function for t in transformations)),
        stability_map=Map(rule=partition_bound,
                          params={"maps": maps, "combine": partition_combiner(maps)}),
    )


make_partition_map = Constructor("make_partition_map", build_partition_map, (),
                                 validate_components)
