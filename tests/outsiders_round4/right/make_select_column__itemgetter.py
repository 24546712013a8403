"""make_select_column refactored with ``operator.itemgetter``.

The function is ``list(map(operator.itemgetter(position), data))`` with ``position =
columns.index(key)`` computed once when the transformation is built.

Why it is correct: ``itemgetter(i)(row)`` is ``row[i]``, the catalogue's ``select_kernel``; the
input domain holds tuples of exactly ``len(columns)`` strings, so the index is always in range
and returns the field object itself (empty strings and separators included). ``columns`` are
distinct (validated), so ``index`` names the one column called ``key``. The output is the same
list of strings; domains, metrics and map are the reference's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import itertools
import operator
from dataclasses import replace

from mechanisms.make_select_column import build_select_column, make_select_column
from obligations.base import Entry

CONSTRUCTOR = "make_select_column"


def build_select_column_itemgetter(key, columns):
    getter = operator.itemgetter(columns.index(key))
    return replace(build_select_column(key, columns), function=lambda data: list(map(getter, data)))


make_select_column_itemgetter = make_select_column.variant("make_select_column_itemgetter",
                                                           build_select_column_itemgetter)
MECHANISMS = [Entry("make_select_column_itemgetter", make_select_column_itemgetter)]

FIELDS = ["", "a", "A", "a,b", "x\ny", " ", "\"q\""]
COLUMN_SETS = [("a",), ("a", "b"), ("age", "Age", "name"), ("", " ", "x", "y"), ("k", "", "a,b")]


def check() -> str:
    compared = 0
    for columns in COLUMN_SETS:
        records = list(itertools.product(FIELDS[:4], repeat=len(columns)))[:200]
        vectors = [[]] + [[r] for r in records] + [list(p) for p in
                                                    itertools.product(records[:8], repeat=3)]
        for key in columns:
            new, ref = make_select_column_itemgetter(key, columns), make_select_column(key, columns)
            assert (new.input_domain, new.output_domain, new.input_metric, new.output_metric) == \
                (ref.input_domain, ref.output_domain, ref.input_metric, ref.output_metric)
            for v in vectors:
                a, b = new(v), ref(v)
                assert type(a) is list and a == b and all(type(x) is str for x in a), (key, v)
                compared += 1
            for d in range(0, 20):
                assert new.map(d) == ref.map(d)
    return f"equal to make_select_column on {compared} (key, columns, table) cases"
