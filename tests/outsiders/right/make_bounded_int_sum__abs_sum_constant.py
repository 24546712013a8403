"""Unsized int sum with the looser constant ``|L| + |U|``.

Correct (a larger map): ``|L| + |U| >= max(|L|, |U|)``, and any upper bound of a valid stability
map is valid. Integer arithmetic only, so no rounding.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_bounded_int_sum import build_bounded_int_sum, make_bounded_int_sum  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_bounded_int_sum"


def abs_sum(lower, upper):
    return ops.absolute(lower) + ops.absolute(upper)


def build(lower, upper):
    return replace(build_bounded_int_sum(lower, upper),
                   stability_map=Map(constant=abs_sum, params={"lower": lower, "upper": upper}))


make_bis_abs = make_bounded_int_sum.variant("make_bounded_int_sum_abs_sum", build)
MECHANISMS = [Entry("outsider_right_bis_abs_sum_constant", make_bis_abs)]


def check() -> str:
    n = 0
    for lower in range(-6, 7):
        for upper in range(lower, 7):
            for d in range(5):
                assert make_bis_abs(lower, upper).map(d) >= make_bounded_int_sum(lower, upper).map(d)
                n += 1
    return f"map >= make_bounded_int_sum's map on {n} (bounds, d_in) triples"
