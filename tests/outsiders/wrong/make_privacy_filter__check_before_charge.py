"""Privacy filter that checks the budget *before* charging: a query is accepted when the privacy
spent so far is within the budget, ``spent <= d_out``, and then ``spent`` becomes
``add_up(spent, cost)`` (the "while budget remains, answer" loop; the new cost is never compared).

Wrong: the last accepted query overshoots the budget by up to its whole cost. Filter ``d_in = 1``,
``d_out = 1.0`` over an odometer on int vectors (symmetric distance, pure DP); two queries
``count >> discrete_laplace(1)``, each of map ``1.0``: the first is accepted at ``spent = 0``,
the second at ``spent = 1.0 <= 1.0``; both are answered. For ``[]`` vs ``[0]`` (distance 1) the
two answers are independent discrete Laplace draws centred at ``0`` and ``1``: at outputs
``(0, 0)`` the likelihood ratio is exactly ``e^(1/1) e^(1/1)``, a loss of ``2 > map(1) = 1.0``.
Hole classes: none listed (an off-by-one-query budget check).
"""

import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dl_shift_loss  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.domains import AtomDomain, VectorDomain  # noqa: E402
from mechanisms.errors import BudgetExceededError  # noqa: E402
from mechanisms.make_count import make_count  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_fully_adaptive_composition import make_fully_adaptive_composition  # noqa: E402
from mechanisms.make_privacy_filter import (FilterStep, PrivacyFilter,  # noqa: E402
                                            build_privacy_filter, make_privacy_filter)
from mechanisms.measures import MaxDivergence  # noqa: E402
from mechanisms.metrics import SymmetricDistance  # noqa: E402
from mechanisms.queryable import Queryable, Step  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_privacy_filter import privacy_filter_obligations  # noqa: E402

CONSTRUCTOR = "make_privacy_filter"
CLASSES = ()


@dataclass(frozen=True)
class CheckFirstStep(FilterStep):
    def __call__(self, spent, query):
        if self.screen is not None:
            self.screen(query)
        accepted = ops.le(spent, self.d_out)
        pending = ops.add_up(spent, query.map(self.d_in))
        return Step(accepted, ops.where(accepted, pending, spent), pending)


@dataclass(frozen=True)
class CheckFirstFilter(PrivacyFilter):
    def __call__(self, arg, rng=None):
        inner = self.odometer(arg, rng)
        return Queryable(CheckFirstStep(self.d_in, self.d_out, inner.transition.screen), 0.0, inner)


def build(odometer, d_in, d_out):
    m = build_privacy_filter(odometer, d_in, d_out)
    return replace(m, function=CheckFirstFilter(odometer.function, d_in, d_out))


make_filter_check_first = make_privacy_filter.variant("make_privacy_filter_check_first", build)
MECHANISMS = [Entry("outsider_filter_check_before_charge", make_filter_check_first,
                    privacy_filter_obligations(make_filter_check_first,
                                               "outsider_filter_check_before_charge"))]


def witness() -> str:
    odometer = make_fully_adaptive_composition(VectorDomain(AtomDomain(int)), SymmetricDistance(),
                                               MaxDivergence())
    m = make_filter_check_first(odometer, 1, 1.0)
    x, y = [], [0]
    assert m.input_metric.distance(x, y) == 1
    query = make_count(int) >> make_discrete_laplace(1.0)
    q = m(x)
    answered = []
    for _ in range(3):
        try:
            q(query)
            answered.append(query)
        except BudgetExceededError:
            pass
    assert len(answered) == 2
    # each answer: count (0 vs 1) plus discrete Laplace of scale 1; at outputs <= 0 the ratio is
    # exactly exp(1 / scale) per answer (independent draws): the transcript's loss is the sum
    loss = sum(dl_shift_loss(1, 1) for _ in answered)
    assert loss > Fraction(m.map(1))
    return f"{len(answered)} queries of map 1.0 answered under d_out = 1.0: loss {loss} > map(1) = {m.map(1)}"
