"""The exact CDF of canonical noise for ``delta = 0``, for the ``make_canonical_noise`` outsider
variants, from the running function object's own ``exp_ratio``, ``fixed_point`` and
``tradeoff`` (the quantities its ``sample_interval`` draws from): Awan and Vadhan's recursion,
``F`` linear on each ``[j - 1/2, j + 1/2]``, ``F(j + 1/2) = 1 - t_j`` with ``t_0 = c`` and
``t_j = f(1 - t_{j-1})``, symmetric about 0. All in Fractions.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any


def tails(function: Any, count: int) -> list[Fraction]:
    """``[t_0, ..., t_{count-1}]`` as ``sample_interval`` computes them (``delta = 0``)."""
    delta = Fraction(function.delta)
    assert delta == 0, "the helper covers delta = 0 (F never reaches 1)"
    ratio = function.exp_ratio(function.epsilon)
    t = [Fraction(function.fixed_point(ratio, delta))]
    while len(t) < count:
        t.append(Fraction(function.tradeoff(1 - t[-1], ratio, delta)))
    return t


def cdf(function: Any, a: Fraction) -> Fraction:
    """``F(a) = Pr[N <= a]`` exactly."""
    a = Fraction(a)
    if a < 0:
        return 1 - cdf(function, -a)
    j = max(0, math.ceil(a - Fraction(1, 2)))     # a in (j - 1/2, j + 1/2]
    t = tails(function, j + 1)
    if j == 0:
        c = t[0]
        return c * (Fraction(1, 2) - a) + (1 - c) * (a + Fraction(1, 2))
    return 1 - t[j - 1] + (t[j - 1] - t[j]) * (a - (j - Fraction(1, 2)))


def upper_rounding_boundary(y: float) -> Fraction:
    """The least real that ``nearest`` may send to ``y`` or above: the midpoint of ``y`` and the
    float below it (a tie there goes to either; the tie is a single point, of measure 0)."""
    return (Fraction(y) + Fraction(math.nextafter(y, -math.inf))) / 2


def tail_of_output(function: Any, x: float, y: float) -> Fraction:
    """``Pr[nearest(x + Delta N) >= y]`` for a positive finite ``y``: ``N`` above
    ``(b - x) / Delta``, ``b`` the rounding boundary below ``y`` (``N`` has a density)."""
    b = upper_rounding_boundary(y)
    return 1 - cdf(function, (b - Fraction(x)) / Fraction(function.sensitivity))


def exp_upper(x: Fraction, terms: int = 60) -> Fraction:
    """A rational ``>= e^x`` for ``0 <= x <= 1``: the Taylor sum to ``terms`` plus the remainder
    bound ``e^x x^(n+1) / (n+1)! <= 3 x^(n+1) / (n+1)!``."""
    x = Fraction(x)
    assert 0 <= x <= 1
    total, term = Fraction(0), Fraction(1)
    for n in range(terms + 1):
        total += term
        term = term * x / (n + 1)
    return total + 3 * term
