"""Unsized int sum that borrowed the sized sum's map ``(d_in // 2) * (U - L)``.

Wrong: without a size, one added row is ``d_in = 1`` (``1 // 2 = 0``), and even for even ``d_in``
two insertions of ``U`` move the sum by ``2U``, not ``U - L`` (take ``L = U``).
Hole classes: 8 (relies on the even distance that only sized domains give), 9 (nonlinear
integer map).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_bounded_int_sum import build_bounded_int_sum, make_bounded_int_sum  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_bounded_int_sum"
CLASSES = (8, 9)


def sized_rule(d_in, lower, upper):
    return ops.floor_div(d_in, 2) * (upper - lower)


def build(lower, upper):
    return replace(build_bounded_int_sum(lower, upper),
                   stability_map=Map(rule=sized_rule, params={"lower": lower, "upper": upper}))


make_bis_sized = make_bounded_int_sum.variant("make_bounded_int_sum_sized_map", build)
MECHANISMS = [Entry("outsider_bis_sized_map", make_bis_sized)]


def witness() -> str:
    t = make_bis_sized(5, 5)
    observed, claimed = stability_violation(t, [], [5, 5], 2)
    return f"bounds [5, 5]: [] vs [5, 5] sums {observed} apart > map(2) = {claimed}"
