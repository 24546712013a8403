"""Odometer whose transition composes the new query's map with the module's starting state,
``Map(rule=spent_after, params={"before": NOTHING_SPENT, "last": query.privacy_map})`` (a typo
for the current ``state``: both are "what was spent before"), everything else the catalogue's.

Wrong: every answer resets the record, so ``privacy_loss`` reports the last query's map only.
After ``count >> discrete_laplace(1)`` and ``count >> discrete_laplace(10)``,
``privacy_loss(1) = 0.1``; for ``[]`` vs ``[0]`` the two answers' likelihood ratio at outputs
``(0, 0)`` is exactly ``e^1 e^0.1``: loss ``1.1 > 0.1``.
Hole classes: none listed (a plain composition bug: the state dropped).
"""

import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from _exact import dl_shift_loss  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.domains import AtomDomain, VectorDomain  # noqa: E402
from mechanisms.make_count import make_count  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_fully_adaptive_composition import (NOTHING_SPENT, OdometerFunction,  # noqa: E402
                                                        OdometerStep,
                                                        make_fully_adaptive_composition,
                                                        spent_after)
from mechanisms.measures import MaxDivergence  # noqa: E402
from mechanisms.metrics import SymmetricDistance  # noqa: E402
from mechanisms.queryable import Odometer, Queryable, QueryRunner, Step  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_fully_adaptive_composition import fully_adaptive_obligations  # noqa: E402

CONSTRUCTOR = "make_fully_adaptive_composition"
CLASSES = ()


@dataclass(frozen=True)
class ResetStep(OdometerStep):
    def __call__(self, state, query):
        self.screen(query)
        return Step(True, Map(rule=spent_after, params={"before": NOTHING_SPENT,
                                                        "last": query.privacy_map}))


@dataclass(frozen=True)
class ResetFunction(OdometerFunction):
    def __call__(self, arg, rng=None):
        return Queryable(ResetStep(self.input_domain, self.input_metric, self.output_measure),
                         NOTHING_SPENT, QueryRunner(arg, rng))


def build(input_domain, input_metric, output_measure):
    return Odometer(input_domain, input_metric, output_measure,
                    ResetFunction(input_domain, input_metric, output_measure))


make_odometer_reset = make_fully_adaptive_composition.variant("make_odometer_reset_before", build)
MECHANISMS = [Entry("outsider_odometer_reset_before", make_odometer_reset,
                    fully_adaptive_obligations(make_odometer_reset, "outsider_odometer_reset_before"))]


def witness() -> str:
    o = make_odometer_reset(VectorDomain(AtomDomain(int)), SymmetricDistance(), MaxDivergence())
    x, y = [], [0]
    assert o.input_metric.distance(x, y) == 1
    scales = [1.0, 10.0]
    q = o(x, random.Random(0))
    for s in scales:
        q(make_count(int) >> make_discrete_laplace(s))
    reported = q.privacy_loss(1)
    loss = sum(dl_shift_loss(1, s) for s in scales)
    assert loss > Fraction(reported)
    return f"maps 1.0 and 0.1 answered: privacy_loss(1) = {reported!r} < exact loss {float(loss)}"
