"""Odometer whose screen checks the output measure by family, ``isinstance(query.output_measure,
ODOMETER_MEASURES)`` ("any measure the odometer supports"), instead of equality with its own.

Wrong: a zCDP query is then charged its ``rho`` in a pure-DP odometer. On an odometer over int
vectors (symmetric distance, ``MaxDivergence``), ``count >> gaussian(1.0)`` is accepted and
``privacy_loss(1) = (1/1)^2 / 2 = 0.5``. Its max-divergence is infinite: for ``[]`` vs ``[0]``
(counts 0 and 1) the discrete Gaussian pmf ratio at output ``y`` is exactly
``exp(((y - 1)^2 - y^2) / 2) = exp((1 - 2y) / 2)``, which at ``y = -10`` is ``e^10.5 > e^0.5``.
Hole classes: none listed (a measure check too loose).
"""

import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms.core import Measurement  # noqa: E402
from mechanisms.domains import AtomDomain, QueryableDomain, VectorDomain  # noqa: E402
from mechanisms.errors import QueryMismatchError  # noqa: E402
from mechanisms.make_count import make_count  # noqa: E402
from mechanisms.make_fully_adaptive_composition import (NOTHING_SPENT, ODOMETER_MEASURES,  # noqa: E402
                                                        OdometerFunction, OdometerStep,
                                                        make_fully_adaptive_composition)
from mechanisms.make_gaussian import make_gaussian  # noqa: E402
from mechanisms.measures import MaxDivergence  # noqa: E402
from mechanisms.metrics import SymmetricDistance  # noqa: E402
from mechanisms.queryable import Odometer, Queryable, QueryRunner  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_fully_adaptive_composition import fully_adaptive_obligations  # noqa: E402

CONSTRUCTOR = "make_fully_adaptive_composition"
CLASSES = ()


@dataclass(frozen=True)
class FamilyStep(OdometerStep):
    def screen(self, query):
        if not isinstance(query, Measurement):
            raise QueryMismatchError("type", "Measurement", type(query).__name__)
        for attribute in ("input_domain", "input_metric"):
            if getattr(query, attribute) != getattr(self, attribute):
                raise QueryMismatchError(attribute, getattr(self, attribute),
                                         getattr(query, attribute))
        if not isinstance(query.output_measure, ODOMETER_MEASURES):
            raise QueryMismatchError("output_measure", self.output_measure, query.output_measure)
        if isinstance(query.output_domain, QueryableDomain):
            raise QueryMismatchError("output_domain", "a non-interactive output domain",
                                     query.output_domain)


@dataclass(frozen=True)
class FamilyFunction(OdometerFunction):
    def __call__(self, arg, rng=None):
        return Queryable(FamilyStep(self.input_domain, self.input_metric, self.output_measure),
                         NOTHING_SPENT, QueryRunner(arg, rng))


def build(input_domain, input_metric, output_measure):
    return Odometer(input_domain, input_metric, output_measure,
                    FamilyFunction(input_domain, input_metric, output_measure))


make_odometer_family = make_fully_adaptive_composition.variant("make_odometer_measure_family", build)
MECHANISMS = [Entry("outsider_odometer_measure_family", make_odometer_family,
                    fully_adaptive_obligations(make_odometer_family, "outsider_odometer_measure_family"))]


def witness() -> str:
    o = make_odometer_family(VectorDomain(AtomDomain(int)), SymmetricDistance(), MaxDivergence())
    x, y = [], [0]
    assert o.input_metric.distance(x, y) == 1
    query = make_count(int) >> make_gaussian(1.0)
    q = o(x, random.Random(2))
    q(query)  # accepted
    reported = Fraction(q.privacy_loss(1))
    sigma2 = 1
    # ln p_0(y) - ln p_1(y) for the discrete Gaussian of variance parameter 1 (same normaliser)
    y = -10
    log_ratio = Fraction((y - 1) ** 2 - y ** 2, 2 * sigma2)
    assert log_ratio > reported
    return (f"zCDP Gaussian accepted by a pure-DP odometer: privacy_loss(1) = {float(reported)}, "
            f"but the pmf log-ratio at y = {y} is exactly {log_ratio}")
