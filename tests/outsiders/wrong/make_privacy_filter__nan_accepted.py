"""Privacy filter whose acceptance test is written as the refusal's negation, "refuse when the
new total is over budget": ``accepted = not (pending > d_out)`` (``ops.negate(ops.lt(d_out,
pending))``), everything else the catalogue's.

Wrong: the two tests differ exactly on NaN, and a query's map can be NaN (any measurement of the
odometer's domain, metric and measure is a query; here a data-independent one whose map is
``inf - inf``, "cost unknown"). It is accepted, ``spent`` becomes NaN, and from then on every
``pending = add_up(NaN, c)`` is NaN and accepted: the filter answers without limit. Filter
``d_in = 1``, ``d_out = 1.0``: after the NaN-map query, five ``count >> discrete_laplace(1)``
queries (map ``1.0`` each) are all answered; for ``[]`` vs ``[0]`` the transcript's likelihood
ratio at outputs ``<= 0`` is exactly ``e^5`` (the NaN query's answer does not depend on the
data): loss ``5 > map(1) = 1.0``. (The catalogue refuses the NaN cost and answers one query.)
Hole classes: none listed (plain NaN-handling bug).
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
from mechanisms.core import Map, Measurement  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_privacy_filter import privacy_filter_obligations  # noqa: E402

CONSTRUCTOR = "make_privacy_filter"
CLASSES = ()


@dataclass(frozen=True)
class NotOverStep(FilterStep):
    def __call__(self, spent, query):
        if self.screen is not None:
            self.screen(query)
        pending = ops.add_up(spent, query.map(self.d_in))
        accepted = ops.negate(ops.lt(self.d_out, pending))
        return Step(accepted, ops.where(accepted, pending, spent), pending)


@dataclass(frozen=True)
class NotOverFilter(PrivacyFilter):
    def __call__(self, arg, rng=None):
        inner = self.odometer(arg, rng)
        return Queryable(NotOverStep(self.d_in, self.d_out, inner.transition.screen), 0.0, inner)


def build(odometer, d_in, d_out):
    m = build_privacy_filter(odometer, d_in, d_out)
    return replace(m, function=NotOverFilter(odometer.function, d_in, d_out))


make_filter_not_over = make_privacy_filter.variant("make_privacy_filter_not_over", build)
MECHANISMS = [Entry("outsider_filter_nan_accepted", make_filter_not_over,
                    privacy_filter_obligations(make_filter_not_over,
                                               "outsider_filter_nan_accepted"))]


def unknown_cost(d_in):
    return float("inf") - float("inf")


def constant_answer(x, rng=None):
    return 0


def witness() -> str:
    odometer = make_fully_adaptive_composition(VectorDomain(AtomDomain(int)), SymmetricDistance(),
                                               MaxDivergence())
    m = make_filter_not_over(odometer, 1, 1.0)
    x, y = [], [0]
    assert m.input_metric.distance(x, y) == 1
    laplace = make_count(int) >> make_discrete_laplace(1.0)
    unknown = Measurement(laplace.input_domain, laplace.output_domain, laplace.input_metric,
                          laplace.output_measure, constant_answer, Map(rule=unknown_cost))
    q = m(x)
    q(unknown)
    for _ in range(5):
        q(laplace)  # no BudgetExceededError
    loss = sum(dl_shift_loss(1, 1) for _ in range(5))
    assert loss > Fraction(m.map(1))
    return f"NaN-map query, then 5 queries of map 1.0 answered under d_out = 1.0: loss {loss} > map(1) = {m.map(1)}"
