"""The least delta of two known laws at an epsilon, ``sum_y max(0, P(y) - e^eps Q(y))``, computed
at high precision, and when an observed delta counts as above a claimed one: the replays of the
approximate-DP conversions and compositions compare the running code's delta with its map's."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Mapping

import mpmath

DIGITS = 60
"""The working precision of the sums, in decimal digits."""


def mpf_of(value: Any) -> mpmath.mpf:
    """A finite number (float, int or rational) exactly as an mpmath number at the working
    precision."""
    value = Fraction(value)
    return mpmath.mpf(value.numerator) / value.denominator


def needed_delta(p: Mapping[Any, Any], q: Mapping[Any, Any], epsilon: Any) -> mpmath.mpf:
    """``sum_y max(0, P(y) - exp(epsilon) Q(y))`` at :data:`DIGITS` digits: the least delta for
    which ``Pr[P in S] <= exp(epsilon) Pr[Q in S] + delta`` holds for every event ``S`` of the
    outcomes listed (``S`` = the outcomes where ``P > exp(epsilon) Q``). Probabilities are
    rationals or mpmath numbers; ``epsilon = +inf`` needs no delta."""
    with mpmath.workdps(DIGITS):
        if epsilon == math.inf:
            return mpmath.mpf(0)
        factor = mpmath.exp(mpf_of(epsilon))
        total = mpmath.mpf(0)
        for y in p.keys() | q.keys():
            gap = _number(p.get(y, 0)) - factor * _number(q.get(y, 0))
            if gap > 0:
                total += gap
        return total


def _number(value: Any) -> mpmath.mpf:
    return value if isinstance(value, mpmath.mpf) else mpf_of(value)


MARGIN_DIGITS = 40
"""A least delta counts as above the claimed one only by more than ``10^-MARGIN_DIGITS``: the
60-digit sums carry rounding far below that."""


def exceeds(observed: Any, claimed: Any) -> bool:
    """``observed > claimed + 10^-MARGIN_DIGITS`` (``claimed`` a float, int or rational)."""
    with mpmath.workdps(DIGITS):
        return bool(observed > _number(claimed) + mpmath.mpf(10) ** -MARGIN_DIGITS)


def gaussian_delta(epsilon: float, rho: Fraction) -> mpmath.mpf:
    """A lower bound of the exact ``delta(epsilon) = sum_y max(0, P(y) - e^eps Q(y))`` of the
    discrete Gaussian of scale 1 at 0 (``P``) and at 1 (``Q``) (``rho = 1/2``): the sum over
    ``|y| <= 60`` over an upper bound of the normaliser."""
    with mpmath.workdps(60):
        weight = lambda y: mpmath.exp(-mpmath.mpf(y) ** 2 / 2)  # noqa: E731
        normaliser = sum(weight(y) for y in range(-60, 61)) + 2 * weight(60)
        gap = sum(max(mpmath.mpf(0), weight(y) - mpmath.exp(epsilon) * weight(y - 1))
                  for y in range(-60, 61))
        return gap / normaliser
