"""Private quantile whose privacy map is OpenDP's formula for *sized* inputs,
``d_in -> 2 (d_in // 2) max(num, den - num) / (scale * den)`` (rounded up), written over the
catalogue's chain (its function and noise are unchanged): on a sized domain a changed row is two
symmetric steps whose moves on a score partly cancel, and the contributor kept the halving.

Wrong: the domain is unsized, one added row is symmetric distance 1 and ``1 // 2 = 0``: the map
claims ``epsilon = 0`` for neighbours. With candidates ``[0, 10]``, ``alpha = 0.5``, scale 1:
``[-1] * 3`` and ``[-1] * 3 + [5]`` give scores ``[3, 3]`` and ``[2, 4]``; the exact
exponential-mechanism law (mpmath, 40 digits, noise scale ``scale * den = 2``) moves index 1
from ``1/2`` to ``1/(1 + e)``: a loss of ``ln((1 + e)/2) = 0.62 > map(1) = 0``.
Hole classes: 8 (relies on the even distance that only sized domains give).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import exponential_mechanism_law, mp  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_private_quantile import build_private_quantile, make_private_quantile  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_private_quantile import private_quantile_obligations  # noqa: E402

CONSTRUCTOR = "make_private_quantile"
CLASSES = (8,)


def sized_rule(d_in, num, den, scale):
    return div_up(2 * ops.floor_div(d_in, 2) * ops.maximum(num, den - num), scale * den)


def build(candidates, alpha, scale, atom_domain=None):
    m = build_private_quantile(candidates, alpha, scale, atom_domain)
    scores = m.function.first
    return replace(m, privacy_map=Map(rule=sized_rule, params={
        "num": scores.num, "den": scores.den, "scale": scale}))


make_pq_sized = make_private_quantile.variant("make_private_quantile_sized", build)
MECHANISMS = [Entry("outsider_pq_sized_map", make_pq_sized,
                    private_quantile_obligations(make_pq_sized, "outsider_pq_sized_map"))]


def law(m, x):
    return exponential_mechanism_law(m.function.second.gammas(m.function.first(x)))


def witness() -> str:
    mpmath.mp.dps = 40
    m = make_pq_sized([0, 10], 0.5, 1.0)
    x, y = [-1] * 3, [-1] * 3 + [5]
    assert m.input_domain.member(x) and m.input_domain.member(y)
    assert m.input_metric.distance(x, y) == 1
    p, q = law(m, x), law(m, y)
    loss = max(abs(mpmath.log(a / b)) for a, b in zip(p, q))
    assert loss > mp(m.map(1)) and m.map(1) == 0
    return f"{x} vs {y}: scores {m.function.first(x)} / {m.function.first(y)}, loss {float(loss):.4f} > map(1) = {m.map(1)}"
