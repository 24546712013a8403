"""Odometer whose query screen compares the input domain and the output measure but not the input
metric ("a query on the same data type and measure composes"; the metric looked like a property
of the domain).

Wrong: a query's map speaks of *its* metric. On an odometer over int vectors under the symmetric
distance, ``make_vector_laplace(1.0)`` (L1 distance between equal-length vectors, infinite
otherwise) is accepted and charged ``map(1) = 1.0``. But ``[0]`` and ``[0, 0]`` are at symmetric
distance 1 and the release has the input's length: ``Pr[len 1 | [0]] = 1`` and
``Pr[len 1 | [0, 0]] = 0``, an infinite loss, while ``privacy_loss(1) = 1.0``.
Hole classes: none listed (a domain-metric check dropped).
"""

import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms.core import Measurement  # noqa: E402
from mechanisms.domains import AtomDomain, QueryableDomain, VectorDomain  # noqa: E402
from mechanisms.errors import QueryMismatchError  # noqa: E402
from mechanisms.make_fully_adaptive_composition import (NOTHING_SPENT, OdometerFunction,  # noqa: E402
                                                        OdometerStep,
                                                        make_fully_adaptive_composition)
from mechanisms.make_vector_laplace import make_vector_laplace  # noqa: E402
from mechanisms.measures import MaxDivergence  # noqa: E402
from mechanisms.metrics import SymmetricDistance  # noqa: E402
from mechanisms.queryable import Odometer, Queryable, QueryRunner  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_fully_adaptive_composition import fully_adaptive_obligations  # noqa: E402

CONSTRUCTOR = "make_fully_adaptive_composition"
CLASSES = ()


@dataclass(frozen=True)
class LooseStep(OdometerStep):
    def screen(self, query):
        if not isinstance(query, Measurement):
            raise QueryMismatchError("type", "Measurement", type(query).__name__)
        for attribute in ("input_domain", "output_measure"):
            if getattr(query, attribute) != getattr(self, attribute):
                raise QueryMismatchError(attribute, getattr(self, attribute),
                                         getattr(query, attribute))
        if isinstance(query.output_domain, QueryableDomain):
            raise QueryMismatchError("output_domain", "a non-interactive output domain",
                                     query.output_domain)


@dataclass(frozen=True)
class LooseFunction(OdometerFunction):
    def __call__(self, arg, rng=None):
        return Queryable(LooseStep(self.input_domain, self.input_metric, self.output_measure),
                         NOTHING_SPENT, QueryRunner(arg, rng))


def build(input_domain, input_metric, output_measure):
    return Odometer(input_domain, input_metric, output_measure,
                    LooseFunction(input_domain, input_metric, output_measure))


make_odometer_loose = make_fully_adaptive_composition.variant("make_odometer_metric_unchecked", build)
MECHANISMS = [Entry("outsider_odometer_metric_unchecked", make_odometer_loose,
                    fully_adaptive_obligations(make_odometer_loose, "outsider_odometer_metric_unchecked"))]


def witness() -> str:
    o = make_odometer_loose(VectorDomain(AtomDomain(int)), SymmetricDistance(), MaxDivergence())
    x, y = [0], [0, 0]
    assert o.input_domain.member(x) and o.input_domain.member(y)
    assert o.input_metric.distance(x, y) == 1
    query = make_vector_laplace(1.0)
    qx, qy = o(x, random.Random(1)), o(y, random.Random(1))
    ax, ay = qx(query), qy(query)
    # the release always has the input's length: these lengths have probability 1 and 0
    assert len(ax) == 1 and len(ay) == 2
    reported = qx.privacy_loss(1)
    assert reported == 1.0
    return (f"vector Laplace accepted on a symmetric-distance odometer: [0] vs [0, 0] releases of "
            f"lengths 1 and 2 surely (loss inf), privacy_loss(1) = {reported}")
