"""Private quantile chained over a score transformation whose stability map is stated "in rows",
``d_in * max(alpha', 1 - alpha')`` with ``alpha' = num / den`` (the noise scale ``scale * den``
is in units of ``1/den`` row, so the contributor thought the score's sensitivity should be in
rows too), the noisy max and the chain the catalogue's: the chain's map is then
``2 d_in max(alpha', 1 - alpha') / (scale den)``, ``den`` times too small.

Wrong: the scores are integers in units of ``1/den`` row and move by ``max(num, den - num)``.
With ``alpha = 0.5``, scale 1, candidates ``[0, 10]``: ``[-1]*30 + [5]*10`` has scores
``[20, 40]``; one more ``5`` gives ``[19, 41]``; at noise scale ``2`` the probability of index
1 drops by ``e^1`` (up to ``1e-4``): loss ``~1.0 > map(1) = 0.5``.
Hole classes: none listed (a wrong map constant in a component: the score's units).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import exponential_mechanism_law, mp  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_chain_mt import make_chain_mt  # noqa: E402
from mechanisms.make_private_quantile import make_private_quantile, noise_scale  # noqa: E402
from mechanisms.make_quantile_score_candidates import make_quantile_score_candidates  # noqa: E402
from mechanisms.make_report_noisy_max import make_report_noisy_max  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_private_quantile import private_quantile_obligations  # noqa: E402

CONSTRUCTOR = "make_private_quantile"
CLASSES = ()


def rows_constant(scores):
    return ops.maximum(scores.num, scores.den - scores.num) / scores.den


def build(candidates, alpha, scale, atom_domain=None):
    t = make_quantile_score_candidates(candidates, alpha, atom_domain)
    scores = replace(t, stability_map=Map(constant=rows_constant, params={"scores": t.function}))
    selection = make_report_noisy_max(noise_scale(scale, t.function.den), optimize="min", T=int)
    return make_chain_mt(selection, scores)


make_pq_rows = make_private_quantile.variant("make_private_quantile_rows_score_map", build)
MECHANISMS = [Entry("outsider_pq_rows_score_map", make_pq_rows,
                    private_quantile_obligations(make_pq_rows, "outsider_pq_rows_score_map"))]


def law(m, x):
    return exponential_mechanism_law(m.function.second.gammas(m.function.first(x)))


def witness() -> str:
    mpmath.mp.dps = 40
    m = make_pq_rows([0, 10], 0.5, 1.0)
    x = [-1] * 30 + [5] * 10
    y = x + [5]
    assert m.input_domain.member(x) and m.input_domain.member(y)
    assert m.input_metric.distance(x, y) == 1
    p, q = law(m, x), law(m, y)
    loss = max(abs(mpmath.log(a / b)) for a, b in zip(p, q))
    assert loss > mp(m.map(1)), (loss, m.map(1))
    return (f"alpha 0.5, scale 1: scores {m.function.first(x)} -> {m.function.first(y)}, "
            f"loss {float(loss):.6f} > map(1) = {m.map(1)}")
