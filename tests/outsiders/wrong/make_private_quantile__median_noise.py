"""Private quantile whose noise scale is ``2 * scale`` ("scores are in half rows": ``den = 2``,
true of the median the feature was written and tested for) and whose map is OpenDP's documented
formula ``2 d_in max(alpha', 1 - alpha') / scale`` with ``alpha' = num / den`` (rounded up).

Wrong for every ``alpha`` whose fraction is not in halves: the scores are in units of ``1/den``
row, so the exponential mechanism runs at ``2 scale / den`` rows, not ``scale``. With
``alpha = 0.25`` (``1/4``: scores ``|3 #{x < c} - #{x > c}|``, one row moves a score by 3), scale
1 and candidates ``[0, 10]``: ``[-1]*10 + [5]*10`` has scores ``[20, 60]``; one more ``5`` gives
``[19, 63]``; at noise scale 2 the probability of index 1 drops by ``e^2`` (up to ``1e-8``):
loss ``2.0 > map(1) = 1.5``.
Hole classes: 12 (a mutated constant the proof might borrow: the median's denominator).
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
from mechanisms.make_chain_mt import make_chain_mt  # noqa: E402
from mechanisms.make_private_quantile import make_private_quantile  # noqa: E402
from mechanisms.make_quantile_score_candidates import make_quantile_score_candidates  # noqa: E402
from mechanisms.make_report_noisy_max import make_report_noisy_max  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_private_quantile import private_quantile_obligations  # noqa: E402

CONSTRUCTOR = "make_private_quantile"
CLASSES = (12,)

MEDIAN_DEN = 2


def documented_rule(d_in, num, den, scale):
    """``2 d_in max(num, den - num) / (den scale)``, rounded up."""
    return div_up(2 * d_in * ops.maximum(num, den - num), den * scale)


def build(candidates, alpha, scale, atom_domain=None):
    scores = make_quantile_score_candidates(candidates, alpha, atom_domain)
    selection = make_report_noisy_max(scale * MEDIAN_DEN, optimize="min", T=int)
    m = make_chain_mt(selection, scores)
    return replace(m, privacy_map=Map(rule=documented_rule, params={
        "num": scores.function.num, "den": scores.function.den, "scale": scale}))


make_pq_median = make_private_quantile.variant("make_private_quantile_median_noise", build)
MECHANISMS = [Entry("outsider_pq_median_noise", make_pq_median,
                    private_quantile_obligations(make_pq_median, "outsider_pq_median_noise"))]


def law(m, x):
    return exponential_mechanism_law(m.function.second.gammas(m.function.first(x)))


def witness() -> str:
    mpmath.mp.dps = 40
    m = make_pq_median([0, 10], 0.25, 1.0)
    x = [-1] * 10 + [5] * 10
    y = x + [5]
    assert m.input_domain.member(x) and m.input_domain.member(y)
    assert m.input_metric.distance(x, y) == 1
    p, q = law(m, x), law(m, y)
    loss = max(abs(mpmath.log(a / b)) for a, b in zip(p, q))
    assert loss > mp(m.map(1)), (loss, m.map(1))
    return (f"alpha 0.25, scale 1: scores {m.function.first(x)} -> {m.function.first(y)}, "
            f"loss {float(loss):.6f} > map(1) = {m.map(1)}")
