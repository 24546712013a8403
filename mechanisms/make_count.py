"""``make_count(carrier)``: the number of rows of a vector, as a Python ``int``.

``VectorDomain(AtomDomain(carrier))`` (floats may be NaN) to ``AtomDomain(int)``, symmetric
distance to absolute distance, stability map ``d_in -> d_in``: adding or removing one row changes
the count by one, and ``| |v| - |w| | <= d_sym(v, w)``. The function is a fold whose step adds 1.

Difference from OpenDP: OpenDP's ``make_count`` returns a saturating ``i32`` (or ``TO``), so the
count stops at ``2^31 - 1``; here the count is an unbounded Python ``int`` and never saturates.
The maps agree (``d_in``).
"""

from __future__ import annotations

from typing import Any

from mechanisms.core import Constructor, Exactly, Fold, Map, Transformation, declares
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import CarrierError
from mechanisms.make_clamp import unit_constant
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance

COUNT_CARRIERS: tuple[type, ...] = (int, float, str, bool)
"""The row types ``make_count`` accepts."""


def count_step(count: Any, x: Any) -> Any:
    """``count + 1``: every row adds one, whatever its value (NaN included)."""
    return count + 1


def count_finalize(count: Any) -> Any:
    """The count itself."""
    return count


@declares(*({"carrier": Exactly(carrier)} for carrier in COUNT_CARRIERS))
def validate_count(carrier: Any) -> None:
    """``carrier`` is one of ``COUNT_CARRIERS``."""
    if carrier not in COUNT_CARRIERS:
        raise CarrierError(carrier, COUNT_CARRIERS)


def build_count(carrier: type) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(AtomDomain(carrier, nan=carrier is float)),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_metric=AbsoluteDistance(),
        function=Fold(count_step, count_finalize, 0),
        stability_map=Map(constant=unit_constant),
    )


make_count = Constructor("make_count", build_count, (), validate_count)
