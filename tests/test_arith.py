"""mechanisms.arith: directed rounding with exact rationals, checked against mpmath at 60 digits."""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import mpmath
import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from mechanisms.arith import PRECISION_BITS, add_up, exp_lower_bound, ln_up, round_down
from tests.helpers import time_limit


def exact_ln(r: Fraction) -> mpmath.mpf:
    with mpmath.workdps(60):
        return mpmath.log(mpmath.mpf(r.numerator) / r.denominator)


def ulps_above(c: float, r: Fraction) -> mpmath.mpf:
    """``(c - ln r) / ulp(c)``, at 60 digits."""
    with mpmath.workdps(60):
        return (mpmath.mpf(c) - exact_ln(r)) / math.ulp(c)




@st.composite
def rationals_at_least_one(draw) -> Fraction:
    """``a / b`` with ``1 <= b <= a <= 10**20``, or the odds ``p / (1 - p)`` of a float ``p`` in
    ``[1/2, 1)`` (the shape of randomized response's ``ln_up`` argument)."""
    if draw(st.booleans()):
        a = draw(st.integers(1, 10 ** 20))
        return Fraction(a, draw(st.integers(1, a)))
    p = Fraction(draw(st.floats(0.5, 1.0, exclude_max=True)))
    return p / (1 - p)


# --- ln_up ------------------------------------------------------------------------------------

@settings(max_examples=150, derandomize=True, deadline=None)
@given(r=rationals_at_least_one())
@example(r=Fraction(1))
@example(r=Fraction(3))
@example(r=Fraction(7, 3))
@example(r=Fraction(2 * 10 ** 20 + 1, 10 ** 20))
def test_ln_up_is_an_upper_bound(r):
    c = ln_up(r)
    assert type(c) is float
    with mpmath.workdps(60):
        assert mpmath.mpf(c) >= exact_ln(r)
    # the certificate it stops on really holds, and the float below fails it (c is the least)
    assert exp_lower_bound(Fraction(c)) >= r
    if c > 0:
        assert exp_lower_bound(Fraction(math.nextafter(c, 0.0))) < r


@settings(max_examples=150, derandomize=True, deadline=None)
@given(a=st.integers(1, 10 ** 20))
@example(a=1)
@example(a=2)
@example(a=10 ** 20)
def test_ln_up_within_2_ulps_for_integers(a):
    r = Fraction(a)
    c = ln_up(r)
    assert 0 <= ulps_above(c, r) <= 2


@settings(max_examples=150, derandomize=True, deadline=None,
          phases=[Phase.explicit, Phase.generate])
@given(r=rationals_at_least_one())
@example(r=Fraction(2 * 10 ** 20 + 1, 10 ** 20))
def test_ln_up_within_2_ulps(r):
    c = ln_up(r)
    assert 0 <= ulps_above(c, r) <= 2


def test_ln_up_terminates_near_one():
    r = Fraction(2 ** 52 + 1, 2 ** 52 - 1)
    with time_limit(1.0):
        c = ln_up(r)
    assert 0 <= ulps_above(c, r) <= 2


def test_ln_up_terminates_for_tiny_logarithm():
    r = Fraction(10 ** 20 + 1, 10 ** 20)
    with time_limit(1.0):
        c = ln_up(r)
    assert 0 <= ulps_above(c, r) <= 2


def test_ln_up_of_one_is_zero():
    assert ln_up(Fraction(1)) == 0.0
    assert ln_up(Fraction(5, 5)) == 0.0


@pytest.mark.parametrize("r", [Fraction(0), Fraction(1, 2), Fraction(99, 100), Fraction(-3)])
def test_ln_up_below_one_raises(r):
    with pytest.raises(ValueError):
        ln_up(r)


# --- exp_lower_bound --------------------------------------------------------------------------

@settings(max_examples=150, derandomize=True, deadline=None)
@given(c=st.one_of(st.fractions(min_value=0, max_value=60, max_denominator=10 ** 6),
                   st.floats(0.0, 60.0).map(Fraction)))
