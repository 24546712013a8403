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


def _l01inf_differs(in_both: Any, a: Any, b: Any) -> Any:
    """A key counts in ``l0`` when it is in one map only or its values differ."""
    from mechanisms import ops
    return ops.any_of(ops.negate(in_both), ops.negate(ops.eq(a, b)))


def _l01inf_step(distance: tuple[Any, Any, Any], a: Any, b: Any,
                 differs: Any) -> tuple[Any, Any, Any]:
    """One key's contribution: ``l0 + [differs]``, ``l1 + |a - b|``, ``max(linf, |a - b|)``."""
    from mechanisms import ops
    l0, l1, linf = distance
    change = ops.absolute(ops.exact(a) - ops.exact(b))
    return ops.where(differs, l0 + 1, l0), l1 + change, ops.maximum(linf, change)


@dataclass(frozen=True)
class L01InfDistance:
    """Between maps ``key -> number`` (``MapDomain``), a key absent from a map counting as value
    ``0`` in the differences: ``d(u, w) = (l0, l1, linf)`` where ``l0`` is the number of keys of
    either map that are not in both with equal values, ``l1 = sum_k |u(k) - w(k)|`` and
    ``linf = max_k |u(k) - w(k)|`` (OpenDP's ``L01InfDistance<AbsoluteDistance>``). A bound
    ``d_in = (a, b, c)`` holds when ``l0 <= a``, ``l1 <= b`` and ``linf <= c`` (componentwise:
    :meth:`within`). Exact (integers, or Fractions for floats).

    The distance is a fold over the keys of ``key_differs`` and ``step`` (written with
    ``mechanisms.ops``, so the obligations run them on solver terms): every distance it returns
    has ``0 <= linf <= l1 <= l0 * linf``."""

    inner: Any = AbsoluteDistance()
    key_differs = staticmethod(_l01inf_differs)
    step = staticmethod(_l01inf_step)

    def distance(self, u: Any, w: Any) -> tuple[Any, Any, Any]:
        total: tuple[Any, Any, Any] = (0, 0, 0)
        for key in u.keys() | w.keys():
            a, b = u.get(key, 0), w.get(key, 0)
            total = self.step(total, a, b, self.key_differs(key in u and key in w, a, b))
        return tuple(int(x) if isinstance(x, Fraction) and x.denominator == 1 else x
                     for x in total)

    @staticmethod
    def within(distance: Any, bound: Any) -> bool:
        """``distance <= bound`` componentwise (not Python's lexicographic tuple order)."""
        return all(d <= b for d, b in zip(distance, bound, strict=True))

    def compatible(self, domain: Any) -> bool:
        from mechanisms.domains import MapDomain
        return isinstance(domain, MapDomain) and self.inner.compatible(domain.value_domain)

    def __str__(self) -> str:
        return f"L01InfDistance({self.inner})"


@dataclass(frozen=True)
class DiscreteVectorMetric:
    """``d(v, w) = 0`` if the bit vectors ``v`` and ``w`` hold the same bits in the same order
    (a list and a tuple alike), else ``1``: the discrete metric on whole vectors (OpenDP's
    ``DiscreteDistance`` on a ``BitVectorDomain``). Neighbours may differ in every bit."""

    def distance(self, v: Any, w: Any) -> int:
        return 0 if tuple(v) == tuple(w) else 1

    def compatible(self, domain: Any) -> bool:
        from mechanisms.domains import BitVectorDomain
        return isinstance(domain, BitVectorDomain)

    def __str__(self) -> str:
        return "DiscreteVectorMetric()"


@dataclass(frozen=True)
class MonotonicLInfDistance:
    """``d(v, w) = max_i |v_i - w_i|`` when every coordinate moves the same way (``v_i >= w_i``
    for all ``i``, or ``v_i <= w_i`` for all ``i``); infinite otherwise and between vectors of
    different lengths; exact. OpenDP's ``LInfDistance(monotonic=True)``: scores such as counts,
    which one added (removed) record can only raise (lower)."""

    def distance(self, v: Any, w: Any) -> Fraction | float:
        if len(v) != len(w):
            return math.inf
        if not (all(a >= b for a, b in zip(v, w)) or all(a <= b for a, b in zip(v, w))):
            return math.inf
        return LInfDistance().distance(v, w)

    def compatible(self, domain: Any) -> bool:
        return LInfDistance().compatible(domain)

    def __str__(self) -> str:
        return "MonotonicLInfDistance()"


def _l1_step(total: Any, a: Any, b: Any) -> Any:
    """One coordinate's contribution to the L1 distance: ``total + |a - b|``, exactly."""
    from mechanisms import ops
    return total + ops.absolute(ops.exact(a) - ops.exact(b))


@dataclass(frozen=True)
class L1Distance:
    """``d(v, w) = sum_i |v_i - w_i|`` between vectors of equal length (infinite otherwise);
    exact (integers, or Fractions for floats). A left fold of :meth:`step` from ``0``, written
    with ``mechanisms.ops`` so that the obligations run the same step on solver terms. OpenDP's
    ``L1Distance``."""

    step = staticmethod(_l1_step)

    def distance(self, v: Any, w: Any) -> Any:
        if len(v) != len(w):
            return math.inf
        total: Any = 0
        for a, b in zip(v, w):
            total = self.step(total, a, b)
        return int(total) if isinstance(total, Fraction) and total.denominator == 1 else total

    def compatible(self, domain: Any) -> bool:
        inner = domain.inner if isinstance(domain, SizedDomain) else domain
        return isinstance(inner, VectorDomain) and AbsoluteDistance().compatible(inner.element)

    def __str__(self) -> str:
        return "L1Distance()"


def _l2_squared_step(total: Any, a: Any, b: Any) -> Any:
    """One coordinate's contribution to the squared L2 distance: ``total + (a - b)^2``, exactly."""
    from mechanisms import ops
    change = ops.exact(a) - ops.exact(b)
    return total + change * change


def _l2_root(squared: Any) -> Any:
    """The distance from the sum of squares: its square root rounded up to a float
    (``mechanisms.ops.sqrt_up``: never below the exact root; ``+inf`` stays ``+inf``)."""
    from mechanisms import ops
    return ops.sqrt_up(squared)


@dataclass(frozen=True)
class L2Distance:
    """``d(v, w) = sqrt(sum_i (v_i - w_i)^2)`` between vectors of equal length (infinite
    otherwise). The sum of squares is exact (:meth:`squared`, a left fold of :meth:`step` from
    ``0``, run on solver terms by the obligations); :meth:`distance` is :meth:`root` of it, its
    square root rounded up to a float, never below the true distance, so a bound
    ``d_in >= distance(v, w)`` implies ``d_in^2 >= squared(v, w)``. OpenDP's ``L2Distance``."""

    step = staticmethod(_l2_squared_step)
    root = staticmethod(_l2_root)

    def squared(self, v: Any, w: Any) -> Any:
        """``sum_i (v_i - w_i)^2``, exactly; infinite for different lengths."""
        if len(v) != len(w):
            return math.inf
        total: Any = 0
        for a, b in zip(v, w):
            total = self.step(total, a, b)
        return total

    def distance(self, v: Any, w: Any) -> Any:
        return self.root(self.squared(v, w))

    def compatible(self, domain: Any) -> bool:
        return L1Distance().compatible(domain)

    def __str__(self) -> str:
        return "L2Distance()"
