"""make_drop_null refactored to delete NaN rows from a copy while enumerating it. WRONG.

The refactor: ``out = list(data)``; ``for i, x in enumerate(out): if math.isnan(x): del out[i]``
("in-place, no second list").

The bug: deleting ``out[i]`` shifts the next row into position ``i``, and the loop moves on to
``i + 1``, so the row right after a deleted NaN is never looked at. Two adjacent NaNs leave one
NaN in the output. Isolated NaNs (the usual test: ``[1.0, nan, 2.0]``) are all removed.

Standard statement broken: **output domain**. On ``[nan, nan]`` (a member of
``VectorDomain(AtomDomain(float, nan=True))``) the result is ``[nan]``, not a member of the
output domain ``VectorDomain(AtomDomain(float))`` (no NaN).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import math
from dataclasses import replace

from mechanisms.make_drop_null import build_drop_null, make_drop_null
from obligations.base import Entry

CONSTRUCTOR = "make_drop_null"


def drop_in_place(data):
    out = list(data)
    for i, x in enumerate(out):
        if math.isnan(x):
            del out[i]
    return out


def build_drop_null_in_place(carrier=float):
    return replace(build_drop_null(carrier), function=drop_in_place)


make_drop_null_in_place = make_drop_null.variant("make_drop_null_in_place",
                                                 build_drop_null_in_place)
MECHANISMS = [Entry("make_drop_null_in_place", make_drop_null_in_place)]


def check() -> str:
    t, ref = make_drop_null_in_place(float), make_drop_null(float)
    nan = float("nan")
    for v in ([], [1.0, nan, 2.0], [nan, -0.0, nan, math.inf], [nan]):
        assert t(v) == ref(v)
    x = [float("nan"), float("nan")]
    assert t.input_domain.member(x)
    y = t(x)
    assert len(y) == 1 and math.isnan(y[0]) and not t.output_domain.member(y)
    assert ref(x) == []
    return f"output domain broken: make_drop_null_in_place(float)([nan, nan]) = {y}"
