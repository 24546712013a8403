"""Wrong twins of ``make_select_column``: one refuted per obligation (a column off by one, the
whole record returned, an absolute output metric, a half map)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms.core import Map, RowTransform
from mechanisms.make_select_column import build_select_column, make_select_column
from mechanisms.metrics import AbsoluteDistance
from obligations.base import Entry
from obligations.make_select_column import select_column_obligations


def next_column(row: Any, position: int) -> Any:
    """Wrong: the column after the key's (an off-by-one past an index column that was dropped),
    wrapping around; a str all the same, so only the specification sees it."""
    return row[(position + 1) % len(row)]


def whole_record(row: Any, position: int) -> Any:
    """Wrong: the record itself, not its field: a tuple, outside vectors of str."""
    return row


def half(d_in: Any) -> Any:
    """Wrong: a row transform is 1-stable, not 1/2-stable."""
    return d_in / 2


def _with_kernel(kernel: Any):
    def build(key: Any, columns: tuple[str, ...]):
        built = build_select_column(key, columns)
        return replace(built, function=RowTransform(kernel, built.function.params))
    return build


def build_absolute_output(key: Any, columns: tuple[str, ...]):
    """Wrong: absolute distance is not defined on vectors of str."""
    return replace(build_select_column(key, columns), output_metric=AbsoluteDistance())


def build_half_map(key: Any, columns: tuple[str, ...]):
    return replace(build_select_column(key, columns), stability_map=Map(rule=half))


make_select_next_column = make_select_column.variant("make_select_next_column",
                                                     _with_kernel(next_column))
make_select_whole_record = make_select_column.variant("make_select_whole_record",
                                                      _with_kernel(whole_record))
make_select_absolute_output = make_select_column.variant("make_select_absolute_output",
                                                         build_absolute_output)
make_select_half_map = make_select_column.variant("make_select_half_map", build_half_map)

MECHANISMS = [Entry(c.name, c, select_column_obligations(c, c.name.removeprefix("make_")))
              for c in (make_select_next_column, make_select_whole_record,
                        make_select_absolute_output, make_select_half_map)]

EXPECTED_REFUTATIONS = {
    "select_next_column.specification",
    "select_whole_record.output_domain",
    "select_absolute_output.compatibility",
    "select_half_map.stability",
}

TWIN_OF = {
    "select_column.specification": "select_next_column.specification",
    "select_column.output_domain": "select_whole_record.output_domain",
    "select_column.compatibility": "select_absolute_output.compatibility",
    "select_column.stability": "select_half_map.stability",
}
