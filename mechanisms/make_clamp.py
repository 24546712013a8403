"""``make_clamp(lower, upper)``: clamp every entry of a vector into ``[lower, upper]``.

Symmetric distance on both sides, stability map ``d_in -> d_in``. Unlike the seed's pseudocode,
the input domain admits NaN (float data is untrusted), and the kernel sends NaN to ``lower`` so
the output-domain promise holds for every input.
"""

from __future__ import annotations

from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Map, Precondition, RowTransform, Transformation, declares
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, BoundTypeError, NaNBoundError
from mechanisms.metrics import SymmetricDistance


def clamp_kernel(x: Any, lower: Any, upper: Any) -> Any:
    """``x -> lower`` if ``x`` is NaN, else ``max(min(x, upper), lower)``."""
    return ops.where(ops.is_nan(x), lower, ops.maximum(ops.minimum(x, upper), lower))


def unit_constant() -> int:
    """The constant of a 1-stable map, ``d_out = d_in * 1``: clamping's, and that of the other
    1-stable transformations that import it (count, impute, drop NaN, cast)."""
    return 1


@declares(*({"lower": t, "upper": t} for t in (int, float)))
def validate_bounds(lower: Any, upper: Any) -> None:
    """Both bounds are ``int`` or both are ``float`` (``bool`` is not a number here)."""
    if type(lower) is not type(upper) or type(lower) not in (int, float):
        raise BoundTypeError(lower, upper)


BOUND_PRECONDITIONS = (
    Precondition("lower is not NaN", lambda lower, upper, **_: ops.negate(ops.is_nan(lower)),
                 lambda lower, upper, **_: NaNBoundError("lower", lower)),
    Precondition("upper is not NaN", lambda lower, upper, **_: ops.negate(ops.is_nan(upper)),
                 lambda lower, upper, **_: NaNBoundError("upper", upper)),
    Precondition("lower <= upper", lambda lower, upper, **_: ops.le(lower, upper),
                 lambda lower, upper, **_: BoundsOrderError(lower, upper)),
)
"""Shared with every constructor that takes an interval ``[lower, upper]``."""


def build_clamp(lower: Any, upper: Any) -> Transformation:
    carrier = ops.carrier_of(lower)
    return Transformation(
        input_domain=VectorDomain(AtomDomain(carrier, nan=carrier is float)),
        output_domain=VectorDomain(AtomDomain(carrier, bounds=(lower, upper))),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(clamp_kernel, {"lower": lower, "upper": upper}),
        stability_map=Map(constant=unit_constant),
    )


make_clamp = Constructor("make_clamp", build_clamp, BOUND_PRECONDITIONS, validate_bounds)
