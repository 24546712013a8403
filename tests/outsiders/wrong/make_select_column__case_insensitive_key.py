"""Select column with a case-insensitive key lookup (``"Age"`` finds the column ``"age"``):
position ``[c.lower() for c in columns].index(key.lower())``.

Wrong: the columns may differ only by case (they are only required to be distinct strings).
With columns ``("Age", "age")`` (say an age band and an exact age), ``key = "age"`` selects the
first column, ``"Age"``: the transformation releases another column than the one named by its
key. It is still 1-stable and within its domains, but it is not ``make_select_column(key, ...)``:
a privacy analysis of the pipeline that reasons about the column it named (its bounds, its
public categories) is about other data.
Hole classes: none listed (a kernel bug on some parameters: the specification broken).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_select_column import (build_select_column, make_select_column,  # noqa: E402
                                           select_kernel)
from obligations.base import Entry  # noqa: E402
from obligations.make_select_column import select_column_obligations  # noqa: E402

CONSTRUCTOR = "make_select_column"
CLASSES = ()


def build(key, columns):
    t = build_select_column(key, columns)
    position = [c.lower() for c in columns].index(key.lower())
    return replace(t, function=RowTransform(select_kernel, {"position": position}))


make_select_column_nocase = make_select_column.variant("make_select_column_case_insensitive",
                                                       build)
MECHANISMS = [Entry("outsider_select_column_case_insensitive_key", make_select_column_nocase,
                    select_column_obligations(make_select_column_nocase,
                                              "outsider_select_column_case_insensitive_key"))]


def witness() -> str:
    columns = ("Age", "age")
    t = make_select_column_nocase("age", columns)
    row = ("30-39", "34")
    out = t([row])
    truth = [dict(zip(columns, row))["age"]]
    assert out != truth, (out, truth)
    return f"select 'age' of columns {columns}, row {row}: {out}, the column 'age' holds {truth}"
