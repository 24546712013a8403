"""Unsized int sum whose constant is ``max(max(U, -U), max(L, -L))`` (absolute values as
maxima).

Correct: ``max(a, -a) = |a|`` for every int, so the constant is ``max(|L|, |U|)``, the catalogue's.
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


def four_way(lower, upper):
    return ops.maximum(ops.maximum(upper, -upper), ops.maximum(lower, -lower))


def build(lower, upper):
    return replace(build_bounded_int_sum(lower, upper),
                   stability_map=Map(constant=four_way, params={"lower": lower, "upper": upper}))


make_bis_4 = make_bounded_int_sum.variant("make_bounded_int_sum_four_way", build)
MECHANISMS = [Entry("outsider_right_bis_four_way_max", make_bis_4)]


def check() -> str:
    n = 0
    for lower in range(-6, 7):
        for upper in range(lower, 7):
            for d in range(5):
                assert make_bis_4(lower, upper).map(d) == make_bounded_int_sum(lower, upper).map(d)
                n += 1
    big = 2 ** 80 + 1
    assert make_bis_4(-big, 3).map(7) == make_bounded_int_sum(-big, 3).map(7)
    return f"equal maps on {n} (bounds, d_in) triples and on 80-bit bounds"
