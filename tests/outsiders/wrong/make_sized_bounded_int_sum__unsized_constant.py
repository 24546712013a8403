"""Sized int sum with ``(d_in // 2) * max(|L|, |U|)``: the pair count of the sized map times the
unsized sum's per-row constant.

Wrong when ``L < 0 < U``: one substitution ``L -> U`` moves the sum by ``U - L > max(|L|, |U|)``.
Bounds ``[0, U]`` hide it.
Hole classes: 9 (nonlinear integer map), 10 (shows only with ``lower != 0``).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_bounded_int_sum import int_sum_constant  # noqa: E402
from mechanisms.make_sized_bounded_int_sum import (build_sized_bounded_int_sum,  # noqa: E402
                                                   make_sized_bounded_int_sum)
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_sized_bounded_int_sum"
CLASSES = (9, 10)


def pairs_times_magnitude(d_in, lower, upper):
    return ops.floor_div(d_in, 2) * int_sum_constant(lower, upper)


def build(size, lower, upper):
    return replace(build_sized_bounded_int_sum(size, lower, upper),
                   stability_map=Map(rule=pairs_times_magnitude,
                                     params={"lower": lower, "upper": upper}))


make_sbis_mag = make_sized_bounded_int_sum.variant("make_sized_bounded_int_sum_magnitude", build)
MECHANISMS = [Entry("outsider_sbis_unsized_constant", make_sbis_mag)]


def witness() -> str:
    t = make_sbis_mag(2, -5, 5)
    observed, claimed = stability_violation(t, [-5, 0], [5, 0], 2)
    return f"size 2, [-5, 5]: sums {observed} apart > map(2) = {claimed}"
