"""mechanisms.make_is_equal: the function, its domains and map, the refusals, agreement with
OpenDP."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import opendp.prelude as dp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import DomainError, NaNValueError, ValueTypeError
from mechanisms.make_is_equal import make_is_equal
from mechanisms.metrics import SymmetricDistance

dp.enable_features("contrib")

NAN, INF = math.nan, math.inf


HARD_ROWS: dict[type, list[Any]] = {
    float: [0.0, -0.0, NAN, INF, -INF, 5e-324, -5e-324, 1.0, 1e308, 0.1, 2.0 ** 53 + 2],
    int: [3, -3, 0, 10 ** 30, -(10 ** 30), 2 ** 63, 2 ** 53 + 1],
    str: ["a", "", "A", "a ", "\x00", "é", "aa"],
    bool: [True, False],
}


def documented_equal(x: Any, value: Any) -> bool:
    """The specification, stated apart from the kernel: floats are equal when neither is NaN and
    they denote the same extended real (exact rationals; -0.0 and 0.0 are one), other atoms when
    they are the same value."""
    if isinstance(x, float):
        if math.isnan(x) or math.isnan(value):
            return False
        if math.isinf(x) or math.isinf(value):
            return x == value if math.isinf(x) and math.isinf(value) else False
        return Fraction(x) == Fraction(value)
    return x == value


@pytest.mark.parametrize("carrier", list(HARD_ROWS))
def test_every_hard_value_against_every_hard_row_is_the_specification(carrier):
    """The kernel is the specification on every pair of hard atoms of a type, and a value's own
    one-row vector gives [True] (a NaN value, which would give [False], is refused)."""
    rows = HARD_ROWS[carrier]
    for value in rows:
        if carrier is float and math.isnan(value):
            continue
        out = make_is_equal(value)(rows)
        assert out == [documented_equal(x, value) for x in rows], value
        assert all(type(y) is bool for y in out)
        assert make_is_equal(value)([value]) == [True]


def test_floats_compare_as_ieee_754():
    t = make_is_equal(0.0)
    out = t([0.0, -0.0, NAN, INF, -INF, 5e-324, -5e-324, 1.0])
    assert out == [True, True, False, False, False, False, False, False]
    assert all(type(y) is bool for y in out)
    assert t([]) == []


@pytest.mark.parametrize("value, data, expected", [
    (-0.0, [0.0, -0.0, 5e-324], [True, True, False]),
    (INF, [INF, -INF, 1.7976931348623157e308, NAN], [True, False, False, False]),
    (-INF, [INF, -INF], [False, True]),
    (5e-324, [5e-324, 0.0, 1e-323], [True, False, False]),
    (0.1, [0.1, 0.1 + 0.0, 0.30000000000000004 - 0.2], [True, True, False]),
])
def test_special_float_values(value, data, expected):
    assert make_is_equal(value)(data) == expected


def test_nan_rows_never_match():
    for value in (0.0, INF, -INF, 1.5):
        assert make_is_equal(value)([NAN, float("-nan"), NAN]) == [False, False, False]


def test_ints_strings_and_bools():
    assert make_is_equal(3)([3, -3, 0, 10 ** 30, 3]) == [True, False, False, False, True]
    assert make_is_equal(10 ** 30)([10 ** 30, 10 ** 30 + 1]) == [True, False]
    assert make_is_equal("a")(["a", "A", "a ", "", "é"]) == [True, False, False, False, False]
    assert make_is_equal("")(["", " "]) == [True, False]
    assert make_is_equal(True)([True, False, True]) == [True, False, True]
    assert make_is_equal(False)([True, False]) == [False, True]


@pytest.mark.parametrize("value, carrier, nan", [(0.0, float, True), (3, int, False),
                                                 ("a", str, False), (True, bool, False)])
def test_domains_and_metrics(value, carrier, nan):
    t = make_is_equal(value)
    assert t.input_domain == VectorDomain(AtomDomain(carrier, nan=nan))
    assert t.output_domain == VectorDomain(AtomDomain(bool))
    assert t.input_metric == t.output_metric == SymmetricDistance()


@pytest.mark.parametrize("value, data", [
    (0.0, [1.0, 2]),          # an int in float data
    (0.0, [True]),
    (3, [1, 2.0]),
    (3, [1, True]),           # a bool is not an int row
    (True, [1]),
    ("a", ["a", 1]),
    ("a", [b"a"]),
    (0.0, 3.0),               # not a vector
    (0.0, [None]),
])
def test_rejects_input_outside_domain(value, data):
    t = make_is_equal(value)
    with pytest.raises(DomainError) as info:
        t(data)
    assert info.value.value is data and info.value.domain == t.input_domain


@pytest.mark.parametrize("value", [None, 1j, b"a", [0.0], (1,), {"a": 1}, 2.5 + 0j])
def test_value_type_error(value):
    with pytest.raises(ValueTypeError) as info:
        make_is_equal(value)
    assert info.value.value is value and isinstance(info.value, ValueError)
    assert "pass one of float, int, str, bool" in str(info.value)


@pytest.mark.parametrize("value", [NAN, float("-nan"), INF - INF])
def test_nan_value_error(value):
    with pytest.raises(NaNValueError) as info:
        make_is_equal(value)
    assert math.isnan(info.value.value)
    assert "NaN == x is False for every x" in str(info.value)


def test_map_and_check():
    for value in (0.0, 3, "a", False):
        t = make_is_equal(value)
        for d in (0, 1, 2, 17, 10 ** 20):
            assert t.map(d) == d and t.check(d, d)
        assert not t.check(3, 2)


pools = {
    float: st.sampled_from([NAN, INF, -INF, -0.0, 0.0, 1.0, 5e-324]),
    int: st.sampled_from([0, 1, -1, 10 ** 30]),
    str: st.sampled_from(["", "a", "b"]),
    bool: st.booleans(),
}


@st.composite
def cases(draw):
    carrier = draw(st.sampled_from(sorted(pools, key=lambda c: c.__name__)))
    value = draw(pools[carrier].filter(lambda x: not (isinstance(x, float) and math.isnan(x))))
    return value, draw(st.lists(pools[carrier], max_size=7)), draw(st.lists(pools[carrier],
                                                                             max_size=7))


@settings(max_examples=200, derandomize=True)
@given(case=cases())
def test_is_1_stable_and_lands_in_the_output_domain(case):
    value, v, w = case
    t = make_is_equal(value)
    assert t.output_domain.member(t(v)) and t.output_domain.member(t(w))
    d_in = t.input_metric.distance(v, w)
    assert t.output_metric.distance(t(v), t(w)) <= t.map(d_in)


# --- agreement with OpenDP ---------------------------------------------------------------------

OPENDP_DOMAINS = {
    float: dp.vector_domain(dp.atom_domain(T=float, nan=True)),
    int: dp.vector_domain(dp.atom_domain(T=int)),          # opendp's i32
    str: dp.vector_domain(dp.atom_domain(T=str)),
    bool: dp.vector_domain(dp.atom_domain(T=bool)),
}
GRID = {
    float: ([0.0, -0.0, 1.5, -1e300, 5e-324, INF, -INF],
            [[], [NAN], [0.0, -0.0, NAN, INF, -INF, 5e-324, 1.5, -1e300, 1e-300]]),
    int: ([0, -7, 2 ** 31 - 1, -2 ** 31], [[], [0, -7, 2 ** 31 - 1, -2 ** 31, 1, 0]]),
    str: (["", "a", "é", "a b"], [[], ["", "a", "A", "é", "a b", "a", "ab"]]),
    bool: ([True, False], [[], [True, False, False]]),
}
PARAMETERS = [(carrier, value) for carrier, (values, _) in GRID.items() for value in values]


@pytest.mark.parametrize("carrier, value", PARAMETERS,
                         ids=[f"{c.__name__}-{v!r}" for c, v in PARAMETERS])
def test_agrees_with_opendp(carrier, value):
    ours = make_is_equal(value)
    theirs = dp.t.make_is_equal(OPENDP_DOMAINS[carrier], dp.symmetric_distance(), value)
    for d_in in (0, 1, 2, 3, 10, 1000, 2 ** 32 - 1):
        assert ours.map(d_in) == theirs.map(d_in)
    for data in GRID[carrier][1]:
        ours_out, theirs_out = ours(data), theirs(data)
        assert ours_out == theirs_out
        assert all(type(y) is bool for y in ours_out + theirs_out)


def test_opendp_accepts_a_nan_value_and_matches_nothing_ours_refuses_it():
    """The one difference: opendp builds make_is_equal(NaN), which answers False on every row,
    NaN rows included (IEEE equality, as ours); ours refuses the value as useless."""
    theirs = dp.t.make_is_equal(OPENDP_DOMAINS[float], dp.symmetric_distance(), NAN)
    assert theirs([NAN, 0.0, INF]) == [False, False, False]
    with pytest.raises(NaNValueError):
        make_is_equal(NAN)
