"""Sized int sum with a map capped by the size: ``min((d // 2)(U - L), size (U - L))``.

Correct and tighter: two vectors of ``size`` rows in ``[L, U]`` have sums in
``[size L, size U]``, so they are never more than ``size (U - L)`` apart whatever ``d_in``; the
first term is the catalogue's valid map. (Relies on a fact the sized domain guarantees.)
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import itertools  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_sized_bounded_int_sum import (build_sized_bounded_int_sum,  # noqa: E402
                                                   make_sized_bounded_int_sum, sized_int_sum_map)
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_sized_bounded_int_sum"
CLASSES = (8,)


def capped(d_in, lower, upper, size):
    return ops.minimum(sized_int_sum_map(d_in, lower, upper), size * (upper - lower))


def build(size, lower, upper):
    return replace(build_sized_bounded_int_sum(size, lower, upper),
                   stability_map=Map(rule=capped, params={"lower": lower, "upper": upper, "size": size}))


make_sbis_cap = make_sized_bounded_int_sum.variant("make_sized_bounded_int_sum_size_cap", build)
MECHANISMS = [Entry("outsider_right_sbis_size_cap", make_sbis_cap)]


def check() -> str:
    pairs = 0
    for size in (0, 1, 2, 3):
        for lower, upper in ((0, 2), (-1, 1), (-2, 0), (1, 1)):
            t = make_sbis_cap(size, lower, upper)
            rows = range(lower, upper + 1)
            for v in itertools.product(rows, repeat=size):
                for w in itertools.product(rows, repeat=size):
                    d = t.input_metric.distance(v, w)
                    assert abs(t(list(v)) - t(list(w))) <= t.map(d)
                    pairs += 1
    return f"exhaustive: every pair of sized vectors ({pairs} pairs) within the capped map"
