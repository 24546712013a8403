"""Randomized response whose odds are ``p / (1 - p)`` on concrete numbers (the binary formula,
"a fast path for the common case") and the catalogue's ``p (t - 1) / (1 - p)`` on solver terms.

Wrong for ``t >= 3``: ``t = 3, p = 0.5`` gives ``map(1) = ln 1 = 0`` but the truth is reported
with 1/2 and each lie with 1/4: an exact pmf ratio of 2.
Hole classes: 11 (branch on ``ops.is_symbolic``).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import max_ratio, mp, rr_pmf  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map, length  # noqa: E402
from mechanisms.make_randomized_response import (build_randomized_response,  # noqa: E402
                                                 make_randomized_response, odds, rr_privacy_map)
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response import randomized_response_obligations  # noqa: E402

CONSTRUCTOR = "make_randomized_response"
CLASSES = (11,)


def fast_odds(prob, num_categories):
    if ops.is_symbolic(prob) or ops.is_symbolic(num_categories):
        return odds(prob, num_categories)
    p = ops.exact(prob)
    return p / (1 - p)


def build(categories, prob):
    m = build_randomized_response(categories, prob)
    epsilon = ops.ln_up(fast_odds(prob, length(categories)))
    return replace(m, privacy_map=Map(rule=rr_privacy_map, params={"epsilon": epsilon}))


make_rr_fast = make_randomized_response.variant("make_randomized_response_fast_odds", build)
MECHANISMS = [Entry("outsider_rr_concrete_odds", make_rr_fast,
                    randomized_response_obligations(make_rr_fast, "outsider_rr_concrete_odds"))]


def witness() -> str:
    m = make_rr_fast([0, 1, 2], 0.5)
    ratio = max_ratio(rr_pmf(m.function, 0), rr_pmf(m.function, 1))
    assert mp(ratio) > mpmath.exp(mp(m.map(1)))
    return f"t = 3, prob 0.5: exact pmf ratio {ratio} > e^map(1) = e^{m.map(1)}"
