"""Count whose function is Python's ``len`` itself rather than a fold adding 1 per row.

Correct: ``len(v)`` is the number of rows, an ``int``, and ``| |v| - |w| | <= d_sym(v, w)``, so the
map ``d_in`` holds; the output domain ``AtomDomain(int)`` contains every ``len``.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from mechanisms.make_count import build_count, make_count  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_count"


def build(carrier):
    return replace(build_count(carrier), function=len)


make_count_len = make_count.variant("make_count_len", build)
MECHANISMS = [Entry("outsider_right_count_len_function", make_count_len)]


def check() -> str:
    cases = [(float, [math.nan, 1.0, -0.0]), (int, []), (int, list(range(100))), (str, ["", "a"]),
             (bool, [True, False, True])]
    for carrier, v in cases:
        a, b = make_count_len(carrier)(v), make_count(carrier)(v)
        assert a == b and type(a) is int
    assert all(make_count_len(int).map(d) == make_count(int).map(d) for d in range(10))
    return f"equal outputs and maps to make_count on {len(cases)} vectors"
