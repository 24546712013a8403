"""Randomized response whose function object subclasses ``RandomizedResponse`` and simplifies
the lie: a uniform draw over *all* ``t`` categories (``draw_bound = t``, no skipping of the
true index).

Wrong law: the truth comes out with ``p + (1 - p)/t``, another category with ``(1 - p)/t``, a
ratio ``1 + p t / (1 - p)`` above the map's ``p (t - 1) / (1 - p)``: at ``t = 2, p = 0.75``,
exactly 7 against 3 (enumerated from the real ``respond``).
Hole classes: 7 (a sampler whose law is subtly wrong), 2 (a subclass overrides kernel methods).
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
CLASSES = (7, 2)


def any_category(index, num_categories):
    return num_categories


def no_skip(sample, index):
    return sample


@dataclass(frozen=True)
class SimpleResponse(RandomizedResponse):
    draw_bound = staticmethod(any_category)
    lie_index = staticmethod(no_skip)


def build(categories, prob):
    m = build_randomized_response(categories, prob)
    return replace(m, function=SimpleResponse(m.function.categories, prob))


make_rr_any = make_randomized_response.variant("make_randomized_response_any_lie", build)
MECHANISMS = [Entry("outsider_rr_lie_includes_truth", make_rr_any,
                    randomized_response_obligations(make_rr_any, "outsider_rr_lie_includes_truth"))]


def witness() -> str:
    m = make_rr_any([True, False], 0.75)
    ratio = max_ratio(rr_pmf(m.function, True), rr_pmf(m.function, False))
    assert mp(ratio) > mpmath.exp(mp(m.map(1)))
    return f"t = 2, prob 0.75: exact pmf ratio {ratio} > e^map(1) = {float(mpmath.exp(mp(m.map(1)))):.6f}"