@example(c=Fraction(0))
@example(c=Fraction(1, 2))
@example(c=Fraction(60))
@example(c=Fraction(32))
@example(c=Fraction(1, 2) + Fraction(1, 10 ** 9))   # just above a halving threshold
def test_exp_lower_bound_is_a_tight_lower_bound(c):
    y = exp_lower_bound(c)
    assert isinstance(y, (Fraction, int))
    with mpmath.workdps(60):
        bound = mpmath.mpf(y.numerator) / y.denominator
        exact = mpmath.exp(mpmath.mpf(c.numerator) / c.denominator)
        assert bound <= exact
        assert (exact - bound) / exact <= mpmath.mpf("1e-30")


def test_exp_lower_bound_of_zero_is_one():
    assert exp_lower_bound(Fraction(0)) == 1


def test_exp_lower_bound_rejects_negative():
    with pytest.raises(ValueError):
        exp_lower_bound(Fraction(-1, 10))


# --- round_down -------------------------------------------------------------------------------

@settings(max_examples=200, derandomize=True)
@given(q=st.one_of(st.fractions(), st.fractions(max_denominator=2 ** 300),
                   st.floats(allow_nan=False, allow_infinity=False).map(Fraction)))
@example(q=Fraction(1, 3))
@example(q=Fraction(-1, 3))
@example(q=Fraction(1, 2 ** 201))
def test_round_down(q):
    rounded = round_down(q)
    assert rounded <= q
    assert q - rounded < Fraction(1, 2 ** PRECISION_BITS)
    assert (rounded * 2 ** PRECISION_BITS).denominator == 1      # a multiple of 2**-200


def test_round_down_keeps_dyadics_with_short_denominators():
    assert round_down(Fraction(3, 8)) == Fraction(3, 8)
    assert round_down(Fraction(1, 2 ** 201)) == 0


# --- add_up -----------------------------------------------------------------------------------

@settings(max_examples=200, derandomize=True)
@given(a=st.floats(allow_nan=False, allow_infinity=False, width=64),
       b=st.floats(allow_nan=False, allow_infinity=False, width=64))
@example(a=0.1, b=0.2)
@example(a=1e308, b=1e308)
@example(a=-0.0, b=0.0)
def test_add_up_is_the_least_float_not_below_the_exact_sum(a, b):
    total = add_up(a, b)
    if math.isinf(total):  # overflow: +inf is above any finite sum
        assert total > 0 or Fraction(a) + Fraction(b) < 0
        return
    exact = Fraction(a) + Fraction(b)
    assert Fraction(total) >= exact
    below = math.nextafter(total, -math.inf)
    assert math.isinf(below) or Fraction(below) < exact


def test_add_up_rounds_a_classic_case_up_and_keeps_integers_exact():
    assert Fraction(0.1 + 0.2) > Fraction(0.1) + Fraction(0.2)  # nearest is already above here
    assert Fraction(add_up(0.1, 0.7)) >= Fraction(0.1) + Fraction(0.7)
    assert Fraction(0.1 + 0.7) < Fraction(0.1) + Fraction(0.7)  # ...and nearest was below here
    assert add_up(2 ** 60, 1) == 2 ** 60 + 1


def test_float_up_and_div_up_round_up_past_the_float_range():
    import sys
    from fractions import Fraction
    from mechanisms.arith import div_up, float_up
    huge = Fraction(10) ** 400
    assert float_up(huge) == math.inf
    assert float_up(-huge) == -sys.float_info.max      # the least float >= -10^400
    assert div_up(Fraction(2) * huge, 1.0) == math.inf
    assert div_up(2 * sys.float_info.max, 0.5) == math.inf


def test_pow2_up_is_the_least_power_of_two_at_or_above_and_certifies_it():
    from mechanisms.arith import pow2_up
    assert pow2_up(0.0) == Fraction(1, 2 ** 1074)
    assert pow2_up(3.0) == 4 and pow2_up(4.0) == 4 and pow2_up(0.3) == Fraction(1, 2)
    assert pow2_up(sys.float_info.max) == 2 ** 1024
    for x in (math.nan, math.inf):  # no power of two is at or above them: refused, not returned
        with pytest.raises(ArithmeticError):
            pow2_up(x)
