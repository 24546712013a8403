"""Float sum whose pairwise function was rewritten recursively with the base case
``len(data) <= 0`` (for ``<= 1``), splitting at ``n // 2``.

Wrong: a block of one row splits into an empty block and itself, forever: ``RecursionError`` on
every input (sizes are at least 1). Domains and the map are the catalogue's.
Hole classes: 14 (the function never returns on any input).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from typing import Any, Callable  # noqa: E402

from mechanisms.make_sized_bounded_float_checked_sum import (  # noqa: E402
    add_step, build_sized_bounded_float_checked_sum, make_sized_bounded_float_checked_sum,
    pairwise_split)
from obligations.base import Entry  # noqa: E402
from obligations.make_sized_bounded_float_checked_sum import sized_float_sum_obligations  # noqa: E402

CONSTRUCTOR = "make_sized_bounded_float_checked_sum"
CLASSES = (14,)


@dataclass(frozen=True)
class RecursiveSum:
    combine: Callable[[Any, Any], Any]
    split: Callable[[Any], Any]

    def __call__(self, data):
        if len(data) <= 0:
            return 0.0
        middle = self.split(len(data))
        return self.combine(self(data[:middle]), self(data[middle:]))


def build(size, lower, upper, summation="pairwise"):
    t = build_sized_bounded_float_checked_sum(size, lower, upper, summation)
    return replace(t, function=RecursiveSum(add_step, pairwise_split))


make_sfs_rec = make_sized_bounded_float_checked_sum.variant("make_sized_float_sum_recursive", build)
MECHANISMS = [Entry("outsider_sfs_recursion_base", make_sfs_rec,
                    sized_float_sum_obligations(make_sfs_rec, "outsider_sfs_recursion_base"))]


def witness() -> str:
    raised = 0
    for size in (1, 2, 5):
        t = make_sfs_rec(size, 0.0, 1.0)
        try:
            t([0.5] * size)
        except RecursionError:
            raised += 1
    assert raised == 3
    return "pairwise sum of sizes 1, 2, 5: RecursionError every time"
