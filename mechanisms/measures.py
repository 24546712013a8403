"""Privacy measures. ``MaxDivergence`` is pure epsilon-DP: ``D_inf(P || Q) = max_y ln(P(y) / Q(y))``."""

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
