"""Hypothesis strategies for the values of a domain and for neighbouring pairs under a metric.

``neighbours(domain, metric, d_in)`` draws ``(v, w)`` with ``metric.distance(v, w) <= d_in``:
insertions, deletions and substitutions under symmetric distance; substitutions only on sized
domains; shifts under absolute distance; any two atoms under the discrete metric; a split of
``d_in`` across several partitions under the product metric. Atoms favour the edges of their
domain, signed zeros, magnitudes near 2**50 and, where the domain admits them, NaN and +-inf.
Everything shrinks towards short vectors of small values.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from mechanisms.domains import AtomDomain, ProductDomain, SizedDomain, VectorDomain
from mechanisms.metrics import (AbsoluteDistance, DiscreteMetric, ProductMetric,
                                SymmetricDistance)

MAX_VECTOR = 6
HUGE = 2.0 ** 50


class NoStrategyError(TypeError):
    """No strategy for this domain or metric; the message says what is missing."""


def _float_edges(domain: AtomDomain) -> list[float]:
    lower, upper = domain.bounds if domain.bounds is not None else (-math.inf, math.inf)
    candidates = [0.0, -0.0, 1.0, -1.0, HUGE, -HUGE, HUGE + 0.5, lower, upper,
                  math.nextafter(lower, upper), math.nextafter(upper, lower)]
    if domain.nan:
        candidates.append(math.nan)
    distinct = {repr(c): c for c in candidates}.values()  # repr keeps -0.0 apart from 0.0
    return [c for c in distinct if domain.member(c) or math.isnan(c) and domain.nan]


def atoms(domain: AtomDomain) -> st.SearchStrategy[Any]:
    """Members of an atom domain, edges first."""
    if domain.carrier is float:
        lower, upper = domain.bounds if domain.bounds is not None else (None, None)
        finite_bounds = domain.bounds is not None and all(map(math.isfinite, domain.bounds))
        general = st.floats(min_value=lower, max_value=upper, allow_nan=domain.nan,
                            allow_infinity=not finite_bounds)
        return st.one_of(st.sampled_from(_float_edges(domain)), general).filter(
            lambda x: domain.member(x))
    if domain.carrier is int:
        lower, upper = domain.bounds if domain.bounds is not None else (None, None)
        edges = [e for e in (0, 1, -1, lower, upper, 2 ** 50, -2 ** 50)
                 if e is not None and domain.member(e)]
        return st.one_of(st.sampled_from(edges), st.integers(lower, upper))
    if domain.carrier is bool:
        return st.booleans()
    if domain.carrier is str:
        return st.text(max_size=4)
    raise NoStrategyError(f"no strategy for atoms of type {domain.carrier.__name__}; "
                          "test with explicit pairs instead")


def datasets(domain: Any) -> st.SearchStrategy[Any]:
    """Members of a domain: atoms, vectors (up to MAX_VECTOR long), sized vectors, products."""
    if isinstance(domain, AtomDomain):
        return atoms(domain)
    if isinstance(domain, VectorDomain):
        return st.lists(atoms(domain.element), max_size=MAX_VECTOR)
    if isinstance(domain, SizedDomain):
        return st.lists(atoms(domain.inner.element), min_size=domain.size, max_size=domain.size)
    if isinstance(domain, ProductDomain):
        return st.tuples(*map(datasets, domain.components))
    raise NoStrategyError(f"no strategy for the domain {domain}")


@st.composite
def _edited(draw: Any, domain: VectorDomain, d_in: int) -> tuple[list, list]:
    """``w`` is ``v`` with some rows deleted and others inserted, ``deleted + inserted <= d_in``."""
    v = draw(st.lists(atoms(domain.element), max_size=MAX_VECTOR))
    deletions = draw(st.integers(0, min(d_in, len(v))))
    w = list(v)
    for _ in range(deletions):
        w.pop(draw(st.integers(0, len(w) - 1)))
    for _ in range(draw(st.integers(0, d_in - deletions))):
        w.insert(draw(st.integers(0, len(w))), draw(atoms(domain.element)))
    return v, w


@st.composite
def _substituted(draw: Any, domain: SizedDomain, d_in: int) -> tuple[list, list]:
    """Same size: ``d_in // 2`` rows replaced (symmetric distance 2 each)."""
    element = atoms(domain.inner.element)
    v = draw(st.lists(element, min_size=domain.size, max_size=domain.size))
    w = list(v)
    for position in draw(st.lists(st.integers(0, domain.size - 1), unique=True,
                                  max_size=min(d_in // 2, domain.size))):
        w[position] = draw(element)
    return v, w


@st.composite
def _shifted(draw: Any, domain: AtomDomain, d_in: Any) -> tuple[Any, Any]:
    """``x' = x + delta`` with ``|delta| <= d_in``, kept in the domain."""
    x = draw(atoms(domain).filter(lambda a: not isinstance(a, float) or math.isfinite(a)))
    if domain.carrier is int:
        shifted = x + draw(st.integers(-int(d_in), int(d_in)))
    else:
        shifted = x + draw(st.sampled_from([d_in, -d_in]) | st.floats(-d_in, d_in))
    if not domain.member(shifted) or abs(Fraction(shifted) - Fraction(x)) > Fraction(d_in):
        shifted = x
    return x, shifted


@st.composite
def _split(draw: Any, domain: ProductDomain, metric: ProductMetric, d_in: int) -> tuple[tuple, tuple]:
    """``d_in`` spread over the partitions, several of them changing at once."""
    parts = len(domain.components)
    budget, shares = d_in, []
    for _ in range(parts):
        share = draw(st.integers(0, budget))
        shares.append(share)
        budget -= share
    pairs = [draw(neighbours(d, m, share))
             for d, m, share in zip(domain.components, metric.components, shares)]
    return tuple(v for v, _ in pairs), tuple(w for _, w in pairs)


def neighbours(domain: Any, metric: Any, d_in: Any) -> st.SearchStrategy[tuple[Any, Any]]:
    """Pairs ``(v, w)`` of ``domain`` with ``metric.distance(v, w) <= d_in``."""
    if isinstance(metric, SymmetricDistance) and isinstance(domain, SizedDomain):
        return _substituted(domain, int(d_in))
    if isinstance(metric, SymmetricDistance) and isinstance(domain, VectorDomain):
        return _edited(domain, int(d_in))
    if isinstance(metric, AbsoluteDistance) and isinstance(domain, AtomDomain):
        return _shifted(domain, d_in)
    if isinstance(metric, DiscreteMetric) and isinstance(domain, AtomDomain):
        same = atoms(domain).map(lambda x: (x, x))
        return same if d_in < 1 else st.tuples(atoms(domain), atoms(domain)) | same
    if isinstance(metric, ProductMetric) and isinstance(domain, ProductDomain):
        return _split(domain, metric, int(d_in))
    raise NoStrategyError(f"no neighbour strategy for {metric} on {domain}")


def draw(strategy: st.SearchStrategy[Any], count: int, seed: int) -> list[Any]:
    """``count`` values of ``strategy``, the same ones for the same ``seed`` (outside a test)."""
    drawn: list[Any] = []

    @hypothesis_seed(seed)
    @settings(max_examples=count, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(value: Any) -> None:
        if len(drawn) < count:
            drawn.append(value)

    collect()
    return drawn
