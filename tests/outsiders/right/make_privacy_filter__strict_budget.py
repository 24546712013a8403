"""Privacy filter with a strict budget test, ``pending < d_out`` (never spend the budget to the
last bit: "stop strictly before the budget"), the rest the catalogue's.

Right: a stricter acceptance test only refuses more: every accepted step still has
``sum <= pending < d_out``, a refused one keeps ``spent``, and the test reads the maps and the
state only. (With ``d_out = 0`` nothing is ever answered, which is ``0``-DP.) Checked exactly
(Fractions) on 400 random sequences of discrete Laplace queries: the answered maps sum to at
most ``spent``, which is below ``d_out`` (or ``0`` with nothing answered).
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
class StrictStep(FilterStep):
    def __call__(self, spent, query):
        if self.screen is not None:
            self.screen(query)
        pending = ops.add_up(spent, query.map(self.d_in))
        accepted = ops.lt(pending, self.d_out)
        return Step(accepted, ops.where(accepted, pending, spent), pending)


@dataclass(frozen=True)
class StrictFilter(PrivacyFilter):
    def __call__(self, arg, rng=None):
        inner = self.odometer(arg, rng)
        return Queryable(StrictStep(self.d_in, self.d_out, inner.transition.screen), 0.0, inner)


def build(odometer, d_in, d_out):
    m = build_privacy_filter(odometer, d_in, d_out)
    return replace(m, function=StrictFilter(odometer.function, d_in, d_out))


make_filter_strict = make_privacy_filter.variant("make_privacy_filter_strict", build)
MECHANISMS = [Entry("outsider_right_filter_strict_budget", make_filter_strict,
                    privacy_filter_obligations(make_filter_strict,
                                               "outsider_right_filter_strict_budget"))]




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
            ours, theirs = make_filter_strict(odometer, d_in, d_out), make_privacy_filter(odometer, d_in, d_out)
            assert ours.map(d_in) == theirs.map(d_in) == d_out
            for _ in range(40):
                scales = [rng.choice([0.5, 1.0, 2.0, 3.0, 7.0, 1e9, 2.0 ** 60]) for _ in range(rng.randint(0, 8))]
                q, answered = run(ours, [1, 2], scales)
                spent = sum((Fraction(make_discrete_laplace(s).map(d_in)) for s in answered), Fraction(0))
                assert spent <= Fraction(q.state) <= Fraction(d_out), (scales, answered, q.state)
                _, theirs_answered = run(theirs, [1, 2], scales)
                assert not answered or Fraction(q.state) < Fraction(d_out)
                n += 1
    return f"answered maps sum (exactly) <= spent <= d_out on {n} random query sequences; spent < d_out whenever something is answered"
