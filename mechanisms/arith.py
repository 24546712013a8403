"""Directed rounding with exact rationals: ``ln_up(r)`` is a float never below ``ln(r)``.

``ln_up`` starts from ``math.log`` (round to nearest, which may land below the exact value) and
moves up one float at a time until the certificate ``exp_lower_bound(c) >= r`` holds. The
certificate is computed with :class:`fractions.Fraction` only, so no rounding can make it lie:
``exp_lower_bound(c) <= e^c`` (obligation ``arith.ln_up``), hence ``e^c >= r`` and ``c >= ln r``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from mechanisms import ops

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


def ln_up(r: Fraction) -> float:
    """A float ``c`` with ``c >= ln(r)``, for rational ``r >= 1``; within a few ulps of ``ln r``."""
    if r < 1:
        raise ValueError(f"ln_up is defined here for r >= 1, got {r}")
    c = max(0.0, math.log(r.numerator) - math.log(r.denominator))
    while exp_lower_bound(Fraction(c)) < r:
        c = math.nextafter(c, math.inf)
    return c
