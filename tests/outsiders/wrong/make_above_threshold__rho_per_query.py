"""AboveThreshold whose function object (a subclass) redraws the threshold noise for every
query ("fresh noise is more private") — the known broken SVT variant (Lyu, Su and Li 2017).

Wrong law: with independent ``rho_i`` the "none above" event factorises, so its log-ratio grows
linearly with the number of queries. 10 queries, threshold 0, scale 1, ``x = [0]*10`` vs
``x' = [1]*10`` (LInf 1): log-ratio of output 10 is 10 times a one-query log-ratio of about 0.43
(mpmath, truncated sums with their left-out mass in the denominator), above ``map(1) = 2``.
Hole classes: 7 (a sampler whose law is wrong), 2 (a subclass overrides ``__call__``).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import above_threshold_prob, loss_lower_bound, mp  # noqa: E402
from mechanisms.make_above_threshold import (AboveThreshold, build_above_threshold,  # noqa: E402
                                             make_above_threshold)
from mechanisms.samplers import sample_discrete_laplace, system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_above_threshold import above_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_above_threshold"
CLASSES = (7, 2)


@dataclass(frozen=True)
class FreshThresholdAboveThreshold(AboveThreshold):
    def __call__(self, answers, rng=None):
        rng = system_rng(rng)
        for index, answer in enumerate(answers):
            rho = sample_discrete_laplace(self.threshold_noise_scale(self.scale), rng)
            nu = sample_discrete_laplace(self.query_noise_scale(self.scale), rng)
            if self.above(answer, nu, self.threshold, rho):
                return index
        return self.exhausted(len(answers))


def build(scale, threshold):
    m = build_above_threshold(scale, threshold)
    return replace(m, function=FreshThresholdAboveThreshold(scale, threshold))


make_at_fresh = make_above_threshold.variant("make_above_threshold_fresh_rho", build)
MECHANISMS = [Entry("outsider_at_rho_per_query", make_at_fresh,
                    above_threshold_obligations(make_at_fresh, "outsider_at_rho_per_query"))]


def witness() -> str:
    m = make_at_fresh(1.0, 0)
    f = m.function
    rho_scale, nu_scale = f.threshold_noise_scale(f.scale), f.query_noise_scale(f.scale)
    k = 10
    # one query, output 1 = "not above"; independent per query, so output k is the k-th power
    p = above_threshold_prob(1, [0], f.threshold, rho_scale, nu_scale)
    q = above_threshold_prob(1, [1], f.threshold, rho_scale, nu_scale)
    loss = k * loss_lower_bound(p, q)
    assert m.input_metric.distance([0] * k, [1] * k) == 1
    assert loss > mp(m.map(1))
    return f"{k} queries, scale 1: ln Pr[none | 0s] / Pr[none | 1s] >= {float(loss):.4f} > map(1) = {m.map(1)}"
