"""The checker's binary64 facts agree with the floats Python runs."""

import math
import sys
from fractions import Fraction

from obligations import ieee


def test_smallest_subnormal_is_the_least_positive_float() -> None:
    assert ieee.SUBNORMAL_EXPONENT == -1074
    assert Fraction(math.ulp(0.0)) == ieee.SMALLEST_SUBNORMAL
    assert math.nextafter(0.0, 1.0) == float(ieee.SMALLEST_SUBNORMAL)


def test_largest_finite_is_float_max() -> None:
    assert Fraction(sys.float_info.max) == ieee.LARGEST_FINITE
    assert math.nextafter(float(ieee.LARGEST_FINITE), math.inf) == math.inf
    assert sys.float_info.mant_dig == ieee.PRECISION
    assert sys.float_info.min == 2.0 ** ieee.EMIN
