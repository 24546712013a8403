"""Odometer that keeps the answered queries' maps in a tuple (OpenDP keeps a multiset of maps)
and reports ``privacy_loss(d)`` as the left fold ``add_up(...add_up(add_up(0.0, m_1(d)),
m_2(d))..., m_k(d))``: the catalogue's sum, in the catalogue's order, each addition rounded up,
but evaluated when asked rather than composed into one ``Map`` at each answer.

Right: the value is the catalogue's exactly (same operands, same order, same rounding), so
``privacy_loss(d) >= sum_i m_i(d)`` by the same induction (``add_up(a, b) >= a + b``); the
screen is the catalogue's. Checked on 300 random query sequences at three ``d_in``: equal to the
catalogue's odometer's ``privacy_loss`` and never below the exact sum (Fractions).
"""

import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms import ops  # noqa: E402
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


@dataclass(frozen=True)
class FoldStep(OdometerStep):
    def __call__(self, maps, query):
        self.screen(query)
        return Step(True, maps + (query.privacy_map,))

    def privacy_loss(self, queryable, d_in):
        loss = 0.0
        for m in queryable.state:
            loss = ops.add_up(loss, m(d_in))
        return loss


@dataclass(frozen=True)
class FoldFunction(OdometerFunction):
    def __call__(self, arg, rng=None):
        return Queryable(FoldStep(self.input_domain, self.input_metric, self.output_measure),
                         (), QueryRunner(arg, rng))


def build(input_domain, input_metric, output_measure):
    return Odometer(input_domain, input_metric, output_measure,
                    FoldFunction(input_domain, input_metric, output_measure))


make_odometer_fold = make_fully_adaptive_composition.variant("make_odometer_tuple_fold", build)
MECHANISMS = [Entry("outsider_right_odometer_tuple_fold", make_odometer_fold,
                    fully_adaptive_obligations(make_odometer_fold, "outsider_right_odometer_tuple_fold"))]




def answered_maps(o, scales, d_in):
    q = o([1, 2], random.Random(0))
    for s in scales:
        q(make_count(int) >> make_discrete_laplace(s))
    return q.privacy_loss(d_in)


def check() -> str:
    rng = random.Random(11)
    o_ours = make_odometer_fold(VectorDomain(AtomDomain(int)), SymmetricDistance(), MaxDivergence())
    o_theirs = make_fully_adaptive_composition(VectorDomain(AtomDomain(int)), SymmetricDistance(),
                                               MaxDivergence())
    n = 0
    for _ in range(300):
        scales = [rng.choice([0.3, 1.0, 3.0, 7.0, 1e9, 2.0 ** 53, 2.0 ** -3]) for _ in range(rng.randint(0, 8))]
        for d_in in (0, 1, 3):
            ours, theirs = answered_maps(o_ours, scales, d_in), answered_maps(o_theirs, scales, d_in)
            exact = sum((Fraction(make_discrete_laplace(s).map(d_in)) for s in scales), Fraction(0))
            assert Fraction(ours) >= exact and ours == theirs, (scales, d_in, ours, theirs)
            n += 1
    return f"privacy_loss equal to the catalogue's and >= the exact sum of the maps on {n} cases"
