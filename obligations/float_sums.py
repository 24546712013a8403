"""What the proofs of float aggregates share: IEEE-754 rounding as an uninterpreted ``fl`` with
the facts of Higham's standard model, the error growth of ``k`` nested additions, the map goals
run on the running code, and the neighbours (one row moved between the bounds) whose replays
show any rounding against the map."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Callable, Iterator

import z3

from mechanisms import ops
from mechanisms.core import Constructor
from mechanisms.errors import DPCertError
from obligations.base import ComputedGoal, Replay, Z3Goal
from obligations.int_maps import Candidates, replay_int_map, running_map_goal
from obligations.ieee import UNIT_ROUNDOFF
from obligations.reports import constructor_report


HIGHAM = ("Higham 2002, Accuracy and Stability of Numerical Algorithms, §2.2 (standard model "
          "of IEEE-754 round-to-nearest addition) and §4.2 (summation error)",)


IEEE_ROUNDING = ("IEEE 754-2019 §4.3: round to nearest is monotone and returns a representable "
                 "value unchanged",)


FL = z3.Function("fl", z3.RealSort(), z3.RealSort())
"""Round to nearest float64, as an uninterpreted function with the facts stated per goal."""


def growth(k: Any) -> Any:
    """``g(k) = k u / (1 - k u / 2)``: the relative error bound after ``k`` nested additions."""
    return k * UNIT_ROUNDOFF / (1 - k * UNIT_ROUNDOFF / 2)


def float_bounds(rng: random.Random) -> tuple[float, float]:
    """Seeded bounds ``lower <= upper``: at 0, straddling 0, or both positive; up to ``2^50``."""
    top = float(rng.choice([1, 0.7, 2 ** 50, rng.uniform(0, 2 ** rng.randint(-20, 50))]))
    return rng.choice([0.0, -top, top / rng.randint(2, 8), -rng.uniform(0, top)]), top


def substitution_pair(rng: random.Random) -> tuple[float, float, list[float], list[float]]:
    """Neighbours for a float aggregate's replay: seeded bounds (:func:`float_bounds`), ``n``
    from 2 to 2000, rows drawn inside or at the bounds, and one row moved from ``lower`` to
    ``upper`` at a random position: the exact results differ by exactly the map's first term
    (``U - L`` for the sum, ``(U - L) / n`` for the mean), so any rounding against the map shows."""
    lower, upper = float_bounds(rng)
    n = rng.choice([2, 3, 5, 7, rng.randint(2, 64), rng.randint(2, 2000)])
    v = [rng.choice([lower, upper, rng.uniform(lower, upper), rng.uniform(lower, upper)])
         for _ in range(n)]
    i = rng.randrange(n)
    v[i] = lower
    w = v[:i] + [upper] + v[i + 1:]
    return lower, upper, v, w


def map_candidates(size: str, fixed: dict[str, Any]) -> Candidates:
    """Seeded parameters for :func:`running_map_goal`: bounds (:func:`float_bounds`), ``size``
    from 1 to ``2^40``, ``d_in`` from 0 to ``10^6``."""
    def candidates(_: dict[str, Any], rng: random.Random) -> Iterator[tuple[dict[str, Any], int]]:
        while True:
            lower, upper = float_bounds(rng)
            n = rng.choice([1, 2, 3, 7, rng.randint(1, 2000), rng.randint(1, 2 ** 40)])
            yield ({size: n, "lower": lower, "upper": upper, **fixed},
                   rng.choice([0, 1, 2, 3, 4, rng.randint(0, 10 ** 6)]))
    return candidates


def running_map_goals(constructor: Constructor, size: str, fixed: dict[str, Any],
                      pairs: Callable[[dict], Replay]) -> list[ComputedGoal]:
    """The map that runs on numbers against the same code on solver numerals
    (:func:`int_maps.running_map_goal`) at seeded float parameters; a refutation is shown as a
    stability violation on real neighbours (``pairs``) where the search finds one, else as the
    map below its exact value."""
    candidates = map_candidates(size, fixed)
    below = replay_int_map(constructor, candidates, lambda *_: None)

    def replay(counterexample: dict[str, Any]) -> Replay:
        seen = pairs(counterexample)
        return seen if seen.confirmed else below(counterexample)
    return [running_map_goal(constructor, candidates, replay)]


def replay_float_pairs(constructor: Constructor, pairs: list[tuple[float, float, list, list]],
                       arguments_of: Callable[[float, float, list], dict[str, Any]]) -> Replay:
    """The first pair ``(lower, upper, v, w)`` the constructor admits (``arguments_of(lower,
    upper, v)``) whose float outputs differ by more than ``map(d_in)``: confirmed; none found:
    the first pair reported, not confirmed."""
    for lower, upper, v, w in pairs:
        arguments = arguments_of(lower, upper, v)
        try:
            t = constructor(**arguments)
        except DPCertError:
            continue  # refused: its outputs are not claimed
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        claimed = t.map(d_in)
        if Fraction(observed) > Fraction(claimed):
            return constructor_report(constructor, arguments, v, w, d_in, claimed, observed, True)
    lower, upper, v, w = pairs[0]
    arguments = arguments_of(lower, upper, v)
    t = constructor(**arguments)
    d_in = t.input_metric.distance(v, w)
    return constructor_report(constructor, arguments, v, w, d_in, t.map(d_in),
                              t.output_metric.distance(t(v), t(w)), False)


def rounding_goals(add: Callable[[Any, Any], Any]) -> list[Z3Goal]:
    """Operands ``a``, ``b`` (exact ``s``, float ``h``, ``|s| <= A``) carry errors ``<= E_a, E_b``
    with ``E = g(k) A``; one rounded addition ``add(h_a, h_b)(1 + delta)`` leaves at most
    ``g(k + 1)(A_a + A_b)`` (a row is exact: error 0, ``A = |x|``). Split in four small steps."""
    sa, sb, ha, hb, big_a, big_b, ea, eb, delta, k, r, bound, g = z3.Reals(
        "s_a s_b h_a h_b A_a A_b E_a E_b delta k r R G")
    u = UNIT_ROUNDOFF
    total, exact = big_a + big_b, add(sa, sb)
    names = {"s_a": sa, "s_b": sb, "h_a": ha, "h_b": hb, "A_a": big_a, "A_b": big_b,
             "E_a": ea, "E_b": eb, "delta": delta, "k": k, "r": r, "R": bound, "G": g}
    return [
        Z3Goal("the unrounded sum of the float operands is within E_a + E_b of the exact sum, "
               "and within A_a + A_b + E_a + E_b of 0",
               z3.And(ops.absolute(add(ha, hb) - exact) <= ea + eb,
                      ops.absolute(add(ha, hb)) <= total + ea + eb),
               [ops.absolute(sa) <= big_a, ops.absolute(sb) <= big_b,
                ops.absolute(ha - sa) <= ea, ops.absolute(hb - sb) <= eb], names),
        Z3Goal("the rounding term: |r delta| <= u R when |r| <= R and |delta| <= u",
               ops.absolute(r * delta) <= u * bound,
               [ops.absolute(delta) <= u, ops.absolute(r) <= bound], names),
        Z3Goal("so with E_a + E_b = G (A_a + A_b): |add(h_a, h_b)(1 + delta) - exact| <= "
               "(G (1 + u) + u)(A_a + A_b)",
               ops.absolute(add(ha, hb) * (1 + delta) - exact) <= (g * (1 + u) + u) * total,
               [g >= 0, ops.absolute(add(ha, hb) - exact) <= g * total,
                ops.absolute(add(ha, hb) * delta) <= u * (1 + g) * total], names),
        Z3Goal("g(k)(1 + u) + u <= g(k + 1), g(k) = k u / (1 - k u / 2), for (k + 1) u <= 1",
               growth(k) * (1 + u) + u <= growth(k + 1), [k >= 0, (k + 1) * u <= 1], names),
    ]
