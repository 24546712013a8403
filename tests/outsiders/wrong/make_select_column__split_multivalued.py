"""Select column that splits multi-valued cells: ``"red;blue"`` gives the two values ``"red"``
and ``"blue"`` (a survey's "tick all that apply" column), the map still ``d_in``.

Wrong: one row can now release any number of values. ``[("a;b;c",)]`` and ``[]`` are at
symmetric distance 1, their selections ``["a", "b", "c"]`` and ``[]`` at distance 3 > map(1) = 1.
No constant map is right without a bound on the number of values per cell.
Hole classes: none listed (a wrong map: the function is no longer one value per row).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms.make_select_column import build_select_column, make_select_column  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_select_column import select_column_obligations  # noqa: E402

CONSTRUCTOR = "make_select_column"
CLASSES = ()


@dataclass(frozen=True)
class SplitSelect:
    position: int
    separator: str = ";"

    def __call__(self, data):
        out = []
        for row in data:
            out.extend(row[self.position].split(self.separator))
        return out


def build(key, columns):
    t = build_select_column(key, columns)
    return replace(t, function=SplitSelect(t.function.params["position"]))


make_select_column_split = make_select_column.variant("make_select_column_split_multivalued",
                                                      build)
MECHANISMS = [Entry("outsider_select_column_split_multivalued", make_select_column_split,
                    select_column_obligations(make_select_column_split,
                                              "outsider_select_column_split_multivalued"))]


def witness() -> str:
    t = make_select_column_split("colour", ("colour",))
    observed, claimed = stability_violation(t, [("a;b;c",)], [], 1)
    return f"[('a;b;c',)] vs []: outputs {observed} apart > map(1) = {claimed}"
