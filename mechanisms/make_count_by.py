"""``make_count_by(carrier)``: the histogram of a vector, ``key -> number of rows equal to key``.

``VectorDomain(AtomDomain(carrier))`` to ``MapDomain(AtomDomain(carrier), AtomDomain(int))``,
symmetric distance to :class:`mechanisms.metrics.L01InfDistance` (absolute per-key distance).
``function(v) = {z: h_v(z) for every z with h_v(z) >= 1}``, ``h_v(z)`` the number of rows of
``v`` equal to ``z``: a :class:`CountBy` that starts every key at ``start = 0`` and adds
``increment(count) = count + 1`` per row.

Stability map ``d_in -> (d_in, d_in, d_in)``: with
``d_sym(v, w) = sum_z |h_v(z) - h_w(z)| <= d_in``,
at most ``d_in`` keys change (each changed key adds at least 1 to the sum), their changes add up
to at most ``d_in``, and no key changes by more than ``d_in``. Exact integers, no rounding.

Differences from OpenDP 0.16 (``dp.t.make_count_by(vector_domain(atom_domain(T=TK)),
symmetric_distance())``, output metric ``L01InfDistance<AbsoluteDistance<TV>>``): its counts are
saturating ``TV`` integers (``i32`` by default), ours unbounded Python ints; keys of type int,
str or bool (OpenDP's hashable types; floats are refused, as OpenDP refuses them). The maps agree
(``(d_in, d_in, d_in)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from mechanisms.core import Constructor, Map, Transformation
from mechanisms.domains import AtomDomain, MapDomain, VectorDomain
from mechanisms.errors import CarrierError
from mechanisms.metrics import AbsoluteDistance, L01InfDistance, SymmetricDistance

COUNT_BY_CARRIERS: tuple[type, ...] = (int, str, bool)
"""The key types ``make_count_by`` accepts (hashable, with equality as the multiset identity)."""


def count_by_increment(count: Any) -> Any:
    """``count + 1``: one more row with this key."""
    return count + 1


@dataclass(frozen=True)
class CountBy:
    """``v -> counts``: every row ``x`` sets ``counts[x] = increment(counts.get(x, start))``."""

    increment: Callable[[Any], Any]
    start: Any

    def __call__(self, data: Sequence[Any]) -> dict[Any, Any]:
        counts: dict[Any, Any] = {}
        for x in data:
            counts[x] = self.increment(counts.get(x, self.start))
        return counts


def count_by_map(d_in: Any) -> tuple[Any, Any, Any]:
    """``(d_in, d_in, d_in)``: at most ``d_in`` keys change, by at most ``d_in`` in total."""
    return d_in, d_in, d_in


def validate_count_by(carrier: Any) -> None:
    """``carrier`` is one of ``COUNT_BY_CARRIERS``."""
    if carrier not in COUNT_BY_CARRIERS:
        raise CarrierError(carrier, COUNT_BY_CARRIERS)


def build_count_by(carrier: type) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(AtomDomain(carrier)),
        output_domain=MapDomain(AtomDomain(carrier), AtomDomain(int)),
        input_metric=SymmetricDistance(),
        output_metric=L01InfDistance(AbsoluteDistance()),
        function=CountBy(count_by_increment, 0),
        stability_map=Map(rule=count_by_map),
    )


make_count_by = Constructor("make_count_by", build_count_by, (), validate_count_by)
