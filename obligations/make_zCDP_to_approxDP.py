"""Obligations of ``make_zCDP_to_approxDP``, over an arbitrary zCDP stand-in measurement.

The stand-in has a symbolic input interval, an uninterpreted function ``g(x, r)`` and an
uninterpreted privacy map ``m``; its guarantee (``rho_true <= m(d_in)``-zCDP) is an assumption.
The privacy proof takes Bun and Steinke 2016, Proposition 1.3 as given (rho-zCDP implies
``(rho + 2 sqrt(rho ln(1/delta)), delta)``-DP for every ``delta > 0``) and shows the code's
epsilon bounds the proposition's for the true rho: ``ln_up``, ``sqrt_up`` are uninterpreted with
their stated facts (``exp(ln_up(r)) >= r``, obligation ``arith.ln_up``; ``sqrt_up(y) >= 0`` and
``sqrt_up(y)^2 >= y``, checked on the implementation here), ``exp`` the uninterpreted ``EXP``.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any, Callable

import mpmath
import z3

from mechanisms import ops
from mechanisms.arith import sqrt_up
from mechanisms.core import Constructor, Measurement
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_zCDP_to_approxDP import make_zCDP_to_approxDP
from mechanisms.measures import FixedSmoothedMaxDivergence, ZeroConcentratedDivergence
from mechanisms.metrics import AbsoluteDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal
from obligations.make_chain_tt import interval, symbolic_map
from obligations.make_randomized_response import EXP, exp_facts
from obligations.reports import Code, import_line, plain_report

BUN_STEINKE_CONVERSION = ("Bun and Steinke 2016, Proposition 1.3 (rho-zCDP implies "
                          "(rho + 2 sqrt(rho ln(1/delta)), delta)-DP for all delta > 0)")
SQRT_UP_GRID = 2000
EXACT_OPS = ("exact real sums and products on Z3; the float code rounds each up (arith.add_up, "
             "arith.mul_up; 2 * s is exact), which only increases epsilon")
GAUSS = "make_gaussian(1.0)"


def stand_in() -> tuple[Measurement, z3.ArithRef]:
    g = z3.Function("g", z3.RealSort(), z3.RealSort(), z3.RealSort())
    return (Measurement(interval("X"), interval("Z"), AbsoluteDistance(),
                        ZeroConcentratedDivergence(), g, symbolic_map("m")), z3.Real("delta"))


def assumed(constructor: Constructor, m: Measurement, delta: Any) -> list[Any]:
    return [is_true(c) for c in constructor.assumptions(measurement=m, delta=delta)]


def _replay_output_domain(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        inner = make_chain_mt(make_gaussian(1.0), make_bounded_int_sum(0, 10))
        m = constructor(inner, 1e-6)
        output = m([1, 2], random.Random(0))
        confirmed = not m.output_domain.member(output)
        return plain_report(confirmed, f"{constructor.name}(make_chain_mt({GAUSS}, "
                            "make_bounded_int_sum(0, 10)), 1e-6) on [1, 2]", f"output {output!r}",
                            f"in the output domain {m.output_domain}: {not confirmed}")
    return replay


def gaussian_delta(epsilon: float, rho: Fraction) -> mpmath.mpf:
    """A lower bound of the exact ``delta(epsilon) = sum_y max(0, P(y) - e^eps Q(y))`` of the
    discrete Gaussian of scale 1 at 0 (``P``) and at 1 (``Q``) (``rho = 1/2``): the sum over
    ``|y| <= 60`` over an upper bound of the normaliser."""
    with mpmath.workdps(60):
        weight = lambda y: mpmath.exp(-mpmath.mpf(y) ** 2 / 2)  # noqa: E731
        normaliser = sum(weight(y) for y in range(-60, 61)) + 2 * weight(60)
        gap = sum(max(mpmath.mpf(0), weight(y) - mpmath.exp(epsilon) * weight(y - 1))
                  for y in range(-60, 61))
        return gap / normaliser


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """The discrete Gaussian of scale 1 (rho = 1/2 at d_in = 1) at delta = 1e-6: the exact
    delta of its outputs on 0 and 1 at the claimed epsilon, against the claimed delta."""
    def replay(_: dict) -> Replay:
        m = constructor(make_gaussian(1.0), 1e-6)
        epsilon, delta = m.map(1)
        observed = gaussian_delta(epsilon, Fraction(1, 2))
        confirmed = bool(observed > delta)
        call = f"{constructor.name}({GAUSS}, 1e-6)"
        return plain_report(confirmed, call, "inputs x = 0, x' = 1 (d_in = 1)",
                            f"claimed  map(1) = {(epsilon, delta)!r}",
                            f"observed delta at that epsilon >= {mpmath.nstr(observed, 10)}"
                            + ("  > claimed delta" if confirmed else ""),
                            "reproduce:", f"  {import_line(constructor)}",
                            "  from mechanisms.make_gaussian import make_gaussian",
                            f"  print({call}.map(1))")
    return replay


def _sqrt_up_facts() -> Decision:
    """``s = sqrt_up(x)``: ``s >= 0``, ``s^2 >= x`` and the float below ``s`` has a square
    ``< x``, compared exactly, on seeded floats and rationals of every magnitude."""
    rng = random.Random(1605)
    values: list[Any] = [0, 0.0, 5e-324, 1.0, 2.0, 1e308, Fraction(1, 3)]
    values += [math.ldexp(rng.random(), rng.randint(-1074, 1023)) for _ in range(SQRT_UP_GRID // 2)]
    values += [Fraction(rng.randint(1, 10 ** 30), rng.randint(1, 10 ** 30))
               for _ in range(SQRT_UP_GRID // 2)]
    for x in values:
        s = sqrt_up(x)
        below = math.nextafter(s, 0.0)
        if not (s >= 0 and Fraction(s) ** 2 >= Fraction(x)
                and (s == 0 or Fraction(below) ** 2 < Fraction(x))):
            return Decision(False, {"x": str(x)}, f"sqrt_up({x}) = {s!r}")
    return Decision(True, detail=f"{len(values)} values: s >= 0, s^2 >= x, least such float")


def zcdp_to_approx_obligations(constructor: Constructor = make_zCDP_to_approxDP,
                               prefix: str = "zCDP_to_approxDP") -> tuple[Obligation, ...]:
    replay = _replay_privacy(constructor)

    def output_domain_goals() -> list[Any]:
        inner, delta = stand_in()
        built = constructor.build(measurement=inner, delta=delta)
        x, r = z3.Reals("x r")
        guarantee = z3.Implies(is_true(inner.input_domain.contains(x)),
                               is_true(inner.output_domain.contains(inner.function(x, r))))
        claim = z3.Implies(is_true(built.input_domain.contains(x)),
                           is_true(built.output_domain.contains(built.function(x, r))))
        return [Z3Goal("x in the input domain => function(x, r) in the output domain, given the "
                       "measurement's output-domain guarantee", claim,
                       [*assumed(constructor, inner, delta), guarantee],
                       {"x": x, "r": r, "delta": delta}, _replay_output_domain(constructor))]

    def premises() -> Decision:
        inner, delta = stand_in()
        built = constructor.build(measurement=inner, delta=delta)
        if built.function is not inner.function or built.input_metric is not inner.input_metric:
            return Decision(False, {}, "the function or input metric is not the measurement's",
                            unsupported=True)
        if not isinstance(built.output_measure, FixedSmoothedMaxDivergence):
            return Decision(False, {"measure": str(built.output_measure)},
                            "the output measure is not FixedSmoothedMaxDivergence", unsupported=True)
        return Decision(True, detail="same function and input metric; zCDP in, fixed-delta out")

    def privacy_goals() -> list[Any]:
        inner, delta = stand_in()
        built = constructor.build(measurement=inner, delta=delta)
        d_in, rho_true, log_term, root = z3.Reals("d_in rho_true L q")
        epsilon, claimed_delta = built.map(d_in)
        rho = inner.map(d_in)
        names = {"d_in": d_in, "delta": delta, "rho_true": rho_true, "L": log_term, "q": root}
        product = rho * ops.ln_up(1 / delta)
        sqrt_facts = [ops.SQRT_UP(product) >= 0, ops.SQRT_UP(product) ** 2 >= product]
        exact_log = [log_term >= 0, EXP(log_term) * delta == 1,
                     z3.Implies(EXP(log_term) <= EXP(ops.ln_up(1 / delta)),
                                log_term <= ops.ln_up(1 / delta))]
        return [
            ComputedGoal("the measurement's function and input metric; zCDP to fixed delta",
                         "structure", premises, replay),
            ComputedGoal("sqrt_up(x) >= 0 and sqrt_up(x)^2 >= x (least such float)", "structure",
                         _sqrt_up_facts),
            Z3Goal("the map's delta is the given delta", claimed_delta == delta,
                   assumed(constructor, inner, delta), names, replay),
            Z3Goal("rho_true <= m(d_in) (the measurement's guarantee), L = ln(1/delta), "
                   "q = sqrt(rho_true L): rho_true + 2 q <= epsilon",
                   rho_true + 2 * root <= epsilon,
                   [*assumed(constructor, inner, delta), rho_true >= 0, rho_true <= rho,
                    root >= 0, root * root == rho_true * log_term, *exact_log, *sqrt_facts,
                    *exp_facts(epsilon, log_term)], names, replay),
        ]

    def builds() -> list[Any]:
        inner, delta = stand_in()
        return [constructor.build(measurement=inner, delta=delta)]

    witnesses = {"measurement": make_gaussian(1.0), "delta": 1e-6}
    shown = {"measurement": Code(GAUSS), "delta": 1e-6}
    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "The function is the measurement's, so its outputs lie in the measurement's "
                   "output domain, which is the result's.",
                   r"x \in \mathcal{X} \implies M(x, r) \in \mathcal{Y}", output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "The input metric is the measurement's, which fits its input domain.",
                   r"d_{\mathcal{X}} \sim \mathcal{X}",
                   lambda: [compatibility_goal(constructor, builds, witnesses, shown)]),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "If the measurement is rho-zCDP on d_in-close inputs with rho <= m(d_in), it is "
                   "(rho + 2 sqrt(rho ln(1/delta)), delta)-DP (the cited proposition), and "
                   "map(d_in) = (epsilon, delta) with epsilon >= that, every step rounded up.",
                   r"d(x, x') \le d_{in} \implies \Pr[M(x) \in S] \le e^{\varepsilon} "
                   r"\Pr[M(x') \in S] + \delta", privacy_goals, uses=("arith.ln_up",),
                   cites=(BUN_STEINKE_CONVERSION,), arithmetic=EXACT_OPS,
                   bound=f"sqrt_up's facts: guaranteed by its exact loop guard, evaluated on "
                         f"{SQRT_UP_GRID} seeded values"),
    )


IMPORTS = ("from mechanisms.make_zCDP_to_approxDP import make_zCDP_to_approxDP",
           "from mechanisms.make_gaussian import make_gaussian")


def catalogue_entry() -> Entry:
    return Entry("make_zCDP_to_approxDP", make_zCDP_to_approxDP, zcdp_to_approx_obligations(),
                 "a rho-zCDP measurement as (epsilon, delta)-DP for a fixed delta",
                 (example("make_zCDP_to_approxDP(make_gaussian(2.0), 1e-6)", *IMPORTS),),
                 proof=True)
