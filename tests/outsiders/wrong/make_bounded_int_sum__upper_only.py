"""Unsized int sum whose sensitivity is ``|upper|`` ("the largest row is upper").

Wrong as soon as ``lower`` is negative with ``|lower| > |upper|``: removing a row ``lower`` moves
the sum by ``|lower|``. Bounds ``[0, U]`` (the usual test) never show it.
Hole classes: 10 (only shows with ``lower != 0``).
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
CLASSES = (10,)


def upper_constant(lower, upper):
    return ops.absolute(upper)


def build(lower, upper):
    return replace(build_bounded_int_sum(lower, upper),
                   stability_map=Map(constant=upper_constant, params={"lower": lower, "upper": upper}))


make_bis_upper = make_bounded_int_sum.variant("make_bounded_int_sum_upper_only", build)
MECHANISMS = [Entry("outsider_bis_upper_only", make_bis_upper)]


def witness() -> str:
    t = make_bis_upper(-10, 3)
    observed, claimed = stability_violation(t, [], [-10], 1)
    return f"bounds [-10, 3]: sums of [] and [-10] are {observed} apart > map(1) = {claimed}"
