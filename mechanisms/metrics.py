"""Metrics: each computes the distance between two concrete values and states the domains it fits.

Distances are computed exactly (integers, or :class:`fractions.Fraction` for absolute distance
between floats), so comparing an observed distance with a claimed bound involves no rounding.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mechanisms.domains import AtomDomain, ProductDomain, SizedDomain, VectorDomain

_NAN_KEY = ("NaN",)


def multiset_key(x: Any) -> Any:
    """The identity of ``x`` as a multiset element: equality of values, with every NaN alike."""
    return _NAN_KEY if isinstance(x, float) and math.isnan(x) else x


@dataclass(frozen=True)
class SymmetricDistance:
    """``d(v, w) = |MultiSet(v) Δ MultiSet(w)| = sum_z |h_v(z) - h_w(z)|`` (order ignored)."""

    def distance(self, v: Any, w: Any) -> int:
        hv, hw = Counter(map(multiset_key, v)), Counter(map(multiset_key, w))
        return sum(abs(hv[z] - hw[z]) for z in hv.keys() | hw.keys())

    def compatible(self, domain: Any) -> bool:
        return isinstance(domain, (VectorDomain, SizedDomain))

    def __str__(self) -> str:
        return "SymmetricDistance()"


@dataclass(frozen=True)
class AbsoluteDistance:
    """``d(x, y) = |x - y|`` on numbers; exact for finite floats."""

    def distance(self, x: Any, y: Any) -> Fraction | float:
        if x == y:
            return Fraction(0)
        if isinstance(x, float) and not math.isfinite(x) or isinstance(y, float) and not math.isfinite(y):
            return abs(x - y)
        return abs(Fraction(x) - Fraction(y))

    def compatible(self, domain: Any) -> bool:
        return (isinstance(domain, AtomDomain) and domain.carrier in (int, float)
                and not domain.nan)

    def __str__(self) -> str:
        return "AbsoluteDistance()"


@dataclass(frozen=True)
class LInfDistance:
    """``d(v, w) = max_i |v_i - w_i|`` between vectors of equal length (infinite otherwise); exact.

    A query vector (scores, counts) moves by at most ``d`` in every coordinate."""

    def distance(self, v: Any, w: Any) -> Fraction | float:
        if len(v) != len(w):
            return math.inf
        return max((AbsoluteDistance().distance(a, b) for a, b in zip(v, w)), default=Fraction(0))

    def compatible(self, domain: Any) -> bool:
        inner = domain.inner if isinstance(domain, SizedDomain) else domain
        return isinstance(inner, VectorDomain) and AbsoluteDistance().compatible(inner.element)

    def __str__(self) -> str:
        return "LInfDistance()"


@dataclass(frozen=True)
class DiscreteMetric:
    """``d(x, y) = 0`` if ``x == y`` else ``1``."""

    def distance(self, x: Any, y: Any) -> int:
        return 0 if multiset_key(x) == multiset_key(y) else 1

    def compatible(self, domain: Any) -> bool:
        return isinstance(domain, AtomDomain)

    def __str__(self) -> str:
        return "DiscreteMetric()"


@dataclass(frozen=True)
class ProductMetric:
    """Over partitioned data: ``d((v_i), (w_i)) = sum_i d_i(v_i, w_i)``, the sum over partitions.

    A ``d_in``-close pair may therefore differ in several partitions at once, as long as the
    per-partition distances add up to at most ``d_in``.
    """

    components: tuple[Any, ...]

    def distance(self, v: Any, w: Any) -> Any:
        if len(v) != len(self.components) or len(w) != len(self.components):
            raise ValueError(f"expected {len(self.components)} partitions, "
                             f"got {len(v)} and {len(w)}")
        return sum(m.distance(a, b) for m, a, b in zip(self.components, v, w))

    def compatible(self, domain: Any) -> bool:
        return (isinstance(domain, ProductDomain)
                and len(domain.components) == len(self.components)
                and all(m.compatible(d) for m, d in zip(self.components, domain.components)))

    def __str__(self) -> str:
        return f"ProductMetric({', '.join(map(str, self.components))})"


Metric = SymmetricDistance | AbsoluteDistance | LInfDistance | DiscreteMetric | ProductMetric
