"""Domains: the sets of values a transformation or measurement accepts and promises.

``member(value)`` is the concrete membership test. ``AtomDomain.contains(x)`` is the value part of
that test written with :mod:`mechanisms.ops`, so the checker evaluates the same condition on Z3
terms when it proves that a function lands in its output domain; ``VectorDomain.admits_length(n)``
is the length part of a vector's, likewise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mechanisms import ops
from mechanisms.errors import BoundsOrderError, NaNBoundError

Bounds = tuple[Any, Any]


@dataclass(frozen=True)
class AtomDomain:
    """Scalars of type ``carrier``; optionally within ``[lower, upper]``; NaN only if ``nan``.

    ``AtomDomain(float, nan=True)`` is every float; ``AtomDomain(float, bounds=(L, U))`` is the
    non-NaN floats ``x`` with ``L <= x <= U``.
    """

    carrier: type
    bounds: Bounds | None = None
    nan: bool = False

    def __post_init__(self) -> None:
        if self.nan and self.carrier is not float:
            raise TypeError(f"only float atoms can hold NaN, not {self.carrier.__name__}")
        if self.bounds is not None and not any(map(ops.is_symbolic, self.bounds)):
            lower, upper = self.bounds
            for name, bound in (("lower", lower), ("upper", upper)):
                if ops.truthy(ops.is_nan(bound)):
                    raise NaNBoundError(name, bound)
            if upper < lower:
                raise BoundsOrderError(lower, upper)

    def contains(self, x: Any) -> Any:
        """The value conditions of membership: ``lower <= x <= upper`` when bounded, and NaN
        either always admitted (``nan=True``) or never."""
        within = True
        if self.bounds is not None:
            lower, upper = self.bounds
            within = ops.all_of(ops.le(lower, x), ops.le(x, upper))
        if self.nan:
            return ops.any_of(ops.is_nan(x), within)
        return ops.all_of(ops.negate(ops.is_nan(x)), within)

    def member(self, value: Any) -> bool:
        if not _has_carrier(value, self.carrier):
            return False
        return ops.truthy(self.contains(value))

    def __str__(self) -> str:
        parts = [self.carrier.__name__]
        if self.bounds is not None:
            parts.append(f"bounds=[{self.bounds[0]}, {self.bounds[1]}]")
        if self.nan:
            parts.append("nan=True")
        return f"AtomDomain({', '.join(parts)})"


def _has_carrier(value: Any, carrier: type) -> bool:
    """Exact type test: ``True`` is not an ``int`` atom and ``1`` is not a ``float`` atom."""
    if carrier in (int, float, bool):
        return type(value) is carrier
    return isinstance(value, carrier)


@dataclass(frozen=True)
class VectorDomain:
    """Lists (or tuples) of at least ``min_size`` entries (by default any length) whose every
    entry is in ``element``: ``VectorDomain(AtomDomain(float), min_size=2)`` holds ``[0.0, 1.0]``
    but not ``[0.0]`` or ``[]``. ``min_size`` may be a solver term (a symbolic build); a value of
    0 or below admits every length."""

    element: AtomDomain
    min_size: Any = 0

    def admits_length(self, n: Any) -> Any:
        """The length condition of membership, ``min_size <= n``, written with
        :mod:`mechanisms.ops`: the checker evaluates it on solver terms (a symbolic ``n`` or
        ``min_size``)."""
        return ops.le(self.min_size, n)

    def member(self, value: Any) -> bool:
        return (isinstance(value, (list, tuple)) and ops.truthy(self.admits_length(len(value)))
                and all(self.element.member(v) for v in value))

    def __str__(self) -> str:
        shown = ops.is_symbolic(self.min_size) or self.min_size != 0
        return f"VectorDomain({self.element}" + (f", min_size={self.min_size})" if shown
                                                 else ")")


@dataclass(frozen=True)
class SizedDomain:
    """Vectors of ``inner`` with exactly ``size`` entries (the seeds' ``SizedDomain``)."""

    inner: VectorDomain
    size: Any

    def member(self, value: Any) -> bool:
        return self.inner.member(value) and len(value) == self.size

    def __str__(self) -> str:
        return f"SizedDomain({self.inner}, size={self.size})"


@dataclass(frozen=True)
class ProductDomain:
    """Tuples ``(v_1, ..., v_k)`` with ``v_i`` in ``components[i]``: one entry per partition."""

    components: tuple[Any, ...]

    def member(self, value: Any) -> bool:
        return (isinstance(value, (list, tuple)) and len(value) == len(self.components)
                and all(d.member(v) for d, v in zip(self.components, value)))

    def __str__(self) -> str:
        return f"ProductDomain({', '.join(map(str, self.components))})"


Domain = AtomDomain | VectorDomain | SizedDomain | ProductDomain


@dataclass(frozen=True)
class MapDomain:
    """Dicts ``key -> value`` whose every key is in ``key_domain`` and every value in
    ``value_domain`` (OpenDP's ``MapDomain``): a histogram ``key -> count``, for instance."""

    key_domain: AtomDomain
    value_domain: AtomDomain

    def member(self, value: Any) -> bool:
        return isinstance(value, dict) and all(
            self.key_domain.member(k) and self.value_domain.member(v) for k, v in value.items())

    def __str__(self) -> str:
        return f"MapDomain({self.key_domain}, {self.value_domain})"


@dataclass(frozen=True)
class BitVectorDomain:
    """Bit vectors: lists or tuples of exactly ``size`` bools (``type(b) is bool``: ``0`` and
    ``1`` are not bits) with at most ``max_weight`` of them ``True``. OpenDP's
    ``BitVectorDomain`` has a ``max_weight`` but no size; vectors of two lengths would then be
    neighbours whose releases differ in length (an infinite privacy loss), so the size is fixed
    here."""

    size: Any
    max_weight: Any

    def member(self, value: Any) -> bool:
        return (isinstance(value, (list, tuple)) and len(value) == self.size
                and all(type(b) is bool for b in value) and sum(value) <= self.max_weight)

    def __str__(self) -> str:
        return f"BitVectorDomain(size={self.size}, max_weight={self.max_weight})"


@dataclass(frozen=True)
class OptionDomain:
    """``None`` or a member of ``element`` (OpenDP's ``OptionDomain``): a selection that may
    release nothing."""

    element: Any

    def member(self, value: Any) -> bool:
        return value is None or self.element.member(value)

    def __str__(self) -> str:
        return f"OptionDomain({self.element})"


@dataclass(frozen=True)
class QueryableDomain:
    """Interactive outputs: a :class:`mechanisms.queryable.Queryable` (the state machine a privacy
    filter or an odometer returns on its dataset)."""

    def member(self, value: Any) -> bool:
        from mechanisms.queryable import Queryable
        return isinstance(value, Queryable)

    def __str__(self) -> str:
        return "QueryableDomain()"


@dataclass(frozen=True)
class RecordDomain:
    """Table rows: tuples of exactly ``len(columns)`` strings, the ``i``-th the value of the column
    named ``columns[i]`` (a CSV file's data rows as ``csv.reader`` gives them)."""

    columns: tuple[str, ...]

    def member(self, value: Any) -> bool:
        return (isinstance(value, tuple) and len(value) == len(self.columns)
                and all(isinstance(v, str) for v in value))

    def __str__(self) -> str:
        return f"RecordDomain({', '.join(self.columns)})"
