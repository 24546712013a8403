"""Sized int sum with the map ``(d_in (U - L)) // 2`` (multiply, then halve).

Correct: ``d (U - L) // 2 >= (d // 2)(U - L)`` for integers ``d >= 0``, ``U - L >= 0`` (equal for even
``d``, which is every distance sized data can have), so it bounds the catalogue's valid map.
A nonlinear integer map whose soundness needs the floor reasoning.
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


def half_product(d_in, lower, upper):
    return ops.floor_div(d_in * (upper - lower), 2)


def build(size, lower, upper):
    return replace(build_sized_bounded_int_sum(size, lower, upper),
                   stability_map=Map(rule=half_product, params={"lower": lower, "upper": upper}))


make_sbis_hp = make_sized_bounded_int_sum.variant("make_sized_bounded_int_sum_half_product", build)
MECHANISMS = [Entry("outsider_right_sbis_half_product", make_sbis_hp)]


def check() -> str:
    n = 0
    for lower in range(-4, 5):
        for upper in range(lower, 5):
            ours, theirs = make_sbis_hp(3, lower, upper), make_sized_bounded_int_sum(3, lower, upper)
            for d in range(12):
                assert ours.map(d) >= theirs.map(d)
                assert d % 2 or ours.map(d) == theirs.map(d)
                n += 1
    return f"map >= catalogue's on {n} cases, equal on every even d_in"
