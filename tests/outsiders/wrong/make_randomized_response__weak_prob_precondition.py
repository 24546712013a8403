"""Randomized response whose ``prob >= 1/t`` precondition was weakened to ``prob * t >= 0``
("prob is a probability").

Wrong: ``prob = 0.2`` with two categories is admitted; the exact map formula there,
``ln(0.2 / 0.8)``, is negative while the real loss is ``ln 4``, and the constructor crashes with
an untyped ``ValueError`` from ``ln_up`` on a parameter its preconditions accept.
Hole classes: 13 (a weakened precondition admitting parameters where the map is wrong/negative).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fractions import Fraction  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.core import Constructor, Precondition, length  # noqa: E402
from mechanisms.errors import ConstructorError, ProbabilityError  # noqa: E402
from mechanisms.make_randomized_response import (RR_PRECONDITIONS, RandomizedResponse,  # noqa: E402
                                                 build_randomized_response, odds, validate_rr)
from _exact import max_ratio, rr_pmf  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response import randomized_response_obligations  # noqa: E402

CONSTRUCTOR = "make_randomized_response"
CLASSES = (13,)

PRECONDITIONS = RR_PRECONDITIONS[:2] + (
    Precondition("0 <= prob * t and prob < 1",
                 lambda categories, prob: ops.all_of(
                     ops.le(0, ops.exact(prob) * length(categories)), ops.lt(prob, 1)),
                 lambda categories, prob: ProbabilityError(prob, len(categories))),
)
make_rr_weak = Constructor("make_randomized_response_weak", build_randomized_response,
                           PRECONDITIONS, validate_rr)
MECHANISMS = [Entry("outsider_rr_weak_prob_precondition", make_rr_weak,
                    randomized_response_obligations(make_rr_weak, "outsider_rr_weak_prob_precondition"))]


def witness() -> str:
    categories, prob = ["yes", "no"], 0.2
    assert all(ops.truthy(h) for h in make_rr_weak.assumptions(categories=categories, prob=prob))
    assert odds(prob, 2) < 1  # the map's formula ln(odds) is negative here
    law = RandomizedResponse(tuple(categories), prob)
    ratio = max_ratio(rr_pmf(law, "yes"), rr_pmf(law, "no"))
    assert abs(ratio - 4) < Fraction(1, 10 ** 9)  # prob is the float nearest 0.2
    try:
        make_rr_weak(categories, prob)
    except ConstructorError:
        raise AssertionError("refused with a typed error: precondition not weakened?")
    except ValueError as error:
        return f"prob 0.2, t = 2 admitted; map formula ln({odds(prob, 2)}) < 0, loss ln 4; constructor: ValueError({error})"
    raise AssertionError("constructor built")
