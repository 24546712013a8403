"""mechanisms.ops: the helpers give the same answer on Python numbers and on Z3 floating-point terms.

The checker proves properties of a kernel by evaluating the very same code on Z3 terms; that is
only meaningful if the Z3 evaluation reproduces Python's, bit for bit (NaN, +-inf, -0.0 included).
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import pytest
import z3
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mechanisms import ops
from mechanisms.make_clamp import clamp_kernel

NAN = math.nan
INF = math.inf
F64 = z3.Float64()

any_float = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                      st.sampled_from([NAN, -0.0, 0.0, INF, -INF, 5e-324, -5e-324, 1.0, -1.0]))


def fp(x: float) -> z3.FPRef:
    return z3.FPVal(x, F64)


def z3_float(term: z3.ExprRef) -> float:
    """A closed Z3 floating-point term as the Python float it denotes."""
    value = z3.simplify(term)
    assert isinstance(value, z3.FPNumRef), f"did not simplify to a constant: {value}"
    if value.isNaN():
        return NAN
    bits = z3.simplify(z3.fpToIEEEBV(value)).as_long()
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def z3_bool(term: z3.ExprRef) -> bool:
    value = z3.simplify(term)
    assert z3.is_true(value) or z3.is_false(value), f"did not simplify to a constant: {value}"
    return z3.is_true(value)


def same_float(a: float, b: float) -> bool:
    """Equal as IEEE values including the sign of zero; NaN matches NaN."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return struct.pack("<d", a) == struct.pack("<d", b)


def test_z3_float_round_trip():
    for x in (0.0, -0.0, 1.5, -INF, INF, 5e-324, 1.7976931348623157e308):
        assert same_float(z3_float(fp(x)), x)
    assert math.isnan(z3_float(fp(NAN)))
    assert not same_float(0.0, -0.0)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(x=any_float, lo=any_float, hi=any_float)
@example(x=-0.0, lo=0.0, hi=10.0)
@example(x=NAN, lo=-1.0, hi=1.0)
@example(x=1.0, lo=NAN, hi=NAN)
@example(x=INF, lo=0.0, hi=10.0)
def test_clamp_kernel_z3_matches_python(x, lo, hi):
    expected = clamp_kernel(x, lo, hi)
    assert same_float(z3_float(clamp_kernel(fp(x), fp(lo), fp(hi))), expected)
    # a Python constant mixed with Z3 terms is lifted to the same value
    assert same_float(z3_float(clamp_kernel(fp(x), lo, hi)), expected)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(a=any_float, b=any_float)
@example(a=NAN, b=1.0)
@example(a=1.0, b=NAN)
@example(a=0.0, b=-0.0)
@example(a=-0.0, b=0.0)
def test_min_max_abs_z3_match_python(a, b):
    assert same_float(z3_float(ops.minimum(fp(a), fp(b))), ops.minimum(a, b))
    assert same_float(z3_float(ops.maximum(fp(a), fp(b))), ops.maximum(a, b))
    assert same_float(z3_float(ops.absolute(fp(a))), ops.absolute(a))


@settings(max_examples=200, derandomize=True, deadline=None)
@given(a=any_float, b=any_float)
@example(a=NAN, b=NAN)
@example(a=-0.0, b=0.0)
def test_comparisons_z3_match_python(a, b):
    assert z3_bool(ops.lt(fp(a), fp(b))) == (a < b)
    assert z3_bool(ops.le(fp(a), fp(b))) == (a <= b)
    assert z3_bool(ops.eq(fp(a), fp(b))) == (a == b)
    assert z3_bool(ops.is_nan(fp(a))) == math.isnan(a)
    assert z3_bool(ops.is_finite(fp(a))) == math.isfinite(a)


@settings(max_examples=200, derandomize=True)
@given(a=any_float, b=any_float)
@example(a=NAN, b=1.0)
@example(a=1.0, b=NAN)
@example(a=0.0, b=-0.0)
@example(a=-0.0, b=0.0)
def test_minimum_maximum_are_python_min_max(a, b):
    # the very object Python's min/max return (which of two equal zeros, which NaN)
    assert ops.minimum(a, b) is min(a, b)
    assert ops.maximum(a, b) is max(a, b)


def test_minimum_maximum_nan_position():
    assert math.isnan(ops.minimum(NAN, 1.0)) and ops.minimum(1.0, NAN) == 1.0
    assert math.isnan(ops.maximum(NAN, 1.0)) and ops.maximum(1.0, NAN) == 1.0
    assert ops.minimum(3, 2) == 2 and ops.maximum(3, 2) == 3


def test_where_le_lt_on_python_values():
    assert ops.where(True, "then", "else") == "then"
    assert ops.where(False, "then", "else") == "else"
    assert ops.where(1 < 2, 1, 2) == 1
    assert ops.lt(1, 2) is True and ops.lt(2, 2) is False
    assert ops.le(2, 2) is True and ops.le(3, 2) is False
    assert ops.lt(NAN, 1.0) is False and ops.lt(1.0, NAN) is False
    assert ops.le(NAN, NAN) is False
    assert ops.le(Fraction(1, 3), 1 / 3) is False      # exact rational vs the float below it


def test_where_on_z3_condition_with_python_numbers():
    x = z3.Real("x")
    term = ops.where(x > 0, 1, Fraction(1, 2))
    assert z3.simplify(z3.substitute(term, (x, z3.RealVal(1)))) == z3.RealVal(1)
    assert z3.simplify(z3.substitute(term, (x, z3.RealVal(-1)))) == z3.RealVal(Fraction(1, 2))


def test_is_nan_and_is_finite_on_python_values():
    assert ops.is_nan(NAN) is True and ops.is_nan(1.0) is False and ops.is_nan(3) is False
    assert ops.is_finite(INF) is False and ops.is_finite(NAN) is False
    assert ops.is_finite(1.0) is True and ops.is_finite(10 ** 400) is True


def test_exact_and_truthy():
    assert ops.exact(0.1) == Fraction(0.1) and isinstance(ops.exact(0.1), Fraction)
    assert ops.exact(3) == 3 and isinstance(ops.exact(3), int)
    assert ops.truthy(1) is True and ops.truthy(0) is False
    with pytest.raises(TypeError):                        # a symbolic condition is not decided
        ops.truthy(z3.Bool("b"))


def test_ln_up_on_a_fraction_returns_an_upper_bound_float():
    c = ops.ln_up(Fraction(3, 2))
    assert type(c) is float
    assert c >= math.log(1.5)
    assert c - math.log(1.5) <= 4 * math.ulp(c)
    assert ops.ln_up(1) == 0.0
    assert type(ops.ln_up(2)) is float
    # on a Z3 real it is the uninterpreted function the checker reasons about
    r = z3.Real("r")
    assert ops.ln_up(r).decl() == ops.LN_UP


def test_carrier_of():
    assert ops.carrier_of(1.0) is float and ops.carrier_of(1) is int
    assert ops.carrier_of(fp(1.0)) is float
    assert ops.carrier_of(z3.Int("i")) is int
