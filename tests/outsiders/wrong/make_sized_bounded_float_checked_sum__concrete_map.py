"""Float sum whose map, on concrete numbers, skips the rounding relaxation ("the relaxation is a
proof artefact; runtime callers want the real sensitivity"), while solver terms get the
catalogue's map.

Wrong: the running map is the real-number ``floor(d_in / 2) (U - L)``, which float sums exceed:
``[1, 1 - 2^-53, 1 - 2^-53]`` vs ``[0, 1 - 2^-53, 1 - 2^-53]`` (sequential, bounds ``[0, 1]``) have
sums ``1 + 2^-52`` apart, above ``map(2) = 1.0``.
Hole classes: 11 (branch on ``ops.is_symbolic``).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.arith import float_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_sized_bounded_float_checked_sum import (  # noqa: E402
    build_sized_bounded_float_checked_sum, make_sized_bounded_float_checked_sum, sum_map)
from obligations.base import Entry  # noqa: E402
from obligations.make_sized_bounded_float_checked_sum import sized_float_sum_obligations  # noqa: E402

CONSTRUCTOR = "make_sized_bounded_float_checked_sum"
CLASSES = (11,)


def runtime_map(d_in, lower, upper, relaxation):
    if any(ops.is_symbolic(v) for v in (d_in, lower, upper, relaxation)):
        return sum_map(d_in, lower, upper, relaxation)
    return float_up(ops.floor(ops.exact(d_in) / 2) * (ops.exact(upper) - ops.exact(lower)))


def build(size, lower, upper, summation="pairwise"):
    t = build_sized_bounded_float_checked_sum(size, lower, upper, summation)
    return replace(t, stability_map=Map(rule=runtime_map, params=dict(t.stability_map.params)))


make_sfs_rt = make_sized_bounded_float_checked_sum.variant("make_sized_float_sum_runtime_map", build)
MECHANISMS = [Entry("outsider_sfs_concrete_map", make_sfs_rt,
                    sized_float_sum_obligations(make_sfs_rt, "outsider_sfs_concrete_map"))]


def witness() -> str:
    t = make_sfs_rt(3, 0.0, 1.0, "sequential")
    almost = 1 - 2 ** -53
    observed, claimed = stability_violation(t, [1.0, almost, almost], [0.0, almost, almost], 2)
    return f"sequential, n = 3, [0, 1]: sums {observed} apart > map(2) = {claimed}"
