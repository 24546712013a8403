"""``make_bounded_mean(lower, upper, n)``: the mean of ``n`` values known to lie in ``[lower, upper]``,
computed in floats, with a map that accounts for the rounding.

Symmetric distance to absolute distance. The function sums the rows left to right from ``0.0``
(the sequential order of :mod:`mechanisms.make_sized_bounded_float_checked_sum`) and divides the
float sum by ``n``. With ``M = max(|L|, |U|)``, ``u = 2^-53`` and ``e(n) = n^2 2^-52 M`` (the
sequential sum's error bound, OpenDP's ``Sequential::error``), the stability map is::

    map(d_in) = d_in (U - L) / (2n) + relaxation
    relaxation = 2 e(n) / n + 2 u (M + e(n) / n) + 2^-1074

The first term is the seed's real-number map. Two float sums of neighbours differ by at most the
exact difference plus ``2 e(n)``; dividing a float sum ``h`` by ``n`` adds at most
``u |h| / n + 2^-1075`` (the standard model, with underflow), and ``|h| <= n M + e(n)``. The map is
computed exactly and rounded up once to a float. The seed's map alone is not an upper bound on
floats: ``[0.0, 1.0, 0.5]`` and ``[0.0, 0.0, 0.5]`` under ``[0, 1]`` have means ``0.5`` and
``0.16666666666666666``, further apart than ``map(2) = 1/3``.

Preconditions as for the float sum: finite bounds, ``1 <= n <= 2^53``, and ``n * 2^ceil(log2 M)``
finite, so no partial sum overflows.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from mechanisms import ops
from mechanisms.float_model import UNIT_ROUNDOFF
from mechanisms.arith import float_up
from mechanisms.core import Constructor, Fold, Map, Precondition, Transformation
from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from mechanisms.errors import BoundTypeError, OverflowRiskError, SizeError, SizeLimitError
from mechanisms.make_clamp import BOUND_PRECONDITIONS
from mechanisms.make_sized_bounded_float_checked_sum import (FLOAT_MAX, SIZE_LIMIT, add_step,
                                                             magnitude, overflow_free,
                                                             sequential_error)
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance

LEAST_SUBNORMAL = Fraction(1, 2 ** 1074)


def mean_finalize(total: Any, n: Any) -> Any:
    """``total / n``: one float division."""
    return total / n


def mean_relaxation(lower: Any, upper: Any, n: Any) -> Any:
    """``2 e(n) / n + 2 u (M + e(n) / n) + 2^-1074``, exactly: what rounding can add to the
    distance of two means."""
    error = sequential_error(n, lower, upper)
    return (2 * error / n + 2 * UNIT_ROUNDOFF * (magnitude(lower, upper) + error / n)
            + LEAST_SUBNORMAL)


def mean_map(d_in: Any, lower: Any, upper: Any, n: Any, relaxation: Any) -> Any:
    """``d_in (U - L) / (2n) + relaxation``, exact, then rounded up to a float."""
    spread = ops.exact(upper) - ops.exact(lower)
    return float_up(ops.exact(d_in) * spread / (2 * n) + relaxation)


def validate_mean(lower: Any, upper: Any, n: Any) -> None:
    if type(lower) is not float or type(upper) is not float:
        raise BoundTypeError(lower, upper)
    if type(n) is not int:
        raise SizeError(n)


MEAN_PRECONDITIONS = BOUND_PRECONDITIONS + (
    Precondition("n >= 1", lambda n, **_: ops.le(1, n), lambda n, **_: SizeError(n)),
    Precondition("n <= 2^53", lambda n, **_: ops.le(n, SIZE_LIMIT),
                 lambda n, **_: SizeLimitError(n, SIZE_LIMIT)),
    Precondition("lower and upper are finite",
                 lambda lower, upper, **_: ops.all_of(ops.le(ops.absolute(lower), FLOAT_MAX),
                                                      ops.le(ops.absolute(upper), FLOAT_MAX)),
                 lambda lower, upper, n: OverflowRiskError(ops.maximum(abs(lower), abs(upper)), n)),
    Precondition("n * 2^ceil(log2 max(|lower|, |upper|)) is finite",
                 lambda lower, upper, n: overflow_free(n, lower, upper),
                 lambda lower, upper, n: OverflowRiskError(ops.maximum(abs(lower), abs(upper)), n)),
)


def build_bounded_mean(lower: Any, upper: Any, n: Any) -> Transformation:
    return Transformation(
        input_domain=SizedDomain(VectorDomain(AtomDomain(float, bounds=(lower, upper))), n),
        output_domain=AtomDomain(float),
        input_metric=SymmetricDistance(),
        output_metric=AbsoluteDistance(),
        function=Fold(add_step, mean_finalize, 0.0, {"n": n}),
        stability_map=Map(rule=mean_map, params={
            "lower": lower, "upper": upper, "n": n,
            "relaxation": mean_relaxation(lower, upper, n)}),
    )


make_bounded_mean = Constructor("make_bounded_mean", build_bounded_mean, MEAN_PRECONDITIONS,
                                validate_mean)
