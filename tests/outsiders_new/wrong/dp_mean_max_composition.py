"""make_dp_sum_and_count_max(lower, upper, sum_scale, count_scale): a DP mean's noisy sum and
noisy count released together (catalogue ``make_basic_composition`` of two catalogue chains),
whose privacy map the author replaced by the MAX of the two maps ("the sum and the count are two
statistics of one column, so the budget is the larger one").

MISTAKE: sequential composition on the same data adds the losses; a max is the map of parallel
composition over disjoint parts. One added row moves the sum by ``upper`` and the count by 1 at
once, so the loss is ``upper/sum_scale + 1/count_scale``.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from mechanisms import ops
from mechanisms.core import Constructor, Map
from mechanisms.make_basic_composition import make_basic_composition
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_clamp import make_clamp
from mechanisms.make_count import make_count
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.samplers import sample_discrete_laplace
from obligations.base import Entry, example


def max_of_maps(d_in, maps):
    return ops.fold(ops.maximum, [m(d_in) for m in maps])


def build_dp_sum_and_count_max(lower, upper, sum_scale, count_scale):
    noisy_sum = (make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper)
                 >> make_discrete_laplace(sum_scale))
    noisy_count = make_count(int) >> make_discrete_laplace(count_scale)
    both = make_basic_composition([noisy_sum, noisy_count])
    return replace(both, privacy_map=Map(rule=max_of_maps, params={
        "maps": (noisy_sum.privacy_map, noisy_count.privacy_map)}))


make_dp_sum_and_count_max = Constructor("make_dp_sum_and_count_max", build_dp_sum_and_count_max)
MECHANISMS = [Entry("make_dp_sum_and_count_max", make_dp_sum_and_count_max,
                    examples=(example("make_dp_sum_and_count_max(0, 10, 10.0, 1.0)",
                                      "from dp_mean_max_composition import make_dp_sum_and_count_max"),))]


def witness() -> str:
    m = make_dp_sum_and_count_max(0, 10, 10.0, 1.0)
    v, w = [], [10]
    assert m.input_metric.distance(v, w) == 1
    # the real code: (sum + Y1, count + Y2), Y1 ~ DL(10), Y2 ~ DL(1), drawn in order
    for seed in range(50):
        rng = random.Random(seed)
        y1, y2 = sample_discrete_laplace(Fraction(10), rng), sample_discrete_laplace(Fraction(1), rng)
        assert m(v, random.Random(seed)) == (y1, y2)
        assert m(w, random.Random(seed)) == (10 + y1, 1 + y2)
    # exact product law: ln P_v(a, b) - ln P_w(a, b) = (|a-10| - |a|)/10 + (|b-1| - |b|)/1; at (0, 0)
    a, b = 0, 0
    loss = Fraction(abs(a - 10) - abs(a), 10) + Fraction(abs(b - 1) - abs(b), 1)
    claimed = m.map(1)
    assert loss > Fraction(claimed), (loss, claimed)
    return f"[] vs [10] (d_in=1): exact loss at output (0, 0) = {loss} > claimed max map(1) = {claimed}"
