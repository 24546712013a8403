"""Privacy filter that compares each query's cost with the *remaining* budget,
``cost <= d_out - spent`` (the subtraction a float, rounded to nearest), then charges
``spent = add_up(spent, cost)`` (OpenDP-style "remaining budget" bookkeeping, written the way it
reads).

Wrong: ``d_out - spent`` is rounded, up to half an ulp *above* the exact remainder, so a query
whose cost exceeds the exact remainder is accepted. Filter ``d_in = 1``, ``d_out = 1.0``; query A
``count >> discrete_laplace(2^60)`` (map ``2^-60``) is accepted, ``spent = 2^-60``; query B
``count >> discrete_laplace(1)`` (map ``1.0``): ``1.0 <= fl(1.0 - 2^-60) = 1.0``, accepted. Both
are answered: for ``[]`` vs ``[0]`` the two discrete Laplace answers' likelihood ratio at
outputs ``(0, 0)`` is exactly ``e^(2^-60) e^1``, a loss of ``1 + 2^-60 > map(1) = 1.0``.
Hole classes: 4 (a float subtraction where an exact comparison is modelled).
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
CLASSES = (4,)


@dataclass(frozen=True)
class RemainingStep(FilterStep):
    def __call__(self, spent, query):
        if self.screen is not None:
            self.screen(query)
        cost = query.map(self.d_in)
        accepted = ops.le(cost, self.d_out - spent)
        pending = ops.add_up(spent, cost)
        return Step(accepted, ops.where(accepted, pending, spent), pending)


@dataclass(frozen=True)
class RemainingFilter(PrivacyFilter):
    def __call__(self, arg, rng=None):
        inner = self.odometer(arg, rng)
        return Queryable(RemainingStep(self.d_in, self.d_out, inner.transition.screen), 0.0, inner)


def build(odometer, d_in, d_out):
    m = build_privacy_filter(odometer, d_in, d_out)
    return replace(m, function=RemainingFilter(odometer.function, d_in, d_out))


make_filter_remaining = make_privacy_filter.variant("make_privacy_filter_remaining", build)
MECHANISMS = [Entry("outsider_filter_remaining_budget", make_filter_remaining,
                    privacy_filter_obligations(make_filter_remaining,
                                               "outsider_filter_remaining_budget"))]


def witness() -> str:
    odometer = make_fully_adaptive_composition(VectorDomain(AtomDomain(int)), SymmetricDistance(),
                                               MaxDivergence())
    m = make_filter_remaining(odometer, 1, 1.0)
    x, y = [], [0]
    assert m.input_metric.distance(x, y) == 1
    scales = [2.0 ** 60, 1.0]
    q = m(x)
    for scale in scales:
        q(make_count(int) >> make_discrete_laplace(scale))  # both accepted (no BudgetExceededError)
    assert q.state > 1.0
    # each answer: count (0 vs 1) plus discrete Laplace; at outputs <= 0 the ratio is exactly
    # exp(1 / scale) per answer (independent draws): the transcript's loss is the exact sum
    loss = sum(dl_shift_loss(1, s) for s in scales)
    assert loss > Fraction(m.map(1))
    return f"maps 2^-60 and 1.0 both answered under d_out = 1.0: loss 1 + 2^-60 > map(1) = {m.map(1)}"
