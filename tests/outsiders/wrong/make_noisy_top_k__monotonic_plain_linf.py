"""Noisy top-k whose ``monotonic=True`` branch keeps the plain ``LInfDistance`` as its input
metric (the contributor changed the range factor ``w`` to 1 but forgot to switch the metric
class to ``MonotonicLInfDistance``).

Wrong: the built metric admits score changes in both directions at distance ``d_in``, for which
a round's log-probability ratio reaches ``2 d_in / scale``; the map claims ``k d_in / scale``.
With ``k = 1``, scale 1, 20 candidates, ``s = [0, 1, ..., 1]`` vs ``s' = [1, 0, ..., 0]``
(``LInfDistance`` 1, not a monotonic change), index 0's probability grows by
``e (1 + 19 e) / (e + 19)``, a loss of about 1.88 > ``map(1) = 1``; with ``k = 2`` and
``[0, 0, 1, ..., 1]`` vs ``[1, 1, 0, ..., 0]`` (40 candidates) a loss of about 3.83 > 2
(law of the real rounds, mpmath at 40 digits).
Hole classes: none listed (an input metric that does not fit the map).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import mp  # noqa: E402
from _top_k_law import max_loss, peel_law  # noqa: E402
from mechanisms.make_noisy_top_k import build_noisy_top_k, make_noisy_top_k  # noqa: E402
from mechanisms.measures import MaxDivergence  # noqa: E402
from mechanisms.metrics import LInfDistance  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_noisy_top_k import noisy_top_k_obligations  # noqa: E402

CONSTRUCTOR = "make_noisy_top_k"
CLASSES = ()


def build(k, scale, optimize="max", measure=MaxDivergence(), monotonic=False, T=float):
    return replace(build_noisy_top_k(k, scale, optimize, measure, monotonic, T),
                   input_metric=LInfDistance())


make_topk_plain = make_noisy_top_k.variant("make_noisy_top_k_monotonic_plain_linf", build)
MECHANISMS = [Entry("outsider_topk_monotonic_plain_linf", make_topk_plain,
                    noisy_top_k_obligations(make_topk_plain, "outsider_topk_monotonic_plain_linf"))]


def witness() -> str:
    out = []
    for k, lows in ((1, 1), (2, 2)):
        n = 20 * k
        m = make_topk_plain(k, 1.0, monotonic=True)
        s, s2 = [0.0] * lows + [1.0] * (n - lows), [1.0] * lows + [0.0] * (n - lows)
        assert m.input_domain.member(s) and m.input_metric.distance(s, s2) == 1
        loss, y = max_loss(peel_law(m.function, s2), peel_law(m.function, s))
        assert loss > mp(m.map(1)), (loss, m.map(1))
        out.append(f"k {k}, {n} candidates: output {y} loss {float(loss):.4f} > map(1) = {m.map(1)}")
    return "monotonic=True, scale 1: " + "; ".join(out)
