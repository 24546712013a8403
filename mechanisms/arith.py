"""Directed rounding with exact rationals: ``ln_up(r)`` is a float never below ``ln(r)``.

``ln_up`` returns the least float ``c`` for which the certificate ``exp_lower_bound(c) >= r``
holds, found by binary search over the floats around an estimate (the certificate is monotone in
``c``). The certificate is computed with :class:`fractions.Fraction` only, so no rounding can
make it lie:
``exp_lower_bound(c) <= e^c`` (obligation ``arith.ln_up``), hence ``e^c >= r`` and ``c >= ln r``.
"""

from __future__ import annotations

import math
import struct
import sys
from fractions import Fraction
from typing import Any

from mechanisms import float_model, ops

TAYLOR_TERMS = 24
"""Degree of the Taylor polynomial of ``e^x``, used on ``0 <= x <= 1/2``."""

PRECISION_BITS = 200
"""Intermediate results are rounded *down* to multiples of ``2**-PRECISION_BITS``."""


def taylor_exp_lower(x: Any) -> Any:
    """``sum_{k=0}^{K} x^k / k!``: a lower bound of ``e^x`` for ``x >= 0`` (all terms dropped
    from the series are non-negative)."""
    total, term = 0, 1
    for k in range(TAYLOR_TERMS + 1):
        total = total + term
        term = term * x / (k + 1)
    return total


def round_down(q: Any) -> Any:
    """``floor(q * 2^P) / 2^P <= q``: keeps rationals short and lower bounds lower bounds."""
    scale = 2 ** PRECISION_BITS
    return ops.floor(q * scale) / scale


def exp_lower_bound(c: Fraction) -> Fraction:
    """A rational ``y <= e^c`` for ``c >= 0``: ``taylor(c / 2^m)`` squared ``m`` times."""
    if c < 0:
        raise ValueError(f"exp_lower_bound needs c >= 0, got {c}")
    halvings = 0
    while c / 2 ** halvings > Fraction(1, 2):
        halvings += 1
    bound = round_down(taylor_exp_lower(c / 2 ** halvings))
    for _ in range(halvings):
        bound = round_down(bound * bound)
    return bound


def exact_sum(a: Any, b: Any) -> Any:
    """``a + b`` without rounding. Dual: a float ``a = +-inf`` is returned as it is (an infinite
    distance stays infinite); a solver term stands for a finite value, so its sum is exact."""
    return a if isinstance(a, float) and math.isinf(a) else ops.exact(a) + ops.exact(b)


def add_up(a: Any, b: Any) -> Any:
    """``a + b``, never below the exact sum: exact for integers and rationals; for floats the
    least float ``>= a + b`` (:func:`float_up` of the exact sum; ``+inf`` if either is)."""
    total = a + b
    if isinstance(total, float) and math.isfinite(total):
        return float_up(Fraction(a) + Fraction(b))
    return total


def _certified(c: float, r: Fraction) -> bool:
    """``exp_lower_bound(c) >= r``, which implies ``c >= ln r``; monotone in ``c``."""
    return exp_lower_bound(Fraction(c)) >= r


