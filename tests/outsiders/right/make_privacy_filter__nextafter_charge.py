"""Privacy filter that rounds its running total up without ``add_up``: ``pending =
math.nextafter(spent + cost, inf)`` (Python's float sum, rounded to nearest, then one float up:
"directed rounding by hand", as one writes without a rounding-mode API); acceptance ``pending <=
d_out`` and the state update are the catalogue's.

Right: ``fl(spent + cost)`` is the float nearest the exact sum, so the exact sum lies below the
next float up: ``nextafter(fl(spent + cost), inf) >= spent + cost`` (and ``inf`` for an
overflowing or infinite sum, NaN for a NaN cost, which ``<= d_out`` refuses). The charge is never
below the exact sum (at most one ulp above ``add_up``'s): the invariant ``sum <= spent <= d_out``
holds. Checked exactly (Fractions) on 400 random sequences of discrete Laplace queries: the
answered maps sum to at most ``spent``, and ``spent <= d_out``.
"""

import math
import random
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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


@dataclass(frozen=True)
class NextafterStep(FilterStep):
    def __call__(self, spent, query):
        if self.screen is not None:
            self.screen(query)
        pending = math.nextafter(spent + query.map(self.d_in), math.inf)
        accepted = ops.le(pending, self.d_out)
        return Step(accepted, ops.where(accepted, pending, spent), pending)


@dataclass(frozen=True)
class NextafterFilter(PrivacyFilter):
    def __call__(self, arg, rng=None):
        inner = self.odometer(arg, rng)
        return Queryable(NextafterStep(self.d_in, self.d_out, inner.transition.screen), 0.0, inner)


def build(odometer, d_in, d_out):
    m = build_privacy_filter(odometer, d_in, d_out)
    return replace(m, function=NextafterFilter(odometer.function, d_in, d_out))


make_filter_nextafter = make_privacy_filter.variant("make_privacy_filter_nextafter", build)
MECHANISMS = [Entry("outsider_right_filter_nextafter_charge", make_filter_nextafter,
                    privacy_filter_obligations(make_filter_nextafter,
                                               "outsider_right_filter_nextafter_charge"))]




def run(m, x, scales):
    """Answer ``count >> discrete_laplace(s)`` for each ``s`` in turn; return the answered scales."""
    q = m(x)
    answered = []
    for s in scales:
        try:
            q(make_count(int) >> make_discrete_laplace(s))
            answered.append(s)
        except BudgetExceededError:
            pass
    return q, answered


def check() -> str:
    odometer = make_fully_adaptive_composition(VectorDomain(AtomDomain(int)), SymmetricDistance(),
                                               MaxDivergence())
    rng = random.Random(3)
    n = 0
    for d_in in (1, 2):
        for d_out in (0.0, 0.5, 1.0, 3.0, 1 / 3):
            ours, theirs = make_filter_nextafter(odometer, d_in, d_out), make_privacy_filter(odometer, d_in, d_out)
            assert ours.map(d_in) == theirs.map(d_in) == d_out
            for _ in range(40):
                scales = [rng.choice([0.5, 1.0, 2.0, 3.0, 7.0, 1e9, 2.0 ** 60]) for _ in range(rng.randint(0, 8))]
                q, answered = run(ours, [1, 2], scales)
                spent = sum((Fraction(make_discrete_laplace(s).map(d_in)) for s in answered), Fraction(0))
                assert spent <= Fraction(q.state) <= Fraction(d_out), (scales, answered, q.state)
                n += 1
    return f"answered maps sum (exactly) <= spent <= d_out on {n} random query sequences"
