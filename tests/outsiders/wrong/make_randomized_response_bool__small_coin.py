"""Boolean randomized response whose coin is simplified to a small denominator,
``Fraction(prob).limit_denominator(1000)`` ("the exact Fraction of a float has denominator 2^53:
``randrange(2**53)`` per release wastes entropy; three digits of prob are plenty").

Wrong: ``limit_denominator`` returns the closest fraction, which may lie above ``prob``. A config
of ``prob = 2/3`` gives the float ``0.66666666666666663`` (below 2/3), the map is computed from
that float, and the coin is exactly ``2/3``: the real law's ratio is exactly 2 while
``e^map(1) < 2`` (``map(1) = 0.6931471805599452 < ln 2``). Likewise ``prob = 0.7`` (coin
``7/10``). The privacy map describes one coin and the code tosses another.
Hole classes: 1 (the function's own copy of the probability is a transformed argument), 2 (a
subclass overrides ``__call__``).
"""

import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import enumerate_law, max_ratio, mp  # noqa: E402
from mechanisms.make_randomized_response_bool import (RandomizedResponseBool,  # noqa: E402
                                                      build_randomized_response_bool,
                                                      make_randomized_response_bool)
from mechanisms.samplers import sample_bernoulli_rational, system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bool import randomized_response_bool_obligations  # noqa: E402

CONSTRUCTOR = "make_randomized_response_bool"
CLASSES = (1, 2)


@dataclass(frozen=True)
class SmallCoinBool(RandomizedResponseBool):
    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        coin = Fraction(self.prob).limit_denominator(1000)
        flip = not sample_bernoulli_rational(coin, rng)
        return arg ^ flip


def build(prob):
    return replace(build_randomized_response_bool(prob), function=SmallCoinBool(prob))


make_rr_bool_small = make_randomized_response_bool.variant(
    "make_randomized_response_bool_small_coin", build)
MECHANISMS = [Entry("outsider_rr_bool_small_coin", make_rr_bool_small,
                    randomized_response_bool_obligations(make_rr_bool_small,
                                                         "outsider_rr_bool_small_coin"))]


def uniform(n):
    assert n <= 1000, n
    return [(v, Fraction(1, n)) for v in range(n)]


def witness() -> str:
    lines = []
    for prob in (2 / 3, 0.7):
        m = make_rr_bool_small(prob)
        a = enumerate_law(lambda rng: m.function(True, rng), uniform)
        b = enumerate_law(lambda rng: m.function(False, rng), uniform)
        ratio = max_ratio(a, b)
        assert mp(ratio) > mpmath.exp(mp(m.map(1))), (prob, ratio, m.map(1))
        lines.append(f"prob {prob!r}: coin {a[True]}, exact pmf ratio {ratio} > e^map(1) = "
                     f"{mpmath.nstr(mpmath.exp(mp(m.map(1))), 20)}")
    return "; ".join(lines)
