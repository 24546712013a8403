"""make_count_by refactored to return JSON-friendly keys: bool keys turned into 0/1. WRONG.

The refactor: ``Counter`` the rows, then ``{int(k) if isinstance(k, bool) else k: c}`` so that
``json.dumps`` writes the histogram of a bool column as ``{"0": .., "1": ..}`` instead of
``{"false": ..}`` - a change made for a serialisation layer, in the transformation itself.

The bug: with ``carrier=bool`` the keys become the ints ``0`` and ``1``. Python's dict equality
hides it (``{1: 1} == {True: 1}``), so comparing to the catalogue with ``==`` passes, and for
``int`` and ``str`` carriers nothing changes at all. But ``1`` is not a member of
``AtomDomain(bool)`` (membership is by exact type: ``True`` is not an int atom and ``1`` is not a
bool atom).

Standard statement broken: **output domain**. ``make(bool)`` on ``[True]`` (a member of
``VectorDomain(AtomDomain(bool))``) returns ``{1: 1}``, not a member of
``MapDomain(AtomDomain(bool), AtomDomain(int))``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from collections import Counter
from dataclasses import replace

from mechanisms.make_count_by import build_count_by, make_count_by
from obligations.base import Entry

CONSTRUCTOR = "make_count_by"


def jsonable_histogram(data):
    return {(int(k) if isinstance(k, bool) else k): c for k, c in Counter(data).items()}


def build_count_by_jsonable(carrier):
    return replace(build_count_by(carrier), function=jsonable_histogram)


make_count_by_jsonable = make_count_by.variant("make_count_by_jsonable", build_count_by_jsonable)
MECHANISMS = [Entry("make_count_by_jsonable", make_count_by_jsonable)]


def check() -> str:
    for carrier, v in ((int, [1, 0, 1, 10 ** 400]), (str, ["a", "", "a"])):
        out = make_count_by_jsonable(carrier)(v)
        assert out == make_count_by(carrier)(v)
        assert make_count_by_jsonable(carrier).output_domain.member(out)
    t = make_count_by_jsonable(bool)
    x = [True]
    assert t.input_domain.member(x)
    y = t(x)
    assert y == {True: 1} == make_count_by(bool)(x)  # dict equality cannot see it
    assert [type(k) for k in y] == [int]
    assert not t.output_domain.member(y)
    return f"output domain broken: make_count_by_jsonable(bool)({x}) = {y!r}, keys int not bool"
