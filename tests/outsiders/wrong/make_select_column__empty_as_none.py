"""Select column that reads an empty CSV cell as missing: kernel ``row[i] or None``.

A contributor "handles nulls like pandas does": ``csv.reader`` gives ``""`` for an empty field,
and the kernel turns it into ``None`` so that a later ``make_drop_null`` can remove it. The
declared output domain is still ``VectorDomain(AtomDomain(str))``.

Wrong: the record ``("",)`` is in ``RecordDomain(("a",))`` (a tuple of one string) and the
released row is ``None``, which is not a ``str``: the output leaves the declared output domain,
so every downstream constructor that was proved for string vectors is handed a value outside
its domain. (Stability itself still holds: it is a row transform.)
Hole classes: none listed (a plain kernel bug on one input, the empty string).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import out_of_domain  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_select_column import build_select_column, make_select_column  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_select_column import select_column_obligations  # noqa: E402

CONSTRUCTOR = "make_select_column"
CLASSES = ()


def select_or_none(row, position):
    return row[position] or None


def build(key, columns):
    t = build_select_column(key, columns)
    return replace(t, function=RowTransform(select_or_none, dict(t.function.params)))


make_select_column_empty_none = make_select_column.variant("make_select_column_empty_as_none",
                                                           build)
MECHANISMS = [Entry("outsider_select_column_empty_as_none", make_select_column_empty_none,
                    select_column_obligations(make_select_column_empty_none,
                                              "outsider_select_column_empty_as_none"))]


def witness() -> str:
    t = make_select_column_empty_none("age", ("name", "age"))
    out = out_of_domain(t, [("ann", "41"), ("bob", "")])
    assert out == ["41", None], out
    return f"select 'age' of [('ann', '41'), ('bob', '')] = {out}: None is not a str"
