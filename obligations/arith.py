"""Obligation ``arith.ln_up``: the certified logarithm never rounds below ``ln r``.

``ln_up`` returns ``c`` only once ``exp_lower_bound(c) >= r`` holds in exact rationals. So
``c >= ln r`` follows from ``exp_lower_bound(c) <= e^c``, which rests on three facts about the
code, each checked here:

1. ``taylor_exp_lower(x) <= e^x`` for ``x >= 0``. With ``g = e^x - P(x)`` and ``P`` of degree
   ``K``: ``g^(j)(0) >= 0`` for ``j <= K`` and ``g^(K+1) = e^x > 0``; integrating ``K + 1`` times
   from 0 gives ``g >= 0`` on ``[0, oo)``. SymPy computes the derivatives of the code's polynomial.
2. ``round_down(q) <= q`` (Z3).
3. squaring with ``round_down`` keeps a non-negative lower bound a lower bound (Z3), and
   ``(e^x)^(2^m) = e^(x 2^m)`` (SymPy).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

import mpmath
import sympy
import z3

from mechanisms.arith import round_down, taylor_exp_lower
from obligations.base import ComputedGoal, Decision, Kind, Obligation, Replay, Z3Goal
from obligations.reports import plain_report


def _exceeds_exp(taylor: Callable[[Any], Any]) -> Fraction | None:
    """A point of ``[0, 1/2]`` (where the code uses the polynomial) with ``P(x) > e^x``."""
    with mpmath.workdps(60):
        for i in range(0, 129):
            x = Fraction(i, 256)
            value = taylor(x)
            if mpmath.mpf(value.numerator) / value.denominator > mpmath.exp(mpmath.mpf(i) / 256):
                return x
    return None


def _replay_taylor(taylor: Callable[[Any], Any]) -> Callable[[dict], Replay]:
    def replay(counterexample: dict) -> Replay:
        x = counterexample.get("x")
        x = Fraction(x) if x is not None else _exceeds_exp(taylor)
        if x is None:
            return plain_report(False, "no point of [0, 1/2] where the polynomial exceeds e^x")
        value = taylor(x)
        with mpmath.workdps(60):
            exact = mpmath.exp(mpmath.mpf(x.numerator) / x.denominator)
            confirmed = mpmath.mpf(value.numerator) / value.denominator > exact
            return plain_report(confirmed, f"{taylor.__name__}({x}) is not a lower bound of e^x",
                                f"{taylor.__name__}({x}) = {mpmath.nstr(mpmath.mpf(value.numerator) / value.denominator, 30)}",
                                f"e^{x} = {mpmath.nstr(exact, 30)}")
    return replay


def _taylor_below_exp(taylor: Callable[[Any], Any]) -> Decision:
    x = sympy.Symbol("x", nonnegative=True)
    polynomial = sympy.expand(taylor(x))
    degree = sympy.degree(polynomial, x)
    gap = sympy.exp(x) - polynomial
    for order in range(degree + 1):
        at_zero = sympy.diff(gap, x, order).subs(x, 0)
        if at_zero < 0:
            witness = _exceeds_exp(taylor)
            return Decision(False, {"x": witness} if witness is not None else {},
                            f"g^({order})(0) = {at_zero} < 0")
    if sympy.simplify(sympy.diff(gap, x, degree + 1) - sympy.exp(x)) != 0:
        return Decision(False, {}, "the polynomial's derivative of order K+1 is not zero")
    return Decision(True, detail=f"degree {degree}: g^(j)(0) >= 0 for j <= {degree}, "
                                 f"g^({degree + 1}) = e^x")


def _power_identity() -> Decision:
    x, m = sympy.Symbol("x", real=True), sympy.Symbol("m", integer=True, nonnegative=True)
    difference = sympy.powsimp(sympy.exp(x) ** (2 ** m) - sympy.exp(x * 2 ** m), force=True)
    return Decision(sympy.simplify(difference) == 0, detail="(e^x)^(2^m) = e^(x 2^m)")


def ln_up_lemma(taylor: Callable[[Any], Any] = taylor_exp_lower,
                rounding: Callable[[Any], Any] = round_down) -> Obligation:
    def goals() -> list[Any]:
        q, a, b = z3.Reals("q a b")
        return [
            ComputedGoal("taylor_exp_lower(x) <= e^x for x >= 0", "sympy",
                         lambda: _taylor_below_exp(taylor), _replay_taylor(taylor)),
            Z3Goal("round_down(q) <= q", rounding(q) <= q, [], {"q": q}),
            Z3Goal("0 <= a <= b  implies  0 <= round_down(a * a) <= b * b",
                   z3.And(0 <= rounding(a * a), rounding(a * a) <= b * b),
                   [0 <= a, a <= b], {"a": a, "b": b}),
            ComputedGoal("(e^x)^(2^m) = e^(x 2^m)", "sympy", _power_identity),
        ]

    return Obligation(
        id="arith.ln_up", kind=Kind.LEMMA,
        statement="ln_up(r) >= ln(r) for every rational r >= 1: ln_up returns c only when "
                  "exp_lower_bound(c) >= r, computed exactly, and exp_lower_bound(c) <= e^c.",
        latex=r"\forall r \ge 1:\ \mathtt{ln\_up}(r) \ge \ln r",
        goals=goals)
