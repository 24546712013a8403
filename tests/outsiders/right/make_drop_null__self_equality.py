"""Drop-null keeping the rows equal to themselves, ``x == x``.

Correct: a float equals itself exactly when it is not NaN, so the filter keeps the same rows as
the catalogue's ``not is_nan(x)``; a filter is 1-stable.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.make_drop_null import Filter, build_drop_null, make_drop_null  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_drop_null"


def reflexive(x):
    return ops.eq(x, x)


def build(carrier=float):
    return replace(build_drop_null(carrier), function=Filter(reflexive))


make_drop_eq = make_drop_null.variant("make_drop_null_self_equality", build)
MECHANISMS = [Entry("outsider_right_drop_null_self_equality", make_drop_eq)]


def check() -> str:
    values = [math.nan, -math.inf, math.inf, -0.0, 0.0, 1.5, float("nan"), 5e-324]
    a, b = make_drop_eq(float)(values), make_drop_null(float)(values)
    assert [repr(x) for x in a] == [repr(x) for x in b]
    return f"same rows kept as make_drop_null: {a}"
