"""``make_select_column(key, columns)``: the column named ``key`` of a table of string records.

``VectorDomain(RecordDomain(columns))`` (rows are tuples of ``len(columns)`` strings, one per named
column, as ``csv.reader`` reads a CSV file's data rows) to ``VectorDomain(AtomDomain(str))``,
symmetric distance on both sides, stability map ``d_in -> d_in``: a row transform with kernel
``row -> row[i]``, ``i`` the position of ``key`` in ``columns``, 1-stable by the row-transform
lemma (each row gives one value, equal rows equal values).

Preconditions: ``columns`` a non-empty tuple of distinct strings (``ColumnsError``), ``key`` one
of them (``ColumnKeyError``). OpenDP 0.16's ``make_select_column(key, TOA=str)`` reads a column
of a dataframe (column name to column vector) and fails at run time when the column is missing;
here the columns are part of the input domain, so a missing column is refused when the
constructor is called, and the map is the same, ``d_in``.
"""

from __future__ import annotations

from typing import Any

from mechanisms.core import Constructor, Map, Precondition, RowTransform, Transformation
from mechanisms.domains import AtomDomain, RecordDomain, VectorDomain
from mechanisms.errors import ColumnKeyError, ColumnsError
from mechanisms.make_clamp import unit_constant
from mechanisms.metrics import SymmetricDistance


def select_kernel(row: Any, position: int) -> Any:
    """``row[position]``: the value of one column of a record."""
    return row[position]


def validate_columns(key: Any, columns: Any) -> None:
    """``columns`` is a non-empty tuple of distinct strings."""
    if (type(columns) is not tuple or not columns or len(set(columns)) != len(columns)
            or not all(type(name) is str for name in columns)):
        raise ColumnsError(columns)


SELECT_COLUMN_PRECONDITIONS = (
    Precondition("key is one of the columns", lambda key, columns: key in columns,
                 lambda key, columns: ColumnKeyError(key, columns)),
)


def build_select_column(key: Any, columns: tuple[str, ...]) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(RecordDomain(columns)),
        output_domain=VectorDomain(AtomDomain(str)),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(select_kernel, {"position": columns.index(key)}),
        stability_map=Map(constant=unit_constant),
    )


make_select_column = Constructor("make_select_column", build_select_column,
                                 SELECT_COLUMN_PRECONDITIONS, validate_columns)