def _float_at(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<q", bits))[0]


def _bits_of(x: float) -> int:
    """Non-negative floats are ordered as their bit patterns are: one step is one ulp."""
    return struct.unpack("<q", struct.pack("<d", x))[0]


def _estimate_ln(r: Fraction) -> float:
    """``ln r`` to within a few ulps: ``log1p`` of the exact ``r - 1`` avoids cancellation near 1."""
    excess = r - 1
    if excess < 2 ** 1000:
        return math.log1p(float(excess))
    return math.log(r.numerator) - math.log(r.denominator)


def ln_up(r: Fraction) -> float:
    """The least float ``c`` with ``exp_lower_bound(c) >= r``, for rational ``r >= 1``: never below
    ``ln r``, and above it only by the certificate's slack (about one ulp)."""
    if r < 1:
        raise ValueError(f"ln_up is defined here for r >= 1, got {r}")
    if _certified(0.0, r):
        return 0.0
    guess = _bits_of(max(_estimate_ln(r), 0.0))
    low, high, step = guess, guess, 1
    while not _certified(_float_at(high), r):  # gallop up to a certified float
        low, high, step = high, high + step, step * 2
    step = 1
    while low > 0 and _certified(_float_at(low), r):  # gallop down to an uncertified one
        high, low, step = low, max(low - step, 0), step * 2
    while high - low > 1:  # invariant: low not certified, high certified
        middle = (low + high) // 2
        low, high = (low, middle) if _certified(_float_at(middle), r) else (middle, high)
    return _float_at(high)


def float_up(q: Any) -> Any:
    """The least float ``>= q`` for a rational ``q`` (:func:`least_float_at_or_above`); on solver
    terms a float ``>= q`` (:func:`float_model.upward`)."""
    if ops.is_symbolic(q):
        return float_model.upward(q)
    if ops.exact_numbers():
        return q
    return least_float_at_or_above(q)


def at_or_above(x: Any, q: Any) -> Any:
    """The certificate ``x >= q``, compared exactly (``+inf`` is above every rational; a solver
    term is a finite real)."""
    return (isinstance(x, float) and x == math.inf) or ops.le(q, ops.exact(x))


def nearest_float(q: Fraction) -> float:
    """``float(q)``, correctly rounded; ``+-max`` beyond the float range (never a lower ``-inf``)."""
    try:
        return float(q)
    except OverflowError:
        return sys.float_info.max if q > 0 else -sys.float_info.max


def least_float_at_or_above(q: Fraction) -> float:
    """From the nearest float, step up until :func:`at_or_above` certifies the result; ``inf``
    above the largest float. (One step at most, as ``float(q)`` is correctly rounded.)"""
    candidate = nearest_float(q)
    while not at_or_above(candidate, q):
        candidate = math.nextafter(candidate, math.inf)
    return candidate


def div_up(a: Any, b: Any) -> Any:
    """``a / b`` for ``a >= 0, b >= 0``: on numbers the exact quotient rounded up to a float
    (``+inf`` for ``b = 0 < a`` or ``a = +inf``); on solver terms the exact quotient, which the
    float dominates."""
    if ops.is_symbolic(a) or ops.is_symbolic(b):
        return float_model.upward(ops.exact(a) / ops.exact(b))
    if ops.exact_numbers():
        return ops.exact(a) / ops.exact(b)
    if b == 0 or a == math.inf:
        return math.inf if a > 0 else 0.0
    return float_up(Fraction(a) / Fraction(b))


def mul_up(a: Any, b: Any) -> Any:
    """``a * b``, never below the exact product: exact for integers and rationals; for finite
    floats the least float ``>= a * b`` (:func:`float_up` of the exact product). On solver terms
    the exact product, which the float dominates (as :func:`div_up` and ``ops.mul_up``)."""
    if ops.is_symbolic(a) or ops.is_symbolic(b):
        return float_model.upward(ops.exact(a) * ops.exact(b))
    if ops.exact_numbers():
        return ops.exact(a) * ops.exact(b)
    product = a * b
    if isinstance(product, float) and math.isfinite(product):
        return float_up(Fraction(a) * Fraction(b))
    return product


def _estimate_sqrt(x: Fraction) -> float:
    """``sqrt(x)`` within an ulp or so: the integer square root of ``x * 4^k`` with 128 bits or
    more, over ``2^k``, correctly rounded to a float (``inf`` past the largest float)."""
    if x == 0:
        return 0.0
    k = max(0, (130 - x.numerator.bit_length() + x.denominator.bit_length()) // 2)
    root = Fraction(math.isqrt(x.numerator * 4 ** k // x.denominator), 2 ** k)
    return float(root) if root <= Fraction(sys.float_info.max) else math.inf


def sqrt_up(x: Any) -> float:
    """The least float ``s >= 0`` with ``s * s >= x`` (compared exactly), for ``x >= 0``: never
    below ``sqrt(x)``; ``inf`` for ``x = inf`` or beyond the largest float's square."""
    if x < 0:
        raise ValueError(f"sqrt_up needs x >= 0, got {x}")
    if x == math.inf:
        return math.inf
    exact_x = Fraction(x)
    s = _estimate_sqrt(exact_x)
    while math.isfinite(s) and Fraction(s) * Fraction(s) < exact_x:  # up to a certified float
        s = math.nextafter(s, math.inf)
    while s > 0 and math.isfinite(below := math.nextafter(s, 0.0)) and \
            Fraction(below) * Fraction(below) >= exact_x:  # down to the least certified one
        s = below
    return s


def is_power_of_two(q: Fraction) -> bool:
    """``q = 2^k`` for an integer ``k`` (positive numerator and denominator powers of two)."""
    return q > 0 and q.numerator & (q.numerator - 1) == 0 \
        and q.denominator & (q.denominator - 1) == 0


def pow2_up(x: Any) -> Any:
    """``2^ceil(log2 x)`` for ``x >= 2^-1074`` (``2^-1074`` below it), exactly. Certified: the
    result is checked to be a power of two at or above ``x`` (``ArithmeticError`` otherwise),
    which is all the proofs may assume of it on solver terms (``float_model.POW2_UP``)."""
    if ops.is_symbolic(x):
        return float_model.POW2_UP(ops.exact(x))
    if isinstance(x, float) and not math.isfinite(x):
        raise ArithmeticError(f"pow2_up({x}): no power of two is at or above it")
    target = max(Fraction(x), Fraction(1, 2 ** 1074))
    power = Fraction(2) ** (target.numerator.bit_length() - target.denominator.bit_length())
    while power < target:
        power *= 2
    while power / 2 >= target:
        power /= 2
    power = min(power, Fraction(2 ** 1024))
    if not (is_power_of_two(power) and power >= x):
        raise ArithmeticError(f"pow2_up({x}) = {power} is not a power of two at or above it")
    return power

