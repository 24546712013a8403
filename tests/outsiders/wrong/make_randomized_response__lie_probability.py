"""Randomized response whose function object is built with ``1 - prob`` ("prob is the
probability of lying, as in Warner's paper"), while the map is computed from ``prob``.

Wrong whenever ``prob < 1/2`` with ``t >= 3``: ``t = 3, prob = 0.4`` answers honestly with
probability 0.6, the other two categories 0.2 each: a pmf ratio of exactly 3 (enumerated from the
real ``respond``) against ``e^(map(1)) = 0.4 * 2 / 0.6 = 4/3``. (With ``t = 2`` the two laws are
mirror images and the map happens to hold.)
Hole classes: 1 (the function's own copy of the probability is a transformed argument), 10 (shows
only with ``t >= 3``).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import max_ratio, mp, rr_pmf  # noqa: E402
from mechanisms.make_randomized_response import (RandomizedResponse,  # noqa: E402
                                                 build_randomized_response,
                                                 make_randomized_response)
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response import randomized_response_obligations  # noqa: E402

CONSTRUCTOR = "make_randomized_response"
CLASSES = (1, 10)


def build(categories, prob):
    m = build_randomized_response(categories, prob)
    return replace(m, function=RandomizedResponse(m.function.categories, 1 - prob))


make_rr_lie = make_randomized_response.variant("make_randomized_response_lie_prob", build)
MECHANISMS = [Entry("outsider_rr_lie_probability", make_rr_lie,
                    randomized_response_obligations(make_rr_lie, "outsider_rr_lie_probability"))]


def witness() -> str:
    m = make_rr_lie(["a", "b", "c"], 0.4)
    ratio = max_ratio(rr_pmf(m.function, "a"), rr_pmf(m.function, "b"))
    assert mp(ratio) > mpmath.exp(mp(m.map(1)))
    return f"t = 3, prob 0.4: exact pmf ratio {float(ratio):.4f} > e^map(1) = {float(mpmath.exp(mp(m.map(1)))):.4f}"
