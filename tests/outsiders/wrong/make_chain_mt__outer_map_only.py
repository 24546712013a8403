"""Measurement chain whose privacy map is ``outer.map(d_in)`` ("the noise is what's private"),
forgetting the inner transformation's stability.

Wrong: an int sum on ``[0, 10]`` (map ``10 d``) then discrete Laplace of scale 1: ``[]`` and ``[10]``
(``d_in = 1``) have sums 10 apart, a privacy loss of exactly ``10 / 1``, claimed ``1``.
Hole classes: none listed (plain map bug in a chain).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dl_shift_loss, exact, sampler_scale  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_bounded_int_sum import make_bounded_int_sum  # noqa: E402
from mechanisms.make_chain_mt import build_chain_mt, make_chain_mt  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_chain_mt"
CLASSES = ()


def outer_only(d_in, outer):
    return outer(d_in)


def build(outer, inner):
    m = build_chain_mt(outer, inner)
    return replace(m, privacy_map=Map(rule=outer_only, params={"outer": outer.privacy_map}))


make_chain_outer = make_chain_mt.variant("make_chain_mt_outer_only", build)
MECHANISMS = [Entry("outsider_chain_mt_outer_map_only", make_chain_outer)]


def witness() -> str:
    inner, outer = make_bounded_int_sum(0, 10), make_discrete_laplace(1.0)
    m = make_chain_outer(outer, inner)
    v, w = [], [10]
    assert m.input_metric.distance(v, w) == 1
    shift = m.function.first(w) - m.function.first(v)
    loss = dl_shift_loss(shift, sampler_scale(m.function.second))
    assert loss > exact(m.map(1))
    return f"sum then DL(1): privacy loss {loss} > map(1) = {m.map(1)}"
