"""Odometer that reports ``privacy_loss(d)`` by group privacy from the unit loss,
``mul_up(d, L(1))`` with ``L`` the catalogue's composed map ("a d-row change costs d times a
one-row change"), instead of evaluating the composed maps at ``d``; the transition and screen are
the catalogue's.

Wrong for zCDP, where group privacy scales by ``d^2``, not ``d``: on a zCDP odometer over int
vectors, after ``count >> gaussian(1.0)`` (map ``d^2 / 2``), ``privacy_loss(2) = 2 * 0.5 = 1.0``;
but for ``[]`` vs ``[0, 0]`` (symmetric distance 2, counts 0 and 2) the Renyi divergence of order
2 of the two discrete Gaussians is ``2 * 2^2 / 2 = 4`` (exact for an integer shift with
``(1 - alpha) * 2`` an integer; computed below from the pmf, a lower bound over ``|y| <= 200``),
above ``alpha * rho = 2 * 1.0``: the release is not ``1.0``-zCDP.
Hole classes: 9 (nonlinear map), 10 (shows only with ``d_in >= 2``).
"""

import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

import mpmath  # noqa: E402

from _exact import dg_renyi_lower, mp  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.domains import AtomDomain, VectorDomain  # noqa: E402
from mechanisms.make_count import make_count  # noqa: E402
from mechanisms.make_fully_adaptive_composition import (NOTHING_SPENT, OdometerFunction,  # noqa: E402
                                                        OdometerStep,
                                                        make_fully_adaptive_composition)
from mechanisms.make_gaussian import make_gaussian  # noqa: E402
from mechanisms.measures import ZeroConcentratedDivergence  # noqa: E402
from mechanisms.metrics import SymmetricDistance  # noqa: E402
from mechanisms.queryable import Odometer, Queryable, QueryRunner  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_fully_adaptive_composition import fully_adaptive_obligations  # noqa: E402

CONSTRUCTOR = "make_fully_adaptive_composition"
CLASSES = (9, 10)


@dataclass(frozen=True)
class GroupStep(OdometerStep):
    def privacy_loss(self, queryable, d_in):
        return ops.mul_up(d_in, queryable.state(1))


@dataclass(frozen=True)
class GroupFunction(OdometerFunction):
    def __call__(self, arg, rng=None):
        return Queryable(GroupStep(self.input_domain, self.input_metric, self.output_measure),
                         NOTHING_SPENT, QueryRunner(arg, rng))


def build(input_domain, input_metric, output_measure):
    return Odometer(input_domain, input_metric, output_measure,
                    GroupFunction(input_domain, input_metric, output_measure))


make_odometer_group = make_fully_adaptive_composition.variant("make_odometer_group_scaling", build)
MECHANISMS = [Entry("outsider_odometer_group_scaling", make_odometer_group,
                    fully_adaptive_obligations(make_odometer_group, "outsider_odometer_group_scaling"))]


def witness() -> str:
    mpmath.mp.dps = 40
    o = make_odometer_group(VectorDomain(AtomDomain(int)), SymmetricDistance(),
                            ZeroConcentratedDivergence())
    x, y = [], [0, 0]
    assert o.input_metric.distance(x, y) == 2
    q = o(x, random.Random(0))
    gaussian = make_count(int) >> make_gaussian(1.0)
    q(gaussian)
    reported = q.privacy_loss(2)
    assert reported == 1.0 and gaussian.map(2) == 2.0
    alpha = 2
    renyi = dg_renyi_lower(1, 2, alpha)
    assert renyi > alpha * mp(reported)
    return (f"zCDP odometer, one Gaussian (sigma 1): privacy_loss(2) = {reported}, but "
            f"D_2 >= {float(renyi):.6f} > 2 * {reported}")
