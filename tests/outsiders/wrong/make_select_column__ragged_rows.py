"""Select column on "ragged" CSV rows: the record domain admits rows with fewer fields than
columns (``csv.reader`` gives a short list for a line with missing trailing fields, and a
contributor widens ``RecordDomain.member`` to ``1 <= len(row) <= len(columns)`` so such files
load), the kernel still ``row[i]``.

Wrong: ``("ann",)`` is admitted by the widened domain for columns ``("name", "age")``, and
selecting ``"age"`` (position 1) raises ``IndexError`` on it: a transformation that raises on an
input of its own input domain (and, in a chain, a data-dependent crash that leaks whether some
row is short). The domain does not fit the kernel.
Hole classes: none listed (a domain widened without the kernel).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.domains import RecordDomain, VectorDomain  # noqa: E402
from mechanisms.make_select_column import build_select_column, make_select_column  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_select_column import select_column_obligations  # noqa: E402

CONSTRUCTOR = "make_select_column"
CLASSES = ()


@dataclass(frozen=True)
class RaggedRecordDomain(RecordDomain):
    """Rows of 1 to ``len(columns)`` strings (trailing fields may be missing)."""

    def member(self, value):
        return (isinstance(value, tuple) and 1 <= len(value) <= len(self.columns)
                and all(isinstance(v, str) for v in value))


def build(key, columns):
    t = build_select_column(key, columns)
    return replace(t, input_domain=VectorDomain(RaggedRecordDomain(columns)))


make_select_column_ragged = make_select_column.variant("make_select_column_ragged_rows", build)
MECHANISMS = [Entry("outsider_select_column_ragged_rows", make_select_column_ragged,
                    select_column_obligations(make_select_column_ragged,
                                              "outsider_select_column_ragged_rows"))]


def witness() -> str:
    t = make_select_column_ragged("age", ("name", "age"))
    data = [("bob", "37"), ("ann",)]
    assert t.input_domain.member(data)
    try:
        out = t(data)
    except IndexError as e:
        return f"select 'age' of {data} (admitted by the input domain) raises IndexError: {e}"
    raise AssertionError(f"no raise: {out}")
