"""Privacy filter that is exhausted by its first refusal, as OpenDP 0.16's: a refused query sets
``spent`` to ``d_out`` (``ops.where(accepted, pending, d_out)``), so that only queries of cost
``0`` can be answered afterwards; acceptance and charging otherwise the catalogue's.

Right: the invariant ``sum of answered maps <= spent <= d_out`` still holds: an accepted step is
the catalogue's; a refusal raises ``spent`` to ``d_out``, which keeps both inequalities (the
answered sum is unchanged and was ``<= spent <= d_out``); refusals depend on the queries' maps
and the state only, never the data. It answers a subset of what the catalogue answers (a prefix
up to the first refusal, then cost-0 queries only). Checked exactly (Fractions) on 400 random
sequences of discrete Laplace queries: the answered maps sum to at most ``spent <= d_out``, and
what it answers is a prefix of what the catalogue answers.
"""

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
class ExhaustStep(FilterStep):
    def __call__(self, spent, query):
        if self.screen is not None:
            self.screen(query)
        pending = ops.add_up(spent, query.map(self.d_in))
        accepted = ops.le(pending, self.d_out)
        return Step(accepted, ops.where(accepted, pending, self.d_out), pending)


@dataclass(frozen=True)
class ExhaustFilter(PrivacyFilter):
    def __call__(self, arg, rng=None):
        inner = self.odometer(arg, rng)
        return Queryable(ExhaustStep(self.d_in, self.d_out, inner.transition.screen), 0.0, inner)


def build(odometer, d_in, d_out):
    m = build_privacy_filter(odometer, d_in, d_out)
    return replace(m, function=ExhaustFilter(odometer.function, d_in, d_out))


make_filter_exhaust = make_privacy_filter.variant("make_privacy_filter_exhaust", build)
MECHANISMS = [Entry("outsider_right_filter_exhaust_on_refusal", make_filter_exhaust,
                    privacy_filter_obligations(make_filter_exhaust,
                                               "outsider_right_filter_exhaust_on_refusal"))]




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
            ours, theirs = make_filter_exhaust(odometer, d_in, d_out), make_privacy_filter(odometer, d_in, d_out)
            assert ours.map(d_in) == theirs.map(d_in) == d_out
            for _ in range(40):
                scales = [rng.choice([0.5, 1.0, 2.0, 3.0, 7.0, 1e9, 2.0 ** 60]) for _ in range(rng.randint(0, 8))]
                q, answered = run(ours, [1, 2], scales)
                spent = sum((Fraction(make_discrete_laplace(s).map(d_in)) for s in answered), Fraction(0))
                assert spent <= Fraction(q.state) <= Fraction(d_out), (scales, answered, q.state)
                _, theirs_answered = run(theirs, [1, 2], scales)
                assert answered == theirs_answered[:len(answered)]
                n += 1
    return f"answered maps sum (exactly) <= spent <= d_out on {n} random query sequences; never more than the catalogue answers"
