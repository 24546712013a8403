"""``make_sized_bounded_float_checked_sum(size, lower, upper, summation="pairwise")``: the float sum
of exactly ``size`` values in ``[lower, upper]``, with a map that accounts for rounding.

Symmetric distance to absolute distance. Summation orders as OpenDP's ``Sequential`` (left fold
from ``0.0``) and ``Pairwise`` (split at ``n // 2``, sum both halves, add). With ``M = max(|L|, |U|)``,
``u = 2^-53`` and ``n = size``, the stability map is OpenDP's
(``rust/src/transformations/sum/float/checked/mod.rs`` and ``.../float/mod.rs``,
``SumRelaxation::relaxation = 2 * error``)::

    map(d_in) = floor(d_in / 2) * (U - L) + relaxation,   relaxation = 2 * error(n)
    error(n)  = n^2 / 2^52 * M                               (Sequential::error)
    error(n)  = uk / (1 - uk) * n * M,  uk = log2(n) / 2^52  (Pairwise::error)

``error(n)`` bounds ``|fl_sum(v) - sum(v)|`` (Higham 2002, section 4.2, in the standard model
``fl(a + b) = (a + b)(1 + delta)``, ``|delta| <= u``), so two neighbours' float sums differ by at
most the real sensitivity plus twice the error. The map is computed exactly (fractions, with a
certified upper bound of ``log2 n``) and rounded up once to a float, never below the exact value.

Checked: like OpenDP, refuses parameters whose sum may overflow, i.e. ``n * 2^ceil(log2 M)`` is
not a finite float (``OverflowRiskError``). Differences from OpenDP: ``size >= 1`` (OpenDP's
Sequential also takes 0), ``size <= 2^53`` is an explicit precondition (OpenDP fails its exact
cast of the size there), and the map rounds once instead of after every operation.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Sequence


from mechanisms import ops
from mechanisms.arith import float_up, pow2_up
from mechanisms.core import Constructor, Fold, Map, Precondition, Transformation
from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from mechanisms.errors import (BoundTypeError, OverflowRiskError, SizeError, SizeLimitError,
                               SummationError)
from mechanisms.make_clamp import BOUND_PRECONDITIONS
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance

SUMMATIONS = ("sequential", "pairwise")
SIZE_LIMIT = 2 ** 53
"""Sizes beyond this are refused: ``n u < 1`` is what the error bound's proof needs."""
FLOAT_MAX = Fraction(2 ** 1024 - 2 ** 971)
"""The largest finite float64, exactly."""
MANTISSA_SCALE = Fraction(1, 2 ** 52)
"""``2^-52 = 2u``, the factor OpenDP's error terms use."""
LN2_LOWER = Fraction(6931471805599453, 10 ** 16)
"""A rational below ``ln 2`` (the obligations check it against a partial sum of
``ln 2 = sum_k 1 / (k 2^k)``, in exact rationals)."""


def log2_up(n: Any) -> Any:
    """A rational ``>= log2(n)`` for an integer ``n >= 1``: ``ln_up(n) / LN2_LOWER`` (``ln_up`` is
    never below ``ln n``, obligation ``arith.ln_up``; ``LN2_LOWER <= ln 2``)."""
    return ops.exact(ops.ln_up(ops.exact(n))) / LN2_LOWER


def magnitude(lower: Any, upper: Any) -> Any:
    """``M = max(|L|, |U|)``, exactly."""
    return ops.maximum(ops.absolute(ops.exact(lower)), ops.absolute(ops.exact(upper)))


def sequential_error(size: Any, lower: Any, upper: Any, scale: Any = MANTISSA_SCALE) -> Any:
    """OpenDP's ``Sequential::error``: ``n^2 / 2^52 * M`` (``scale = 2u``, ``2^-52`` in binary64)."""
    return size * size * scale * magnitude(lower, upper)


def pairwise_error(size: Any, lower: Any, upper: Any, scale: Any = MANTISSA_SCALE) -> Any:
    """OpenDP's ``Pairwise::error``: ``uk / (1 - uk) * n * M`` with ``uk = log2(n) / 2^52``
    (``scale = 2u``, ``2^-52`` in binary64)."""
    uk = log2_up(size) * scale
    return uk / (1 - uk) * size * magnitude(lower, upper)


ERRORS: dict[str, Callable[..., Any]] = {"sequential": sequential_error,
                                         "pairwise": pairwise_error}


