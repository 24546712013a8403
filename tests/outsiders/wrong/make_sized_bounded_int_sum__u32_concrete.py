"""Sized int sum whose map, on concrete numbers, mirrors OpenDP's fixed-width arithmetic
(``(U - L) & 0xFFFFFFFF``, "to agree with the Rust u32 range") while solver terms get the exact
formula.

Wrong: for ``U - L = 2^32`` the running map is ``0`` though Python ints never wrap and a
substitution moves the sum by ``2^32``. The solver only ever sees the exact branch.
Hole classes: 11 (branch on ``ops.is_symbolic``).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_sized_bounded_int_sum import (build_sized_bounded_int_sum,  # noqa: E402
                                                   make_sized_bounded_int_sum, sized_int_sum_map)
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_sized_bounded_int_sum"
CLASSES = (11,)


def u32_map(d_in, lower, upper):
    if any(ops.is_symbolic(v) for v in (d_in, lower, upper)):
        return sized_int_sum_map(d_in, lower, upper)
    return (d_in // 2) * ((upper - lower) & 0xFFFFFFFF)


def build(size, lower, upper):
    return replace(build_sized_bounded_int_sum(size, lower, upper),
                   stability_map=Map(rule=u32_map, params={"lower": lower, "upper": upper}))


make_sbis_u32 = make_sized_bounded_int_sum.variant("make_sized_bounded_int_sum_u32", build)
MECHANISMS = [Entry("outsider_sbis_u32_concrete", make_sbis_u32)]


def witness() -> str:
    t = make_sbis_u32(1, 0, 2 ** 32)
    observed, claimed = stability_violation(t, [0], [2 ** 32], 2)
    return f"size 1, [0, 2^32]: sums {observed} apart > map(2) = {claimed}"
