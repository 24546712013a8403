"""make_rr_odds(odds): binary randomized response parameterised by integer odds ``r >= 1``: the
bit is released truthfully with probability ``r / (r + 1)`` and flipped otherwise, one exact coin
(``sample_bernoulli_rational``). A new randomized-response-like mechanism (an analyst's form:
"lie once in r + 1 times").

``AtomDomain(bool)``, ``DiscreteMetric`` -> ``MaxDivergence``; map ``0`` at ``d_in = 0``, else
``ln(r)`` rounded up (``ops.ln_up``): for ``x != x'`` every output's probability ratio is ``r``
or ``1/r``. Preconditions with ``ops``: ``odds >= 1``; validation: ``odds`` an ``int`` (not a
bool). No proof module is named by README for a new measurement; entry without obligations,
with an example.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mechanisms import ops
from mechanisms.arith import exp_lower_bound
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain
from mechanisms.errors import ProbabilityError
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteMetric
from mechanisms.samplers import sample_bernoulli_rational, system_rng
from obligations.base import Entry, example


@dataclass(frozen=True)
class OddsResponse:
    odds: Any

    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        honest = sample_bernoulli_rational(Fraction(self.odds, self.odds + 1), rng)
        return arg if honest else not arg


def rr_odds_map(d_in, epsilon):
    return ops.where(ops.eq(d_in, 0), 0, epsilon)


class OddsError(ProbabilityError):
    def __init__(self, odds):
        Exception.__init__(self, f"odds must be an int >= 1, got {odds!r}")


def validate_odds(odds):
    if type(odds) is not int:
        raise OddsError(odds)


RR_ODDS_PRECONDITIONS = (
    Precondition("odds >= 1", lambda odds: ops.le(1, odds), lambda odds: OddsError(odds)),
)


def build_rr_odds(odds):
    return Measurement(
        input_domain=AtomDomain(bool),
        output_domain=AtomDomain(bool),
        input_metric=DiscreteMetric(),
        output_measure=MaxDivergence(),
        function=OddsResponse(odds),
        privacy_map=Map(rule=rr_odds_map, params={"epsilon": ops.ln_up(odds)}),
    )


make_rr_odds = Constructor("make_rr_odds", build_rr_odds, RR_ODDS_PRECONDITIONS, validate_odds)
MECHANISMS = [Entry("make_rr_odds", make_rr_odds,
                    examples=(example("make_rr_odds(3)", "from rr_odds import make_rr_odds"),))]


class FixedDraw:
    """An rng whose ``randrange`` returns a chosen value: enumerates the coin's outcomes."""

    def __init__(self, value):
        self.value = value

    def randrange(self, n):
        assert 0 <= self.value < n
        return self.value


def exact_law(m, x):
    """The exact output law of ``m`` on ``x``: the coin draws one uniform integer below r + 1."""
    n = m.function.odds + 1
    law = {}
    for u in range(n):
        y = m(x, FixedDraw(u))
        law[y] = law.get(y, 0) + Fraction(1, n)
    return law


def check() -> str:
    for r in (1, 2, 3, 7, 100):
        m = make_rr_odds(r)
        p, q = exact_law(m, True), exact_law(m, False)
        ratio = MaxDivergence().max_ratio(p, q)
        assert ratio == r, (r, ratio)
        eps = m.map(1)
        # exactly: a rational lower bound of e^eps (arith.exp_lower_bound) is >= the max ratio
        assert exp_lower_bound(Fraction(eps)) >= ratio, (r, eps)
        assert eps - math.log(r) < 1e-12  # and the map is tight (about one ulp above ln r)
        assert m.map(0) == 0
    return ("exact laws by enumerating the coin's randrange: max ratio = r exactly for r in "
            "{1,2,3,7,100}, and exp_lower_bound(map(1)) >= r (exact)")