def relaxation(size: Any, lower: Any, upper: Any, summation: str) -> Any:
    """``2 * error(n)``: each of the two float sums is off its exact value by at most ``error``."""
    return 2 * ERRORS[summation](size, lower, upper)


def sum_map(d_in: Any, lower: Any, upper: Any, relaxation: Any) -> Any:
    """``floor(d_in / 2) * (U - L) + relaxation``, exact, then rounded up to a float."""
    exact_sensitivity = ops.floor_div(ops.exact(d_in), 2) * (ops.exact(upper) - ops.exact(lower))
    return float_up(exact_sensitivity + relaxation)


def add_step(total: Any, x: Any) -> Any:
    """``total + x``: one float addition (the only rounding step of either order)."""
    return total + x


def identity(total: Any) -> Any:
    """The sum is the accumulator."""
    return total


def pairwise_split(n: Any) -> Any:
    """Where a block of ``n`` rows splits: the first ``n // 2`` and the rest."""
    return n // 2


@dataclass(frozen=True)
class PairwiseSum:
    """``v -> 0.0`` if empty, ``v[0]`` if one row, else ``combine(sum(left), sum(right))``."""

    combine: Callable[[Any, Any], Any]
    split: Callable[[Any], Any]

    def __call__(self, data: Sequence[Any]) -> Any:
        if len(data) <= 1:
            return data[0] if data else 0.0
        middle = self.split(len(data))
        return self.combine(self(data[:middle]), self(data[middle:]))


def summation_function(summation: str) -> Any:
    """The function of each summation order."""
    return {"sequential": Fold(add_step, identity, 0.0),
            "pairwise": PairwiseSum(add_step, pairwise_split)}[summation]


def validate_sum(size: Any, lower: Any, upper: Any, summation: Any) -> None:
    """Float bounds, an ``int`` size, a known summation order."""
    if type(lower) is not float or type(upper) is not float:
        raise BoundTypeError(lower, upper)
    if type(size) is not int:
        raise SizeError(size)
    if summation not in SUMMATIONS:
        raise SummationError(summation)


def overflow_free(size: Any, lower: Any, upper: Any) -> Any:
    """``n * 2^ceil(log2 M) <= FLOAT_MAX``: every partial sum stays below a float power-of-two
    multiple that is itself finite (OpenDP's ``float_sum_can_overflow``, check 2)."""
    return ops.le(size * pow2_up(magnitude(lower, upper)), FLOAT_MAX)


SUM_PRECONDITIONS = BOUND_PRECONDITIONS + (
    Precondition("size >= 1", lambda size, **_: ops.le(1, size), lambda size, **_: SizeError(size)),
    Precondition("size <= 2^53", lambda size, **_: ops.le(size, SIZE_LIMIT),
                 lambda size, **_: SizeLimitError(size, SIZE_LIMIT)),
    Precondition("lower and upper are finite",
                 lambda lower, upper, **_: ops.all_of(ops.le(ops.absolute(lower), FLOAT_MAX),
                                                      ops.le(ops.absolute(upper), FLOAT_MAX)),
                 lambda size, lower, upper, **_: OverflowRiskError(
                     ops.maximum(abs(lower), abs(upper)), size)),
    Precondition("size * 2^ceil(log2 max(|lower|, |upper|)) is finite",
                 lambda size, lower, upper, **_: overflow_free(size, lower, upper),
                 lambda size, lower, upper, **_: OverflowRiskError(
                     ops.maximum(abs(lower), abs(upper)), size)),
)


def build_sized_bounded_float_checked_sum(size: Any, lower: Any, upper: Any,
                                          summation: str = "pairwise") -> Transformation:
    return Transformation(
        input_domain=SizedDomain(VectorDomain(AtomDomain(float, bounds=(lower, upper))), size),
        output_domain=AtomDomain(float),
        input_metric=SymmetricDistance(),
        output_metric=AbsoluteDistance(),
        function=summation_function(summation),
        stability_map=Map(rule=sum_map, params={
            "lower": lower, "upper": upper,
            "relaxation": relaxation(size, lower, upper, summation)}),
    )


make_sized_bounded_float_checked_sum = Constructor(
    "make_sized_bounded_float_checked_sum", build_sized_bounded_float_checked_sum,
    SUM_PRECONDITIONS, validate_sum)
