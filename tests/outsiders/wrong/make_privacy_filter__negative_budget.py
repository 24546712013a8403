"""Privacy filter without the ``d_out >= 0`` precondition (only ``d_in >= 0`` and finiteness
kept: "a negative budget just refuses everything", so the check looked redundant).

Wrong: the privacy map is then ``d -> d_out < 0`` for ``d <= d_in``, and no mechanism has a
negative max-divergence (nor zCDP): taking the whole output space, ``Pr[M(x) in S] = 1 <=
e^(d_out) Pr[M(x') in S] = e^(d_out) < 1`` is false. With ``d_out = -1.0`` the filter refuses every
query (its transcript is data-independent, true loss ``0``), and ``map(1) = -1.0 < 0``.
Hole classes: 13 (a weakened precondition admitting parameters where the map is wrong/negative).
"""

import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dl_shift_loss  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.domains import AtomDomain, VectorDomain  # noqa: E402
from mechanisms.errors import BudgetExceededError  # noqa: E402
from mechanisms.make_count import make_count  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_fully_adaptive_composition import make_fully_adaptive_composition  # noqa: E402
from mechanisms.core import Constructor  # noqa: E402
from mechanisms.make_privacy_filter import (FILTER_PRECONDITIONS, build_privacy_filter,  # noqa: E402
                                            validate_filter)
from mechanisms.measures import MaxDivergence  # noqa: E402
from mechanisms.metrics import SymmetricDistance  # noqa: E402
from mechanisms.queryable import Queryable, Step  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_privacy_filter import privacy_filter_obligations  # noqa: E402

CONSTRUCTOR = "make_privacy_filter"
CLASSES = (13,)


def build(odometer, d_in, d_out):
    return build_privacy_filter(odometer, d_in, d_out)


make_filter_negative = Constructor("make_privacy_filter_negative", build,
                                   (FILTER_PRECONDITIONS[0],), validate_filter)
MECHANISMS = [Entry("outsider_filter_negative_budget", make_filter_negative,
                    privacy_filter_obligations(make_filter_negative,
                                               "outsider_filter_negative_budget"))]


def witness() -> str:
    odometer = make_fully_adaptive_composition(VectorDomain(AtomDomain(int)), SymmetricDistance(),
                                               MaxDivergence())
    assert FILTER_PRECONDITIONS[0].text == "d_in >= 0"
    m = make_filter_negative(odometer, 1, -1.0)
    x, y = [], [0]
    assert m.input_metric.distance(x, y) == 1
    refused = 0
    q = m(x)
    for scale in (1.0, 1e6):
        try:
            q(make_count(int) >> make_discrete_laplace(scale))
        except BudgetExceededError:
            refused += 1
    assert refused == 2 and m.map(1) < 0
    return f"d_out = -1.0 admitted: every query refused (true loss 0), map(1) = {m.map(1)} < 0"
