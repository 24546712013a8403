"""``make_drop_null(carrier=float)``: remove the NaN rows of a float vector.

``VectorDomain(AtomDomain(float, nan=True))`` to ``VectorDomain(AtomDomain(float))`` (no NaN),
symmetric distance on both sides, stability map ``d_in -> d_in``. The function is a filter, not a
row transform: its output is shorter. A filter keeps every row of a multiset element ``z`` or
none, so ``h_filter(v)(z)`` is ``h_v(z)`` or ``0``, and hence
``d_sym(filter(v), filter(w)) <= d_sym(v, w)``.

As in OpenDP, the carrier is generic in name only: floats are the one carrier here whose atoms
can be null (NaN); OpenDP's other case, ``OptionDomain``, has no counterpart in dpcert.
"""

from __future__ import annotations

from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Exactly, Filter, Map, Transformation, declares
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import CarrierError
from mechanisms.make_clamp import unit_constant
from mechanisms.metrics import SymmetricDistance

NULLABLE_CARRIERS: tuple[type, ...] = (float,)
"""The row types with a null value (NaN)."""


def is_not_null(x: Any) -> Any:
    """``x`` is not NaN."""
    return ops.negate(ops.is_nan(x))


@declares(*({"carrier": Exactly(carrier)} for carrier in NULLABLE_CARRIERS))
def validate_drop_null(carrier: Any) -> None:
    """``carrier`` has a null value: it is ``float``."""
    if carrier not in NULLABLE_CARRIERS:
        raise CarrierError(carrier, NULLABLE_CARRIERS)


def build_drop_null(carrier: type = float) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(AtomDomain(carrier, nan=True)),
        output_domain=VectorDomain(AtomDomain(carrier)),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=Filter(is_not_null),
        stability_map=Map(constant=unit_constant),
    )


make_drop_null = Constructor("make_drop_null", build_drop_null, (), validate_drop_null)
