"""Noisy top-k whose zCDP map takes the bounded-range parameter to be ``eta = d_in / scale`` (the
scores' sensitivity over the scale, as in the exponential mechanism's textbook "sensitivity
Delta"), for both metrics: ``k (d_in / scale)^2 / 8``.

Wrong for the (non-monotonic) ``LInfDistance``: the range of the per-candidate log-probability
changes is ``(s_y - s'_y - s_y' + s'_y') / scale``, up to ``2 d_in / scale``, so each round is
only ``(2 d_in / scale)^2 / 8``-zCDP: the map is 4 times too small. With ``k = 1``, scale 1,
``s = [0, 0]`` vs ``s' = [1, -1]`` (LInf 1): ``KL(P_s || P_s') = ln(1 + e^2) - 1 - ln 2 ~ 0.434``,
and a ``rho``-zCDP pair has ``KL = lim_{alpha -> 1} D_alpha <= rho``; ``map(1) = 0.125``. With
``k = 2`` and 3 candidates the same holds (exact law of the real rounds, mpmath at 40 digits).
(The map is right for ``monotonic=True``, where ``w = 1``.)
Hole classes: none listed (a wrong map constant under one metric).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import mp  # noqa: E402
from _top_k_law import kl, peel_law  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_noisy_top_k import build_noisy_top_k, make_noisy_top_k  # noqa: E402
from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_noisy_top_k import noisy_top_k_obligations  # noqa: E402

CONSTRUCTOR = "make_noisy_top_k"
CLASSES = ()


def sensitivity_zcdp_map(d_in, k, scale, width):
    """``k eta^2 / 8`` with ``eta = d_in / scale`` (``width`` unused)."""
    eta = div_up(d_in, scale)
    return div_up(ops.mul_up(k, ops.mul_up(eta, eta)), 8)


def build(k, scale, optimize="max", measure=MaxDivergence(), monotonic=False, T=float):
    m = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    if isinstance(measure, ZeroConcentratedDivergence):
        m = replace(m, privacy_map=Map(rule=sensitivity_zcdp_map, params=m.privacy_map.params))
    return m


make_topk_zs = make_noisy_top_k.variant("make_noisy_top_k_zcdp_sensitivity_as_range", build)
MECHANISMS = [Entry("outsider_topk_zcdp_sensitivity_as_range", make_topk_zs,
                    noisy_top_k_obligations(make_topk_zs, "outsider_topk_zcdp_sensitivity_as_range"))]


def witness() -> str:
    out = []
    for k, s, s2 in ((1, [0.0, 0.0], [1.0, -1.0]), (2, [0.0, 0.0, 0.0], [1.0, -1.0, 1.0])):
        m = make_topk_zs(k, 1.0, measure=ZeroConcentratedDivergence())
        assert m.input_domain.member(s) and m.input_domain.member(s2)
        assert m.input_metric.distance(s, s2) == 1
        divergence = kl(peel_law(m.function, s), peel_law(m.function, s2))
        assert divergence > mp(m.map(1)), (divergence, m.map(1))
        out.append(f"k {k}: KL {float(divergence):.4f} > map(1) = {m.map(1)}")
    return "scale 1, zCDP: " + "; ".join(out)
