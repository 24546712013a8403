"""``make_impute_constant(constant)``: replace every NaN entry of a float vector by ``constant``.

``VectorDomain(AtomDomain(float, nan=True))`` to ``VectorDomain(AtomDomain(float))`` (no NaN),
symmetric distance on both sides, stability map ``d_in -> d_in``: a row transform with kernel
``x -> constant if x is NaN else x``, 1-stable by the row-transform lemma.

As in OpenDP, ``constant`` must be a member of the output atom domain: a non-NaN float. So
``+-inf`` are allowed (OpenDP's ``AtomDomain<f64>`` without bounds admits them, and the output
domain promises only "no NaN"); ``-0.0`` is allowed and kept as it is.
"""

from __future__ import annotations

from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Map, Precondition, RowTransform, Transformation, declares
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import ConstantTypeError, NaNConstantError
from mechanisms.make_clamp import unit_constant
from mechanisms.metrics import SymmetricDistance


def impute_kernel(x: Any, constant: Any) -> Any:
    """``x -> constant`` if ``x`` is NaN, else ``x``."""
    return ops.where(ops.is_nan(x), constant, x)


@declares({"constant": float})
def validate_constant(constant: Any) -> None:
    """``constant`` is a ``float`` (``int`` and ``bool`` are not)."""
    if type(constant) is not float:
        raise ConstantTypeError(constant)


IMPUTE_PRECONDITIONS = (
    Precondition("constant is not NaN", lambda constant: ops.negate(ops.is_nan(constant)),
                 lambda constant: NaNConstantError(constant)),
)


def build_impute_constant(constant: Any) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(AtomDomain(float, nan=True)),
        output_domain=VectorDomain(AtomDomain(float)),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(impute_kernel, {"constant": constant}),
        stability_map=Map(constant=unit_constant),
    )


make_impute_constant = Constructor("make_impute_constant", build_impute_constant,
                                   IMPUTE_PRECONDITIONS, validate_constant)
