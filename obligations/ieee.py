"""The checker's own statement of IEEE-754 binary64, the specification side of float proofs.

Obligations take these facts from here, never from the mechanism they prove: a mutated constant
in a mechanism (its grid unit, its largest float) then disagrees with the specification instead
of moving with it. Binary64 (IEEE 754-2019, Table 3.2) has precision ``p = 53`` and exponent
range ``emin = -1022``, ``emax = 1023``; everything below follows from those three numbers.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import z3

PRECISION = 53
"""``p``: significand bits, the leading one included."""
EMIN = -1022
"""The exponent of the least normal float ``2^emin``."""
EMAX = 1023
"""The exponent of the largest binade."""

SUBNORMAL_EXPONENT = EMIN - (PRECISION - 1)
"""``emin - (p - 1) = -1074``: every finite float is an integer multiple of ``2^-1074``, the least
positive (subnormal) float."""
SMALLEST_SUBNORMAL = Fraction(1, 2 ** -SUBNORMAL_EXPONENT)
"""``2^-1074``, exactly."""
LARGEST_FINITE = Fraction(2 ** (EMAX + 1) - 2 ** (EMAX + 1 - PRECISION))
"""``(2 - 2^(1-p)) 2^emax = 2^1024 - 2^971``, the largest finite float, exactly."""
UNIT_ROUNDOFF = Fraction(1, 2 ** PRECISION)
"""``u = 2^-p = 2^-53``, half the distance from 1 to the next float. Round to nearest of a real
``x`` with ``|x| <= LARGEST_FINITE`` is a finite float within ``u |x|`` of ``x`` when ``x`` is a
multiple of ``2^-1074`` (IEEE 754-2019 §4.3.1; below ``2^emin`` such an ``x`` is itself a float,
so the error is 0), e.g. any exact sum of floats."""


def binade_grid(x: Any, exponent: int) -> Any:
    """A float in the binade ``[2^e, 2^(e+1))`` is an integer multiple of its spacing
    ``2^(e - (p - 1))`` (``p`` significand bits): ``2^e <= x < 2^(e+1) -> x 2^(p-1-e)`` is an
    integer, for a Z3 real ``x`` that denotes a float."""
    low, high = Fraction(2) ** exponent, Fraction(2) ** (exponent + 1)
    return z3.Implies(z3.And(low <= x, x < high),
                      z3.IsInt(x * (Fraction(2) ** (PRECISION - 1 - exponent))))
