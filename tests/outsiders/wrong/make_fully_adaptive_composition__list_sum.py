"""Odometer that keeps the answered queries' maps in a tuple, as OpenDP's odometer keeps its
multiset of maps, and reports ``privacy_loss(d) = sum(m(d) for m in maps)`` (Python's ``sum``:
each float addition rounded to nearest).

Wrong: a rounded-to-nearest sum can fall below the exact sum of the maps, the loss the
composition theorem bounds. Two queries ``count >> discrete_laplace(1)`` (map ``1.0``) and
``count >> discrete_laplace(2^53)`` (map ``2^-53``): ``1.0 + 2^-53`` rounds to ``1.0`` (a tie,
to even). For ``[]`` vs ``[0]`` the two answers' likelihood ratio at outputs ``(0, 0)`` is
exactly ``e^1 e^(2^-53)``: loss ``1 + 2^-53 > privacy_loss(1) = 1.0``.
Hole classes: 4 (a map computed in floats where exact is modelled).
"""

import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from _exact import dl_shift_loss  # noqa: E402
from mechanisms.domains import AtomDomain, VectorDomain  # noqa: E402
from mechanisms.make_count import make_count  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_fully_adaptive_composition import (OdometerFunction, OdometerStep,  # noqa: E402
                                                        make_fully_adaptive_composition)
from mechanisms.measures import MaxDivergence  # noqa: E402
from mechanisms.metrics import SymmetricDistance  # noqa: E402
from mechanisms.queryable import Odometer, Queryable, QueryRunner, Step  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_fully_adaptive_composition import fully_adaptive_obligations  # noqa: E402

CONSTRUCTOR = "make_fully_adaptive_composition"
CLASSES = (4,)


@dataclass(frozen=True)
class ListStep(OdometerStep):
    def __call__(self, maps, query):
        self.screen(query)
        return Step(True, maps + (query.privacy_map,))

    def privacy_loss(self, queryable, d_in):
        return sum((m(d_in) for m in queryable.state), 0.0)


@dataclass(frozen=True)
class ListFunction(OdometerFunction):
    def __call__(self, arg, rng=None):
        return Queryable(ListStep(self.input_domain, self.input_metric, self.output_measure),
                         (), QueryRunner(arg, rng))


def build(input_domain, input_metric, output_measure):
    return Odometer(input_domain, input_metric, output_measure,
                    ListFunction(input_domain, input_metric, output_measure))


make_odometer_list = make_fully_adaptive_composition.variant("make_odometer_list_sum", build)
MECHANISMS = [Entry("outsider_odometer_list_sum", make_odometer_list,
                    fully_adaptive_obligations(make_odometer_list, "outsider_odometer_list_sum"))]


def witness() -> str:
    o = make_odometer_list(VectorDomain(AtomDomain(int)), SymmetricDistance(), MaxDivergence())
    x, y = [], [0]
    assert o.input_metric.distance(x, y) == 1
    scales = [1.0, 2.0 ** 53]
    q = o(x, random.Random(0))
    for s in scales:
        q(make_count(int) >> make_discrete_laplace(s))
    reported = q.privacy_loss(1)
    # at outputs <= 0 each discrete Laplace answer's likelihood ratio is exactly exp(1/scale)
    loss = sum(dl_shift_loss(1, s) for s in scales)
    assert loss > Fraction(reported)
    return f"maps 1.0 and 2^-53 answered: privacy_loss(1) = {reported!r} < exact loss 1 + 2^-53"
