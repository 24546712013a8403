"""Sized int sum with the map distributed over the bounds: ``(d // 2) U - (d // 2) L``.

Correct: integer arithmetic, ``k U - k L = k (U - L)`` exactly; the same values as the catalogue.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_sized_bounded_int_sum import (build_sized_bounded_int_sum,  # noqa: E402
                                                   make_sized_bounded_int_sum)
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_sized_bounded_int_sum"
CLASSES = (9,)


def distributed(d_in, lower, upper):
    pairs = ops.floor_div(d_in, 2)
    return pairs * upper - pairs * lower


def build(size, lower, upper):
    return replace(build_sized_bounded_int_sum(size, lower, upper),
                   stability_map=Map(rule=distributed, params={"lower": lower, "upper": upper}))


make_sbis_dist = make_sized_bounded_int_sum.variant("make_sized_bounded_int_sum_distributed", build)
MECHANISMS = [Entry("outsider_right_sbis_distributed", make_sbis_dist)]


def check() -> str:
    n = 0
    for lower in range(-5, 6):
        for upper in range(lower, 6):
            for d in range(10):
                assert make_sbis_dist(2, lower, upper).map(d) == make_sized_bounded_int_sum(2, lower, upper).map(d)
                n += 1
    return f"equal maps on {n} cases"
