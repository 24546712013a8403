"""mechanisms.make_cast_default: Python's casts with defaults, domains, map, refusals, and opendp."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import CarrierError, DomainError
from mechanisms.make_cast_default import CAST_TYPES, make_cast_default
from mechanisms.metrics import SymmetricDistance

NAN, INF = math.nan, math.inf
HARD = {str: ["nan", "1e400", "  3 ", "", "abc", "-0", "3.5", "1_000", "True", "1" * 5000],
        int: [10 ** 400, -10 ** 400, 10 ** 5000, 2 ** 53 + 1, 0, -7],
        float: [NAN, INF, -INF, -0.0, 0.0, 1e300, -3.7, 5e-324],
        bool: [True, False]}


def test_str_to_float_follows_python_with_default():
    out = make_cast_default(str, float)(["nan", "1e400", "  3 ", "", "abc", "1_000", "-inf"])
    assert math.isnan(out[0])
    assert out[1:] == [INF, 3.0, 0.0, 0.0, 1000.0, -INF]


def test_str_to_int_and_bool():
    assert make_cast_default(str, int)(["3", "  3 ", "3.5", "", "1_000", "1" * 5000]) == \
        [3, 3, 0, 0, 1000, 0]
    assert make_cast_default(str, bool)(["", "false", "0"]) == [False, True, True]


def test_float_to_int_truncates_and_defaults():
    out = make_cast_default(float, int)([NAN, INF, -INF, -3.7, 3.7, -0.0, 1e300])
    assert out[:6] == [0, 0, 0, -3, 3, 0] and out[6] == int(1e300)
    assert all(type(y) is int for y in out)


def test_int_to_float_rounds_and_defaults_beyond_range():
    assert make_cast_default(int, float)([10 ** 400, -10 ** 400, 2 ** 53 + 1, 3]) == \
        [0.0, 0.0, 9007199254740992.0, 3.0]


def test_to_str_normalizes_negative_zero_and_defaults_huge_ints():
    assert make_cast_default(float, str)([-0.0, 0.0, NAN, 3.7]) == ["0.0", "0.0", "nan", "3.7"]
    assert make_cast_default(int, str)([10 ** 5000, 5]) == ["", "5"]
    assert make_cast_default(bool, str)([True, False]) == ["True", "False"]


def test_bool_casts():
    assert make_cast_default(bool, int)([True, False]) == [1, 0]
    assert make_cast_default(bool, float)([True, False]) == [1.0, 0.0]
    assert make_cast_default(float, bool)([NAN, -0.0, 2.0]) == [True, False, True]
    assert make_cast_default(int, bool)([0, -1]) == [False, True]


@pytest.mark.parametrize("from_type", CAST_TYPES)
@pytest.mark.parametrize("to_type", CAST_TYPES)
def test_every_cast_lands_in_the_output_domain(from_type, to_type):
    t = make_cast_default(from_type, to_type)
    out = t(HARD[from_type])
    assert all(type(y) is to_type for y in out)
    assert t.output_domain.member(out) and t([]) == []
    assert t.output_domain == VectorDomain(AtomDomain(to_type, nan=to_type is float))
    assert t.input_metric == t.output_metric == SymmetricDistance()
    assert [t.map(d) for d in range(4)] == [0, 1, 2, 3]


def test_rejects_rows_of_another_type():
    with pytest.raises(DomainError):
        make_cast_default(str, float)([1.0])
    with pytest.raises(DomainError):
        make_cast_default(int, float)([True])


@pytest.mark.parametrize("from_type, to_type", [(bytes, str), (str, complex), (None, int),
                                                (float, "float")])
def test_carrier_error(from_type, to_type):
    with pytest.raises(CarrierError) as info:
        make_cast_default(from_type, to_type)
    assert info.value.carrier in (from_type, to_type) and info.value.supported == CAST_TYPES


pool = st.sampled_from([NAN, -0.0, 0.0, 1.5, -2.5, INF])


@settings(max_examples=200, derandomize=True)
@given(v=st.lists(pool, max_size=6), w=st.lists(pool, max_size=6),
       to_type=st.sampled_from(CAST_TYPES))
def test_float_casts_are_1_stable(v, w, to_type):
    t = make_cast_default(float, to_type)
    d_in = SymmetricDistance().distance(v, w)
    assert SymmetricDistance().distance(t(v), t(w)) <= t.map(d_in)


# --- agreement with opendp --------------------------------------------------------------------

dp = pytest.importorskip("opendp.prelude")
dp.enable_features("contrib")


def opendp_cast(from_type: type, to_type: type):
    atom = dp.atom_domain(T=float, nan=True) if from_type is float else dp.atom_domain(T=from_type)
    return dp.t.make_cast_default(dp.vector_domain(atom), dp.symmetric_distance(), TOA=to_type)


@pytest.mark.parametrize("from_type", CAST_TYPES)
@pytest.mark.parametrize("to_type", CAST_TYPES)
def test_map_agrees_with_opendp(from_type, to_type):
    ours, theirs = make_cast_default(from_type, to_type), opendp_cast(from_type, to_type)
    assert [ours.map(d) for d in (0, 1, 2, 7, 1000)] == [theirs.map(d) for d in (0, 1, 2, 7, 1000)]


AGREE = {(str, float): ["3", "3.5", "-0", "+2", "1e3", "1e400", "inf", "abc", "", "True"],
         (str, int): ["3", "+2", "-7", "3.5", "abc", ""],
         (str, bool): ["", "a", "false"],
         (float, int): [NAN, INF, -INF, 3.7, -3.7, -0.0, 2.0 ** 30],
         (float, bool): [NAN, -0.0, 0.0, 2.5],
         (float, float): [INF, -0.0, 1.5],
         (int, float): [0, -1, 2 ** 31 - 1],
         (int, bool): [0, 5], (bool, int): [True, False], (bool, float): [True, False]}


@pytest.mark.parametrize("cast", sorted(AGREE, key=str), ids=str)
def test_values_agree_with_opendp_on_common_inputs(cast):
    ours, theirs = make_cast_default(*cast), opendp_cast(*cast)
    rows = AGREE[cast]
    assert SymmetricDistance().distance(ours(rows), theirs(rows)) == 0


@pytest.mark.parametrize("cast, row, ours_value, opendp_value", [
    ((str, float), "  3 ", 3.0, 0.0),          # Python strips whitespace, Rust does not
    ((str, float), "1_000", 1000.0, 0.0),      # Python accepts digit separators
    ((str, int), "  3 ", 3, 0),
    ((float, int), 1e10, 10_000_000_000, 0),   # OpenDP's int is i32
    ((float, str), 3.0, "3.0", "3"),
    ((float, str), NAN, "nan", "NaN"),
    ((float, str), -0.0, "0.0", "-0"),         # ours: -0.0 and 0.0 are one multiset element
    ((bool, str), True, "True", "true"),
])
def test_documented_differences_from_opendp(cast, row, ours_value, opendp_value):
    assert make_cast_default(*cast)([row]) == [ours_value]
    assert opendp_cast(*cast)([row]) == [opendp_value]
