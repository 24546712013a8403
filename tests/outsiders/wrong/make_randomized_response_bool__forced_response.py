"""Boolean randomized response implemented as the "forced response" design: with probability
``prob`` answer truthfully, otherwise answer a fair coin (``rng.randrange(2) == 1``), with the
catalogue's map ``ln(p / (1 - p))``.

Wrong: in this design the truth is also told half of the times the fair coin is used, so
``Pr[M(x) = x] = p + (1 - p)/2 = (1 + p)/2`` and ``Pr[M(x) = not x] = (1 - p)/2``: the ratio is
``(1 + p)/(1 - p)``, not ``p/(1 - p)``. At ``prob = 0.75``: ratio 7 against ``e^map(1) = 3``; at
``prob = 0.5``: ratio 3 against ``e^0 = 1``. (Both designs are DP; the map belongs to the other
one.)
Hole classes: 7 (a sampler whose law is wrong), 2 (a subclass overrides ``__call__``).
"""

import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import coin_options, enumerate_law, max_ratio, mp  # noqa: E402
from mechanisms.make_randomized_response_bool import (RandomizedResponseBool,  # noqa: E402
                                                      build_randomized_response_bool,
                                                      make_randomized_response_bool)
from mechanisms.samplers import sample_bernoulli_rational, system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bool import randomized_response_bool_obligations  # noqa: E402

CONSTRUCTOR = "make_randomized_response_bool"
CLASSES = (7, 2)


@dataclass(frozen=True)
class ForcedResponseBool(RandomizedResponseBool):
    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        if sample_bernoulli_rational(Fraction(self.prob), rng):
            return arg
        return rng.randrange(2) == 1


def build(prob):
    return replace(build_randomized_response_bool(prob), function=ForcedResponseBool(prob))


make_rr_bool_forced = make_randomized_response_bool.variant(
    "make_randomized_response_bool_forced_response", build)
MECHANISMS = [Entry("outsider_rr_bool_forced_response", make_rr_bool_forced,
                    randomized_response_bool_obligations(make_rr_bool_forced,
                                                         "outsider_rr_bool_forced_response"))]


def witness() -> str:
    lines = []
    for prob in (0.75, 0.5):
        m = make_rr_bool_forced(prob)
        a = enumerate_law(lambda rng: m.function(True, rng), coin_options(prob))
        b = enumerate_law(lambda rng: m.function(False, rng), coin_options(prob))
        assert a[True] == (1 + Fraction(prob)) / 2
        ratio = max_ratio(a, b)
        assert mp(ratio) > mpmath.exp(mp(m.map(1))), (prob, ratio, m.map(1))
        lines.append(f"prob {prob}: exact pmf ratio {ratio} > e^map(1) = "
                     f"{mpmath.nstr(mpmath.exp(mp(m.map(1))), 17)}")
    return "; ".join(lines)
