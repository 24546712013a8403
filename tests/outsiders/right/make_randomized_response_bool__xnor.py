"""Boolean randomized response written as ``arg == coin`` (XNOR) instead of ``arg ^ (not coin)``.

Correct: with ``coin = sample_bernoulli_rational(prob)`` (True with probability ``prob``),
``arg == coin`` is ``arg`` when the coin is True and ``not arg`` when it is False; and
``arg ^ (not coin)`` is the same table (``x ^ False = x``, ``x ^ True = not x``). Same draws,
same law, same map. Checked: the exact law of the real ``__call__`` (enumerated over the coin's
two events) equals the catalogue's on both inputs for many ``prob``, outputs are bools.
"""

import random
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import coin_options, enumerate_law  # noqa: E402
from mechanisms.make_randomized_response_bool import (RandomizedResponseBool,  # noqa: E402
                                                      build_randomized_response_bool,
                                                      make_randomized_response_bool)
from mechanisms.samplers import sample_bernoulli_rational, system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bool import randomized_response_bool_obligations  # noqa: E402

CONSTRUCTOR = "make_randomized_response_bool"


@dataclass(frozen=True)
class XnorBool(RandomizedResponseBool):
    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        return arg == sample_bernoulli_rational(Fraction(self.prob), rng)


def build(prob):
    return replace(build_randomized_response_bool(prob), function=XnorBool(prob))


make_rr_bool_xnor = make_randomized_response_bool.variant("make_randomized_response_bool_xnor",
                                                          build)
MECHANISMS = [Entry("outsider_right_rr_bool_xnor", make_rr_bool_xnor,
                    randomized_response_bool_obligations(make_rr_bool_xnor,
                                                         "outsider_right_rr_bool_xnor"))]


def check() -> str:
    rng = random.Random(3)
    probs = [0.5, 0.6, 2 / 3, 0.75, 0.999, 1 - 2.0 ** -53] + [rng.uniform(0.5, 1) for _ in range(30)]
    for prob in probs:
        ours, theirs = make_rr_bool_xnor(prob), make_randomized_response_bool(prob)
        for arg in (True, False):
            a = enumerate_law(lambda r: ours.function(arg, r), coin_options(prob))
            b = enumerate_law(lambda r: theirs.function(arg, r), coin_options(prob))
            assert a == b and all(type(y) is bool for y in a), (prob, arg, a, b)
        assert ours.map(1) == theirs.map(1) and ours.map(0) == theirs.map(0)
    return f"exact laws equal to the catalogue's for {len(probs)} probs x 2 inputs"
