"""Rigorous mpmath bounds on discrete Gaussian probabilities, for the ``make_gaussian_threshold``
outsider variants. ``Pr[Z = z] = w(z) / N``, ``w(z) = exp(-z^2 / (2 sigma^2))``,
``N = sum_{all z} w(z)``. Sums are truncated to ``|z| <= R``; the left-out mass of the
normaliser, ``2 sum_{z > R} w(z) <= 2 w(R) / (1 - e^(-1/sigma^2))`` (a geometric majorant, since
``w(z + 1) / w(z) <= e^(-(2R + 1) / (2 sigma^2)) <= e^(-1/sigma^2)`` for ``z >= R >= 1``), is kept as
an explicit slack, so each function returns a lower or an upper bound, as named.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath

mpmath.mp.dps = 50


def _mp(x: Any) -> Any:
    q = Fraction(x)
    return mpmath.mpf(q.numerator) / q.denominator


def _w(z: int, sigma: Any) -> Any:
    s = _mp(sigma)
    return mpmath.e ** (-mpmath.mpf(z) ** 2 / (2 * s * s))


def _normaliser(sigma: Any, radius: int) -> tuple[Any, Any]:
    """``(N_R, slack)`` with ``N_R <= N <= N_R + slack``."""
    s = _mp(sigma)
    truncated = sum(_w(z, sigma) for z in range(-radius, radius + 1))
    slack = 2 * _w(radius, sigma) / (1 - mpmath.e ** (-1 / (s * s)))
    return truncated, slack


def tail_lower(sigma: Any, start: int, radius: int = 400) -> Any:
    """A lower bound of ``Pr[Z >= start]`` (``|start| < radius``)."""
    n, slack = _normaliser(sigma, radius)
    return sum(_w(z, sigma) for z in range(start, radius + 1)) / (n + slack)


def tail_upper(sigma: Any, start: int, radius: int = 400) -> Any:
    """An upper bound of ``Pr[Z >= start]`` (``|start| < radius``)."""
    n, slack = _normaliser(sigma, radius)
    return (sum(_w(z, sigma) for z in range(start, radius + 1)) + slack) / n
