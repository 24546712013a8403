"""Obligations ``arith.ln_up``, ``arith.round_up`` and ``arith.linear_map_up``: the certified
roundings never fall below the exact value.

``arith.round_up``: ``float_up(q)`` steps up from ``float(q)`` until the exact comparison
``at_or_above`` accepts, so its result is ``>= q`` by the loop's exit condition alone (no fact
about float rounding is needed); the checker runs the comparison on Z3 reals and checks the
loop's shape in the source.

``arith.linear_map_up``: a linear map ``d_in * c`` (``core.linear_value``) is computed with a
rounding-up product, so on floats it is never below the exact ``c d_in``; Z3 runs it under the
rounding model (:mod:`mechanisms.float_model`), where a product rounded to nearest is refuted.

``arith.ln_up``: the certified logarithm never rounds below ``ln r``.

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

import ast
import inspect
import math
import random
import textwrap
from fractions import Fraction
from typing import Any, Callable

import mpmath
import sympy
import z3

from mechanisms import float_model, ops
from mechanisms.core import linear_value
from mechanisms.arith import (at_or_above, least_float_at_or_above, round_down,
                              taylor_exp_lower)
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


def _loops_until_certified(function: Callable[..., Any], guard: Callable[..., Any]) -> Decision:
    """``function`` returns one variable, only after ``while not guard(variable, ...)``."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    returns = [n for n in ast.walk(tree) if isinstance(n, ast.Return)]
    loops = [n for n in ast.walk(tree) if isinstance(n, ast.While)]
    returned = {n.value.id for n in returns if isinstance(n.value, ast.Name)}
    guarded = {n.test.operand.args[0].id for n in loops
               if isinstance(n.test, ast.UnaryOp) and isinstance(n.test.op, ast.Not)
               and isinstance(n.test.operand, ast.Call)
               and getattr(n.test.operand.func, "id", None) == guard.__name__
               and n.test.operand.args and isinstance(n.test.operand.args[0], ast.Name)}
    body = tree.body[0].body
    last_two = body[-2:] if len(body) >= 2 else []
    ordered = (len(last_two) == 2 and isinstance(last_two[0], ast.While)
               and isinstance(last_two[1], ast.Return))
    if len(returns) == 1 and returned and returned <= guarded and ordered:
        return Decision(True, detail=f"{function.__name__} returns {returned.pop()} only after "
                                     f"'while not {guard.__name__}(...)'")
    return Decision(False, {"function": function.__name__},
                    f"{function.__name__} does not end in 'while not {guard.__name__}(x, q): ...; "
                    "return x' with no other return")


def _replay_float_up(least_above: Callable[[Fraction], float]) -> Callable[[dict], Replay]:
    """Rationals on which ``least_above(q) < q``, the counterexample's ``q`` first."""
    def replay(counterexample: dict) -> Replay:
        rng = random.Random(0)
        given = counterexample.get("q")
        tries = ([Fraction(given)] if given is not None else []) + [Fraction(1, 3), Fraction(2, 3)] \
            + [Fraction(rng.randrange(1, 10 ** 30), rng.randrange(1, 10 ** 30)) for _ in range(200)]
        for q in tries:
            result = least_above(q)
            if result != math.inf and Fraction(result) < q:
                return plain_report(True, f"{least_above.__name__}({q}) is below q",
                                    f"{least_above.__name__}(q) = {result!r}", f"q = {q}")
        return plain_report(False, f"{least_above.__name__}(q) >= q on {len(tries)} rationals")
    return replay


def round_up_lemma(guard: Callable[[Any, Any], Any] = at_or_above,
                   least_above: Callable[[Fraction], float] = least_float_at_or_above
                   ) -> Obligation:
    def goals() -> list[Any]:
        x, q = z3.Reals("x q")
        replay = _replay_float_up(least_above)
        return [
            Z3Goal(f"the certificate {guard.__name__}(x, q), run on reals, implies x >= q",
                   z3.Implies(ops.to_bool(guard(x, q)), x >= q), [], {"x": x, "q": q}, replay),
            ComputedGoal(f"{least_above.__name__} returns only a float its certificate "
                         f"{guard.__name__} accepts", "structure",
                         lambda: _loops_until_certified(least_above, guard), replay),
        ]

    return Obligation(
        id="arith.round_up", kind=Kind.LEMMA,
        statement="float_up(q) >= q for every rational q (+inf above the largest float): it "
                  "returns a float only once the exact comparison at_or_above accepts it. "
                  "div_up, mul_up and add_up (non-negative operands) return float_up of the "
                  "exact quotient, product or sum, or +inf.",
        latex=r"\forall q \in \mathbb{Q}:\ \mathtt{float\_up}(q) \ge q",
        goals=goals)


def _replay_linear_value(value: Callable[[Any, Any], Any]) -> Callable[[dict], Replay]:
    """Floats ``d_in, c >= 0`` with ``value(d_in, c) < c d_in`` exactly, the counterexample's
    first, then seeded ones."""
    def replay(counterexample: dict) -> Replay:
        rng = random.Random(0)
        given = [(float(Fraction(counterexample["d_in"])), float(Fraction(counterexample["c"])))
                 if {"d_in", "c"} <= counterexample.keys() else (3.0, 0.1)]
        tries = given + [(rng.uniform(0, 1000), rng.uniform(0, 10)) for _ in range(200)]
        for d_in, c in tries:
            computed = value(d_in, c)
            if Fraction(computed) < Fraction(d_in) * Fraction(c):
                return plain_report(True, f"the linear map {value.__name__}(d_in, c) is below the "
                                          "exact product", f"d_in = {d_in!r}, c = {c!r}",
                                    f"computed = {computed!r}",
                                    f"exact c d_in = {Fraction(d_in) * Fraction(c)}")
        return plain_report(False, f"{value.__name__}(d_in, c) >= c d_in on {len(tries)} float pairs")
    return replay


def linear_map_lemma(value: Callable[[Any, Any], Any] = linear_value) -> Obligation:
    def goals() -> list[Any]:
        with float_model.rounding_model() as model:
            d_in, c = float_model.float_parameter("d_in"), float_model.float_parameter("c")
            computed = value(d_in, c)
            facts = list(model.facts)
        exact_d, exact_c = float_model.plain(d_in), float_model.plain(c)
        return [Z3Goal(f"{value.__name__}(d_in, c) computed in binary64 is >= c d_in",
                       float_model.plain(computed) >= exact_d * exact_c,
                       [exact_d >= 0, exact_c >= 0, *facts], {"d_in": exact_d, "c": exact_c},
                       _replay_linear_value(value))]

    return Obligation(
        id="arith.linear_map_up", kind=Kind.LEMMA,
        statement="A linear map's value, d_in * c as Map computes it (linear_value), is never "
                  "below the exact product c d_in for floats d_in, c >= 0: it is mul_up, which "
                  "returns float_up of the exact product (arith.round_up); on integers it is "
                  "the exact product.",
        latex=r"\forall d_{in}, c \ge 0:\ \widehat{d_{in} \cdot c} \ge c\, d_{in}",
        goals=goals, uses=("arith.round_up",))
