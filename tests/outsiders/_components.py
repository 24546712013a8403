"""Small hand-built components (correct on their own) for the combinator variants."""

from __future__ import annotations

from mechanisms import ops
from mechanisms.core import Fold, Map, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance


def count_step(count, x):
    return count + 1


def cap_at_one(count):
    """``min(count, 1)``: "is the partition non-empty"."""
    return ops.minimum(count, 1)


def capped_map(d_in):
    """``min(d_in, 1)``: the capped count moves by at most 1, and by at most ``d_in``."""
    return ops.minimum(d_in, 1)


def capped_count() -> Transformation:
    """``v -> min(len(v), 1)``, stability map ``min(d_in, 1)`` (a nonlinear, correct map)."""
    return Transformation(VectorDomain(AtomDomain(int)), AtomDomain(int), SymmetricDistance(),
                          AbsoluteDistance(), Fold(count_step, cap_at_one, 0),
                          Map(rule=capped_map))


def capped_float_map(d_in):
    """``min(d_in, 1.0)`` as a float."""
    return ops.minimum(d_in, 1.0)


TINY = 2.0 ** -53


def tiny_finalize(count):
    return ops.minimum(count, 1) * TINY


def tiny_map(d_in):
    """``min(d_in, 1) * 2^-53`` (exact in floats)."""
    return ops.minimum(d_in, 1) * TINY


def capped_float_count() -> Transformation:
    """``v -> float(min(len(v), 1))``, map ``min(d_in, 1.0)``."""
    return Transformation(VectorDomain(AtomDomain(int)), AtomDomain(int), SymmetricDistance(),
                          AbsoluteDistance(), Fold(count_step, cap_at_one, 0),
                          Map(rule=capped_float_map))


def tiny_capped_count() -> Transformation:
    """``v -> min(len(v), 1) * 2^-53`` (a float), map ``min(d_in, 1) * 2^-53``."""
    return Transformation(VectorDomain(AtomDomain(int)), AtomDomain(float), SymmetricDistance(),
                          AbsoluteDistance(), Fold(count_step, tiny_finalize, 0),
                          Map(rule=tiny_map))


def duplicate_rows(data):
    return list(data) + list(data)


def double_constant():
    return 2


def duplicator() -> Transformation:
    """``v -> v + v`` on int vectors: every row twice, 2-stable; input domain = output domain."""
    return Transformation(VectorDomain(AtomDomain(int)), VectorDomain(AtomDomain(int)),
                          SymmetricDistance(), SymmetricDistance(), duplicate_rows,
                          Map(constant=double_constant))
