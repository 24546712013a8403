"""mechanisms.make_select_column: the column of a table of string records, refusals, the map,
and the comparison with opendp's make_select_column on a dataframe."""

from __future__ import annotations

import opendp.prelude as dp
import pytest

from mechanisms.domains import AtomDomain, RecordDomain, VectorDomain
from mechanisms.errors import ColumnKeyError, ColumnsError, DomainError
from mechanisms.make_select_column import make_select_column
from mechanisms.metrics import SymmetricDistance

COLUMNS = ("id", "age", "city")
TABLE = [("1", "48", "Paris"), ("2", "31", "Lyon"), ("3", "", "Paris")]


@pytest.mark.parametrize("key, expected", [("id", ["1", "2", "3"]), ("age", ["48", "31", ""]),
                                           ("city", ["Paris", "Lyon", "Paris"])])
def test_selects_the_named_column(key, expected):
    assert make_select_column(key, COLUMNS)(TABLE) == expected


def test_domains_metrics_and_map():
    t = make_select_column("age", COLUMNS)
    assert t.input_domain == VectorDomain(RecordDomain(COLUMNS))
    assert t.output_domain == VectorDomain(AtomDomain(str))
    assert t.input_metric == t.output_metric == SymmetricDistance()
    assert [t.map(d) for d in (0, 1, 7)] == [0, 1, 7]


def test_one_changed_record_changes_one_selected_row():
    t = make_select_column("city", COLUMNS)
    neighbour = TABLE[:2]
    d_in = t.input_metric.distance(TABLE, neighbour)
    assert d_in == 1
    assert t.output_metric.distance(t(TABLE), t(neighbour)) <= t.map(d_in)


@pytest.mark.parametrize("key, columns", [("x", COLUMNS), ("ID", COLUMNS)])
def test_a_key_that_is_not_a_column_is_refused(key, columns):
    with pytest.raises(ColumnKeyError) as error:
        make_select_column(key, columns)
    assert error.value.key == key and error.value.columns == columns


@pytest.mark.parametrize("columns", [(), ("id", "id"), ["id", "age"], (0, 1), "id"])
def test_columns_that_are_not_distinct_names_in_a_tuple_are_refused(columns):
    with pytest.raises(ColumnsError) as error:
        make_select_column("id", columns)
    assert error.value.columns == columns


@pytest.mark.parametrize("data", [[("1", "48")], [("1", 48, "Paris")], [["1", "48", "Paris"]]])
def test_records_outside_the_table_are_refused(data):
    with pytest.raises(DomainError):
        make_select_column("age", COLUMNS)(data)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_agrees_with_opendp_on_a_dataframe():
    """opendp reads the same table as CSV text into a dataframe (make_split_dataframe), then
    selects the column: the same rows, and the same map (OpenDP's dataframe split is 1-stable
    too, so the chain's map is the selection's)."""
    dp.enable_features("contrib")
    text = "\n".join(",".join(row) for row in TABLE)
    for key in COLUMNS:
        theirs = dp.t.make_split_dataframe(separator=",", col_names=list(COLUMNS)) \
            >> dp.t.make_select_column(key=key, TOA=str)
        ours = make_select_column(key, COLUMNS)
        assert theirs(text) == ours(TABLE)
        assert [theirs.map(d) for d in (0, 1, 5)] == [ours.map(d) for d in (0, 1, 5)]
