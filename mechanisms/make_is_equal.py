"""``make_is_equal(value)``: map every row ``x`` of a vector to the boolean ``x == value``.

``VectorDomain(AtomDomain(T))`` to ``VectorDomain(AtomDomain(bool))``, where ``T`` is the type of
``value`` (``float``, ``int``, ``str`` or ``bool``; float rows may be NaN), symmetric distance on
both sides, stability map ``d_in -> d_in``: a row transform with kernel ``x -> (x == value)``,
1-stable by the row-transform lemma.

Equality is Python's ``==`` on the atom type, which on floats is IEEE-754 equality: ``-0.0 ==
0.0`` is ``True`` (so ``-0.0`` and ``0.0``, one multiset element, get one answer), ``NaN == x``
is ``False`` for every ``x`` (a NaN row is never equal to the value), and ``inf == inf`` is
``True``. As in OpenDP (``opendp.transformations.make_is_equal``, which compares with Rust's
``PartialEq``, the same IEEE equality).

``value`` must be a member of the input atom domain that a row can equal: a ``float`` that is not
NaN (``+-inf`` and ``-0.0`` are allowed), or any ``int``, ``str`` or ``bool``. A NaN value would
equal no row, NaN rows included, so every output would be ``False``; it is refused
(``NaNValueError``), where OpenDP accepts it.
"""

from __future__ import annotations

from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Map, Precondition, RowTransform, Transformation, declares
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import NaNValueError, ValueTypeError
from mechanisms.make_clamp import unit_constant
from mechanisms.metrics import SymmetricDistance

IS_EQUAL_TYPES = (float, int, str, bool)
"""The atom types ``value`` (and so every row) may have."""


def is_equal_kernel(x: Any, value: Any) -> Any:
    """``x == value``: IEEE-754 equality on floats (``-0.0 == 0.0``, ``NaN`` equal to nothing)."""
    return ops.eq(x, value)


@declares(*({"value": t} for t in IS_EQUAL_TYPES))
def validate_value(value: Any) -> None:
    """``value`` is a ``float``, ``int``, ``str`` or ``bool`` (by exact type)."""
    if type(value) not in IS_EQUAL_TYPES:
        raise ValueTypeError(value, IS_EQUAL_TYPES)


IS_EQUAL_PRECONDITIONS = (
    Precondition("value is not NaN", lambda value: ops.negate(ops.is_nan(value)),
                 lambda value: NaNValueError(value)),
)


def build_is_equal(value: Any) -> Transformation:
    carrier = ops.carrier_of(value)
    return Transformation(
        input_domain=VectorDomain(AtomDomain(carrier, nan=carrier is float)),
        output_domain=VectorDomain(AtomDomain(bool)),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(is_equal_kernel, {"value": value}),
        stability_map=Map(constant=unit_constant),
    )


make_is_equal = Constructor("make_is_equal", build_is_equal, IS_EQUAL_PRECONDITIONS,
                            validate_value)
