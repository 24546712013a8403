"""``make_bounded_mean(lower, upper, n)``: the mean of ``n`` values known to lie in ``[lower, upper]``.

Symmetric distance to absolute distance, stability map ``d_in * (upper - lower) / (2n)``. As in
the seed, the map is proved over the reals: the float sum rounds, and this map does not account
for it (the verdict says so).
"""

from __future__ import annotations

from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Fold, Map, Precondition, Transformation
from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from mechanisms.errors import BoundTypeError, OverflowRiskError, SizeError
from mechanisms.make_clamp import BOUND_PRECONDITIONS
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance


def mean_step(total: Any, x: Any) -> Any:
    """``total + x``."""
    return total + x


def mean_finalize(total: Any, n: Any) -> Any:
    """``total / n``."""
    return total / n


def mean_sensitivity(lower: Any, upper: Any, n: Any) -> Any:
    """``(upper - lower) / (2n)``: one substitution moves the mean by at most ``(U - L) / n`` and
    costs 2 in symmetric distance."""
    return (upper - lower) / (2 * n)


def validate_mean(lower: Any, upper: Any, n: Any) -> None:
    if type(lower) is not float or type(upper) is not float:
        raise BoundTypeError(lower, upper)
    if type(n) is not int:
        raise SizeError(n)


MEAN_PRECONDITIONS = BOUND_PRECONDITIONS + (
    Precondition("n >= 1", lambda n, **_: ops.le(1, n), lambda n, **_: SizeError(n)),
    Precondition("lower * n is finite", lambda lower, n, **_: ops.is_finite(lower * n),
                 lambda lower, n, **_: OverflowRiskError(lower, n)),
    Precondition("upper * n is finite", lambda upper, n, **_: ops.is_finite(upper * n),
                 lambda upper, n, **_: OverflowRiskError(upper, n)),
)


def build_bounded_mean(lower: Any, upper: Any, n: Any) -> Transformation:
    return Transformation(
        input_domain=SizedDomain(VectorDomain(AtomDomain(float, bounds=(lower, upper))), n),
        output_domain=AtomDomain(float),
        input_metric=SymmetricDistance(),
        output_metric=AbsoluteDistance(),
        function=Fold(mean_step, mean_finalize, 0.0, {"n": n}),
        stability_map=Map(constant=mean_sensitivity,
                          params={"lower": lower, "upper": upper, "n": n}),
    )


make_bounded_mean = Constructor("make_bounded_mean", build_bounded_mean, MEAN_PRECONDITIONS,
                                validate_mean)
