"""Sized int sum counting substitutions as ``(d_in - 1) // 2`` ("the first change is free").

Wrong: two vectors of one size at symmetric distance 2 are one substitution apart and their sums
differ by up to ``U - L``, but ``(2 - 1) // 2 = 0``. Shows only from ``d_in = 2`` on (the least
nonzero distance of sized data).
Hole classes: 9 (nonlinear integer map written wrong), 10 (shows with ``d_in >= 2``).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_sized_bounded_int_sum import (build_sized_bounded_int_sum,  # noqa: E402
                                                   make_sized_bounded_int_sum)
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_sized_bounded_int_sum"
CLASSES = (9, 10)


def off_by_one(d_in, lower, upper):
    return ops.floor_div(d_in - 1, 2) * (upper - lower)


def build(size, lower, upper):
    return replace(build_sized_bounded_int_sum(size, lower, upper),
                   stability_map=Map(rule=off_by_one, params={"lower": lower, "upper": upper}))


make_sbis_obo = make_sized_bounded_int_sum.variant("make_sized_bounded_int_sum_off_by_one", build)
MECHANISMS = [Entry("outsider_sbis_off_by_one", make_sbis_obo)]


def witness() -> str:
    t = make_sbis_obo(1, 0, 5)
    observed, claimed = stability_violation(t, [0], [5], 2)
    return f"size 1, [0, 5]: [0] vs [5] sums {observed} apart > map(2) = {claimed}"
