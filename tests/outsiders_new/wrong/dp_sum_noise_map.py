"""make_dp_sum_eps(lower, upper, scale): a DP bounded int sum (catalogue chain
``make_bounded_int_sum >> make_discrete_laplace``) whose privacy map the author replaced by the
noise's own map ``d_in / scale``, "so that the reported epsilon is the noise's".

MISTAKE: the map forgets the sum's sensitivity ``max(|lower|, |upper|)``: one added row moves the
sum by up to ``max(|L|, |U|)``, so the true loss is ``d_in * max(|L|, |U|) / scale``. The build
uses ``dataclasses.replace`` on the chain (README warns that a part changed with
``dataclasses.replace`` has no record; the author did it anyway to "fix" the epsilon).
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from mechanisms.core import Constructor
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.samplers import sample_discrete_laplace
from obligations.base import Entry, example


def build_dp_sum_eps(lower, upper, scale):
    noise = make_discrete_laplace(scale)
    chain = make_bounded_int_sum(lower, upper) >> noise
    return replace(chain, privacy_map=noise.privacy_map)


make_dp_sum_eps = Constructor("make_dp_sum_eps", build_dp_sum_eps)
MECHANISMS = [Entry("make_dp_sum_eps", make_dp_sum_eps,
                    examples=(example("make_dp_sum_eps(0, 10, 1.0)",
                                      "from dp_sum_noise_map import make_dp_sum_eps"),))]


def witness() -> str:
    lower, upper, scale = 0, 10, 1.0
    m = make_dp_sum_eps(lower, upper, scale)
    v, w = [], [10]  # one added row: symmetric distance 1
    assert m.input_metric.distance(v, w) == 1
    # the real code releases sum + Y, Y the catalogue's discrete Laplace of scale 1 (same draws)
    for seed in range(50):
        assert m(v, random.Random(seed)) == 0 + sample_discrete_laplace(Fraction(scale), random.Random(seed))
        assert m(w, random.Random(seed)) == 10 + sample_discrete_laplace(Fraction(scale), random.Random(seed))
    # exact law: Pr[M(v) = y] / Pr[M(w) = y] = exp((|y - 10| - |y - 0|) / scale); at y = 0 the
    # log-ratio is exactly 10 / scale (normalisers cancel)
    y = 0
    loss = Fraction(abs(y - 10) - abs(y - 0)) / Fraction(scale)
    claimed = m.map(1)
    assert loss > Fraction(claimed), (loss, claimed)
    return f"[] vs [10] (d_in=1): exact loss ln(P(0)/P'(0)) = {loss} > claimed map(1) = {claimed}"
