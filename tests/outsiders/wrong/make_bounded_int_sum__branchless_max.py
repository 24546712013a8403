"""Unsized int sum with a "branch-free" ``max(|L|, |U|) = (|L| + |U| + ||L| - |U||) / 2``.

Wrong for large bounds: ``/`` on Python ints is true division, a correctly rounded *float*. For
``U = 2^53 + 1`` the constant is ``float(2^53 + 1) = 2^53``, below the exact sensitivity, so a row
``U`` moves the sum by more than ``map(1)``.
Hole classes: 4 (an integer-valued map written with true division).
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
CLASSES = (4,)


def branchless_max(lower, upper):
    a, b = ops.absolute(lower), ops.absolute(upper)
    return (a + b + ops.absolute(a - b)) / 2


def build(lower, upper):
    return replace(build_bounded_int_sum(lower, upper),
                   stability_map=Map(constant=branchless_max, params={"lower": lower, "upper": upper}))


make_bis_branchless = make_bounded_int_sum.variant("make_bounded_int_sum_branchless", build)
MECHANISMS = [Entry("outsider_bis_branchless_max", make_bis_branchless)]


def witness() -> str:
    upper = 2 ** 53 + 1
    t = make_bis_branchless(0, upper)
    observed, claimed = stability_violation(t, [], [upper], 1)
    return f"bounds [0, 2^53+1]: sums {observed} apart > map(1) = {claimed!r}"
