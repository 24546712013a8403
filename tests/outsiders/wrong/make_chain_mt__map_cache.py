"""Measurement chain whose map memoises concrete ``d_in`` in a module-level cache ("maps are
evaluated in loops by accountants"); solver terms bypass the cache.

Wrong: the cache key is ``d_in`` only, shared by every chain, so a second chain returns the first
chain's value. Build ``sum[0, 1] >> DL(1)`` and ask ``map(1) = 1.0``; then ``sum[0, 10] >> DL(1)``
answers ``map(1) = 1.0`` too, while ``[]`` vs ``[10]`` costs exactly 10.
Hole classes: 3 (a combinator caching keyed wrongly), 11 (the solver never sees the cache).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dl_shift_loss, exact, sampler_scale  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_bounded_int_sum import make_bounded_int_sum  # noqa: E402
from mechanisms.make_chain_mt import build_chain_mt, make_chain_mt  # noqa: E402
from mechanisms.make_chain_tt import chained_map  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_chain_mt"
CLASSES = (3, 11)

_CACHE = {}


def cached_chain_map(d_in, outer, inner):
    if ops.is_symbolic(d_in):
        return chained_map(d_in, outer, inner)
    if d_in not in _CACHE:
        _CACHE[d_in] = chained_map(d_in, outer, inner)
    return _CACHE[d_in]


def build(outer, inner):
    m = build_chain_mt(outer, inner)
    return replace(m, privacy_map=Map(rule=cached_chain_map, params={
        "outer": outer.privacy_map, "inner": inner.stability_map}))


make_chain_cached = make_chain_mt.variant("make_chain_mt_cached", build)
MECHANISMS = [Entry("outsider_chain_mt_map_cache", make_chain_cached)]


def witness() -> str:
    _CACHE.clear()
    first = make_chain_cached(make_discrete_laplace(1.0), make_bounded_int_sum(0, 1))
    assert first.map(1) == 1.0
    m = make_chain_cached(make_discrete_laplace(1.0), make_bounded_int_sum(0, 10))
    shift = m.function.first([10]) - m.function.first([])
    loss = dl_shift_loss(shift, sampler_scale(m.function.second))
    assert loss > exact(m.map(1))
    return f"second chain: privacy loss {loss} > cached map(1) = {m.map(1)}"
