"""AboveThreshold whose function object carries its own noise scales, built as
``rho_scale = scale / 2`` ("half the budget for the threshold") and ``nu_scale = 2 scale``, while
the map stays ``2 d / scale``.

Wrong: the privacy cost is ``d / rho_scale + 2 d / nu_scale = 3 d / scale``, and it is attained:
20 queries, threshold 0, scale 1, ``x = [0]*19 + [-1]`` vs ``x' = [1]*19 + [-2]`` (LInf 1); the
probability of output 19 has log-ratio at least 2.99 (mpmath, the sum over the threshold noise
truncated to |rho| <= 80 and its left-out mass added to the denominator), above ``map(1) = 2``.
Hole classes: 1 (the function object's own copy of a scale is a transformed argument).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from typing import Any  # noqa: E402

from _exact import above_threshold_prob, loss_lower_bound, mp  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.make_above_threshold import above, build_above_threshold, make_above_threshold  # noqa: E402
from mechanisms.samplers import sample_discrete_laplace, system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_above_threshold import above_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_above_threshold"
CLASSES = (1,)


@dataclass(frozen=True)
class SplitBudgetAboveThreshold:
    rho_scale: Any
    nu_scale: Any
    threshold: Any

    def __call__(self, answers, rng=None):
        rng = system_rng(rng)
        rho = sample_discrete_laplace(ops.exact(self.rho_scale), rng)
        for index, answer in enumerate(answers):
            nu = sample_discrete_laplace(ops.exact(self.nu_scale), rng)
            if above(answer, nu, self.threshold, rho):
                return index
        return len(answers)


def build(scale, threshold):
    m = build_above_threshold(scale, threshold)
    return replace(m, function=SplitBudgetAboveThreshold(scale / 2, 2 * scale, threshold))


make_at_split = make_above_threshold.variant("make_above_threshold_split", build)
MECHANISMS = [Entry("outsider_at_threshold_noise_half", make_at_split,
                    above_threshold_obligations(make_at_split, "outsider_at_threshold_noise_half"))]


def witness() -> str:
    m = make_at_split(1.0, 0)
    f = m.function
    x, x2 = [0] * 19 + [-1], [1] * 19 + [-2]
    assert m.input_metric.distance(x, x2) == 1
    p = above_threshold_prob(19, x, f.threshold, f.rho_scale, f.nu_scale)
    q = above_threshold_prob(19, x2, f.threshold, f.rho_scale, f.nu_scale)
    loss = loss_lower_bound(p, q)
    assert loss > mp(m.map(1))
    return f"20 queries, scale 1: ln Pr[19 | x] / Pr[19 | x'] >= {float(loss):.4f} > map(1) = {m.map(1)}"
