"""Noisy top-k whose pure-DP map is report-noisy-max's ``w d_in / scale``, without the factor
``k`` (the contributor reasoned "it is one Gumbel draw per score, like noisy max, then a sort").

Wrong: peeling releases ``k`` exponential-mechanism draws and each one can leak its own
``w d_in / scale``. With ``k = 2``, scale 1 and 40 candidates, ``s = [0, 0, 1, ..., 1]`` vs
``s' = [1, 1, 0, ..., 0]`` (LInf 1), the output ``(0, 1)`` has probability ratio
``e(2 + 38e)/(2e + 38) * e(1 + 38e)/(e + 38)``, a loss of about 3.83 > ``map(1) = 2``
(law of the real function's rounds, from its own selector's ``gammas``, mpmath at 40 digits).
(One-shot Gumbel top-k has the same law as peeling, so it costs the same ``k`` rounds.)
Hole classes: none listed (a wrong map constant: ``k`` dropped).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import mp  # noqa: E402
from _top_k_law import max_loss, peel_law  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_noisy_top_k import (MEASURE_MAPS, build_noisy_top_k,  # noqa: E402
                                         make_noisy_top_k)
from mechanisms.measures import MaxDivergence  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_noisy_top_k import noisy_top_k_obligations  # noqa: E402

CONSTRUCTOR = "make_noisy_top_k"
CLASSES = ()


def per_round_pure_map(d_in, k, scale, width):
    """``w d_in / scale``: the cost of one noisy max (``k`` unused)."""
    return div_up(width * d_in, scale)


def build(k, scale, optimize="max", measure=MaxDivergence(), monotonic=False, T=float):
    m = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    if isinstance(measure, MaxDivergence):
        m = replace(m, privacy_map=Map(rule=per_round_pure_map, params=m.privacy_map.params))
    return m


make_topk_per_round = make_noisy_top_k.variant("make_noisy_top_k_per_round_map", build)
MECHANISMS = [Entry("outsider_topk_per_round_map", make_topk_per_round,
                    noisy_top_k_obligations(make_topk_per_round, "outsider_topk_per_round_map"))]


def witness() -> str:
    m = make_topk_per_round(2, 1.0)
    s, s2 = [0.0, 0.0] + [1.0] * 38, [1.0, 1.0] + [0.0] * 38
    assert m.input_domain.member(s) and m.input_domain.member(s2)
    assert m.input_metric.distance(s, s2) == 1
    loss, y = max_loss(peel_law(m.function, s2), peel_law(m.function, s))
    assert loss > mp(m.map(1)), (loss, m.map(1))
    return f"k 2, scale 1, 40 candidates: output {y} loss {float(loss):.4f} > map(1) = {m.map(1)}"
