"""Small, exactly analysable transformations used to replay counterexamples of combinators.

A combinator's obligation is proved for abstract components; when it is refuted, these real
components show the violation on real data: each counts the records of its partition, so a pair
``([], [0] * d)`` is at symmetric distance ``d`` and moves the output by exactly ``map(d)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from mechanisms import ops
from mechanisms.core import Map, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance


def capped_rule(d_in: Any, cap: Any) -> Any:
    """``min(d_in, cap)``: a sound map for a count capped at ``cap``, and not linear."""
    return ops.minimum(d_in, cap)


def scale_constant(scale: Any) -> Any:
    """``d_in * scale``: the map of a count scaled by ``scale``."""
    return scale


@dataclass(frozen=True)
class ScaledCappedCount:
    """``v -> min(scale * len(v), cap)``."""

    scale: int
    cap: int | None

    def __call__(self, data: Sequence[Any]) -> int:
        count = self.scale * len(data)
        return count if self.cap is None else min(count, self.cap)


def _count(function: ScaledCappedCount, stability_map: Map) -> Transformation:
    return Transformation(VectorDomain(AtomDomain(int)), AtomDomain(int), SymmetricDistance(),
                          AbsoluteDistance(), function, stability_map)


def make_count_capped(cap: int) -> Transformation:
    """Count the records, capped at ``cap``: map ``min(d_in, cap)``."""
    return _count(ScaledCappedCount(1, cap), Map(rule=capped_rule, params={"cap": cap}))


def make_count_scaled(scale: int) -> Transformation:
    """Count the records, times ``scale``: linear map ``d_in * scale``."""
    return _count(ScaledCappedCount(scale, None), Map(constant=scale_constant, params={"scale": scale}))
