"""Select column with a negative position: kernel ``row[position]`` with
``position = columns.index(key) - len(columns)`` (indexing from the end of the record), and the
map written as a rule ``d_in -> d_in``.

Correct: every admitted record has exactly ``len(columns)`` fields, so ``row[i - n]`` is
``row[i]`` for ``0 <= i < n``; a row transform is 1-stable, and the rule returns the same value
as the catalogue's linear map with constant 1 (``d_in * 1 = d_in`` exactly on ints). Checked:
equal outputs and maps on every key of several tables.
"""

import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Map, RowTransform  # noqa: E402
from mechanisms.make_select_column import (build_select_column, make_select_column,  # noqa: E402
                                           select_kernel)
from obligations.base import Entry  # noqa: E402
from obligations.make_select_column import select_column_obligations  # noqa: E402

CONSTRUCTOR = "make_select_column"


def identity_map(d_in):
    return d_in


def build(key, columns):
    t = build_select_column(key, columns)
    position = columns.index(key) - len(columns)
    return replace(t, function=RowTransform(select_kernel, {"position": position}),
                   stability_map=Map(rule=identity_map))


make_select_column_neg = make_select_column.variant("make_select_column_negative_index", build)
MECHANISMS = [Entry("outsider_right_select_column_negative_index", make_select_column_neg,
                    select_column_obligations(make_select_column_neg,
                                              "outsider_right_select_column_negative_index"))]


def check() -> str:
    rng = random.Random(6)
    n = 0
    for columns in [("a",), ("a", "b"), ("x", "y", "z"), ("p", "q", "r", "s")]:
        for key in columns:
            ours, theirs = make_select_column_neg(key, columns), make_select_column(key, columns)
            for _ in range(50):
                data = [tuple(rng.choice(["", "u", "v", "w"]) for _ in columns)
                        for _ in range(rng.randrange(6))]
                assert ours(data) == theirs(data)
                n += 1
            assert all(ours.map(d) == theirs.map(d) for d in range(50))
    return f"equal outputs on {n} tables, equal maps"
