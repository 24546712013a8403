"""Privacy measures: pure DP (``MaxDivergence``), zero-concentrated DP and approximate DP with a
fixed delta. ``MaxDivergence`` is ``D_inf(P || Q) = max_y ln(P(y) / Q(y))``."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping


@dataclass(frozen=True)
class MaxDivergence:
    """``D_inf(P, Q) = max over outcomes y of ln(P(y) / Q(y))``, taken in both directions."""

    def max_ratio(self, p: Mapping[Any, Fraction], q: Mapping[Any, Fraction]) -> Fraction | float:
        """The exact ``max_y max(P(y)/Q(y), Q(y)/P(y))`` of two discrete distributions."""
        worst: Fraction | float = Fraction(1)
        for y in p.keys() | q.keys():
            a, b = Fraction(p.get(y, 0)), Fraction(q.get(y, 0))
            if a == b:
                continue
            if a == 0 or b == 0:
                return math.inf
            worst = max(worst, a / b, b / a)
        return worst

    def divergence(self, p: Mapping[Any, Fraction], q: Mapping[Any, Fraction]) -> float:
        ratio = self.max_ratio(p, q)
        return math.inf if ratio == math.inf else math.log(ratio)

    def __str__(self) -> str:
        return "MaxDivergence()"


@dataclass(frozen=True)
class ZeroConcentratedDivergence:
    """rho-zCDP: ``D_alpha(P || Q) <= rho * alpha`` for every Renyi order ``alpha > 1``
    (Bun and Steinke 2016); a distance ``d_out`` is the ``rho``."""

    def __str__(self) -> str:
        return "ZeroConcentratedDivergence()"


@dataclass(frozen=True)
class FixedSmoothedMaxDivergence:
    """Approximate DP with a fixed delta: ``d_out = (epsilon, delta)`` means
    ``Pr[M(x) in S] <= exp(epsilon) Pr[M(x') in S] + delta`` for every event ``S``."""

    def __str__(self) -> str:
        return "FixedSmoothedMaxDivergence()"


Measure = MaxDivergence | ZeroConcentratedDivergence | FixedSmoothedMaxDivergence


@dataclass(frozen=True)
class ApproximateZeroConcentratedDivergence:
    """delta-approximate rho-zCDP (Bun and Steinke 2016, Definition 8.1; OpenDP's
    ``Approximate<ZeroConcentratedDivergence>``): ``d_out = (rho, delta)`` means that there are
    events ``E``, ``E'`` of probability at least ``1 - delta`` under ``M(x)`` and ``M(x')`` such
    that ``M(x) | E`` and ``M(x') | E'`` are ``rho``-zCDP close (``D_alpha <= rho alpha`` for
    every ``alpha > 1``, both ways)."""

    def __str__(self) -> str:
        return "ApproximateZeroConcentratedDivergence()"
