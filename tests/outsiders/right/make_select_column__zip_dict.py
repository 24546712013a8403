"""Select column by name through a dict: kernel ``dict(zip(columns, row))[key]``.

Correct: rows of ``RecordDomain(columns)`` have exactly ``len(columns)`` strings and the
column names are distinct, so ``dict(zip(columns, row))`` maps each name to its field and
``[key]`` is ``row[columns.index(key)]``: the same value as the catalogue's kernel on every
admitted row; still a row transform (1-stable, map ``d_in``). Checked: equal outputs to the
catalogue's on every key of tables of 1-4 columns, on many rows (including empty strings and
equal fields), and the same map.
"""

import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_select_column import build_select_column, make_select_column  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_select_column import select_column_obligations  # noqa: E402

CONSTRUCTOR = "make_select_column"


def select_by_name(row, key, columns):
    return dict(zip(columns, row))[key]


def build(key, columns):
    t = build_select_column(key, columns)
    return replace(t, function=RowTransform(select_by_name, {"key": key, "columns": columns}))


make_select_column_zip = make_select_column.variant("make_select_column_zip_dict", build)
MECHANISMS = [Entry("outsider_right_select_column_zip_dict", make_select_column_zip,
                    select_column_obligations(make_select_column_zip,
                                              "outsider_right_select_column_zip_dict"))]


def check() -> str:
    rng = random.Random(5)
    tables = [("a",), ("a", "b"), ("x", "y", "z"), ("id", "Age", "age", "")]
    n = 0
    for columns in tables:
        for key in columns:
            ours, theirs = make_select_column_zip(key, columns), make_select_column(key, columns)
            for _ in range(50):
                data = [tuple(rng.choice(["", "0", "1", "a", "a;b"]) for _ in columns)
                        for _ in range(rng.randrange(6))]
                assert ours(data) == theirs(data), (columns, key, data)
                n += 1
            assert all(ours.map(d) == theirs.map(d) == d for d in range(50))
    return f"equal outputs on {n} tables, equal maps"
