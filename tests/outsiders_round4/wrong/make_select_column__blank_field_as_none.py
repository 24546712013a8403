"""make_select_column refactored to report blank fields as missing (``None``). WRONG.

The refactor: the kernel becomes ``row[position].strip() or None`` ("a blank CSV cell is a
missing value; downstream ``make_drop_null``-style steps can drop it"), in a loop over the rows.

The bug: the output domain is ``VectorDomain(AtomDomain(str))``: every output row must be a
``str``. An empty or whitespace-only field now gives ``None``. (It also strips spaces from
non-blank fields, which is still a row-by-row function of a string and harmless for stability.)
Tables without blank cells give the catalogue's output up to surrounding spaces.

Standard statement broken: **output domain**. ``make("b", ("a", "b"))`` on ``[("x", "")]`` (a
member of ``VectorDomain(RecordDomain(("a", "b")))``) returns ``[None]``, not a member of
``VectorDomain(AtomDomain(str))``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from dataclasses import replace

from mechanisms.make_select_column import build_select_column, make_select_column
from obligations.base import Entry

CONSTRUCTOR = "make_select_column"


def select_or_none(data, position):
    out = []
    for row in data:
        out.append(row[position].strip() or None)
    return out


def build_select_column_none(key, columns):
    position = columns.index(key)
    return replace(build_select_column(key, columns),
                   function=lambda data: select_or_none(data, position))


make_select_column_none = make_select_column.variant("make_select_column_none",
                                                     build_select_column_none)
MECHANISMS = [Entry("make_select_column_none", make_select_column_none)]


def check() -> str:
    columns = ("a", "b")
    t, ref = make_select_column_none("b", columns), make_select_column("b", columns)
    table = [("x", "1"), ("y", "yes"), ("z", "a,b")]
    assert t(table) == ref(table)
    x = [("x", "")]
    assert t.input_domain.member(x)
    y = t(x)
    assert y == [None] and not t.output_domain.member(y)
    assert ref(x) == [""] and ref.output_domain.member(ref(x))
    return f"output domain broken: make_select_column_none('b', ('a', 'b'))({x}) = {y}"
