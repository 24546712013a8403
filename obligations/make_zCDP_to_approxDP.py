"""Obligations of ``make_zCDP_to_approxDP``, over an arbitrary zCDP stand-in measurement.

The stand-in has a symbolic input interval, an uninterpreted function ``g(x, r)`` and an
uninterpreted privacy map ``m``; its guarantee (``rho_true <= m(d_in)``-zCDP) is an assumption.
The privacy proof takes Bun and Steinke 2016, Proposition 1.3 as given (rho-zCDP implies
``(rho + 2 sqrt(rho ln(1/delta)), delta)``-DP for every ``delta > 0``) and shows that the exact
epsilon of the map (:func:`float_model.exact_model`: ``ln`` and ``sqrt`` real, with
``sqrt(y)^2 = y``) bounds the proposition's for the true rho. ``map_rounding`` shows the float
map is at least that exact epsilon: ``ln_up`` (``arith.ln_up``), ``mul_up``, ``add_up``
(``arith.round_up``) and ``sqrt_up`` (``s^2 >= y`` by its exact loop guards, evaluated here on
seeded values) each round up, and ``2 * s`` is exact.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import replace
from fractions import Fraction
from typing import Any, Callable, Iterator

import mpmath
import z3

from mechanisms import float_model
from mechanisms.arith import sqrt_up
from mechanisms.core import Constructor, Measurement
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_zCDP_to_approxDP import make_zCDP_to_approxDP
from mechanisms.measures import FixedSmoothedMaxDivergence, ZeroConcentratedDivergence
from mechanisms.metrics import AbsoluteDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal
from obligations.witnesses import excluded_goals, witness_goal
from obligations.stand_ins import interval, symbolic_map
from obligations.reports import (Code, bound_assertion, claim_assertion, import_line,
                                 member_assertion, plain_report, reproducer)
from obligations.rounding import (ROUNDING_LEMMA, Candidates, exact_floats, float_valued_map,
                                  map_rounding_obligation, real_d_in, replay_rounding)
from obligations.exact_delta import gaussian_delta

BUN_STEINKE_CONVERSION = ("Bun and Steinke 2016, Proposition 1.3 (rho-zCDP implies "
                          "(rho + 2 sqrt(rho ln(1/delta)), delta)-DP for all delta > 0)")
SQRT_UP_GRID = 2000
GAUSS = "make_gaussian(1.0)"
GAUSS_IMPORT = "from mechanisms.make_gaussian import make_gaussian"
LAPLACE_IMPORT = "from mechanisms.make_discrete_laplace import make_discrete_laplace"


def stand_in() -> tuple[Measurement, z3.ArithRef]:
    g = z3.Function("g", z3.RealSort(), z3.RealSort(), z3.RealSort())
    return (Measurement(interval("X"), interval("Z"), AbsoluteDistance(),
                        ZeroConcentratedDivergence(), g, symbolic_map("m")), z3.Real("delta"))


def ln_nonnegative(y: Any) -> Any:
    """A fact of ``ln`` (the trusted model's ``LN``), not of the code: ``y >= 1 => ln(y) >= 0``.
    That ``1/delta >= 1`` must follow from the preconditions; it is not assumed."""
    return z3.Implies(y >= 1, float_model.LN(y) >= 0)


def assumed(constructor: Constructor, m: Measurement, delta: Any) -> list[Any]:
    return [is_true(c) for c in constructor.assumptions(measurement=m, delta=delta)]


def _replay_output_domain(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        inner = make_chain_mt(make_gaussian(1.0), make_bounded_int_sum(0, 10))
        m = constructor(inner, 1e-6)
        output = m([1, 2], random.Random(0))
        confirmed = not m.output_domain.member(output)
        call = f"{constructor.name}(make_chain_mt({GAUSS}, make_bounded_int_sum(0, 10)), 1e-6)"
        return plain_report(confirmed, f"{call} on [1, 2]", f"output {output!r}",
                            f"in the output domain {m.output_domain}: {not confirmed}",
                            *reproducer(import_line(constructor), "import random",
                                        "from mechanisms.make_chain_mt import make_chain_mt",
                                        "from mechanisms.make_gaussian import make_gaussian",
                                        "from mechanisms.make_bounded_int_sum import "
                                        "make_bounded_int_sum",
                                        f"m = {call}", "output = m([1, 2], random.Random(0))",
                                        member_assertion("m")))
    return replay


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
                            *reproducer(import_line(constructor),
                                        "from mechanisms.make_gaussian import make_gaussian",
                                        "from obligations.make_zCDP_to_approxDP import "
                                        "gaussian_delta",
                                        f"epsilon, claimed = {call}.map(1)",
                                        "observed = gaussian_delta(epsilon, Fraction(1, 2))",
                                        bound_assertion("the delta of make_gaussian(1.0) on 0 "
                                                        "and 1 at that epsilon >=",
                                                        "the claimed delta")))
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


def _rounding_candidates() -> Candidates:
    """The discrete Gaussian of scale ``2^-j`` (its rho at ``d_in = 1`` is a power of two, so its
    own map is exact) and a seeded ``delta`` in ``(0, 1)``."""
    def arguments(counterexample: dict[str, Any], rng: random.Random) -> Iterator[tuple[dict, Any]]:
        while True:
            yield ({"measurement": make_gaussian(2.0 ** -rng.randint(-20, 20)),
                    "delta": rng.uniform(1e-12, 0.5)}, 1)

    def shown(arguments: dict[str, Any]) -> dict[str, Any]:
        scale = arguments["measurement"].function.scale
        return {**arguments, "measurement": Code(f"make_gaussian({scale!r})", GAUSS_IMPORT)}
    return Candidates(arguments, exact_floats, shown)


STATED_PROBES = 300


def _below_stated(constructor: Constructor) -> Replay:
    """The real map at ``d_in = 1`` on :func:`_rounding_candidates` (and the discrete Gaussian of
    scale 1 at a few round deltas) against the stated epsilon ``rho + 2 sqrt(rho ln(1/delta))``,
    ``rho`` the component's own map value, computed with mpmath at 120 digits, independently of
    the code: the first epsilon strictly below it, or none."""
    rng = random.Random(0)
    fixed = [({"measurement": make_gaussian(1.0), "delta": d}, 1) for d in (0.1, 1e-3, 1e-6)]
    generated = _rounding_candidates().arguments({}, rng)
    for count, (arguments, d_in) in enumerate(itertools.chain(fixed, generated)):
        if count >= STATED_PROBES:
            break
        epsilon, _ = constructor(**arguments).map(d_in)
        rho, delta = arguments["measurement"].map(d_in), arguments["delta"]
        with mpmath.workdps(120):
            r, d = (mpmath.mpf(Fraction(x).numerator) / Fraction(x).denominator
                    for x in (rho, delta))
            stated = r + 2 * mpmath.sqrt(r * mpmath.log(1 / d))
            if mpmath.mpf(Fraction(epsilon).numerator) / Fraction(epsilon).denominator < stated:
                call = f"{constructor.name}(make_gaussian({arguments['measurement'].function.scale!r}), {delta!r})"
                return plain_report(True, f"the map rounds below the stated epsilon: {call}",
                                    f"d_in = {d_in}, rho = m(d_in) = {rho!r}",
                                    f"map(d_in) epsilon = {epsilon!r} (computed)",
                                    f"stated rho + 2 sqrt(rho ln(1/delta)) = {mpmath.nstr(stated, 30)}",
                                    *reproducer(import_line(constructor), "import mpmath",
                                                GAUSS_IMPORT, "mpmath.mp.dps = 120",
                                                f"epsilon, _ = {call}.map({d_in})",
                                                f"r, d = (mpmath.mpf(Fraction(x).numerator) / "
                                                f"Fraction(x).denominator for x in ({rho!r}, "
                                                f"{delta!r}))",
                                                "stated = r + 2 * mpmath.sqrt(r * "
                                                "mpmath.log(1 / d))",
                                                claim_assertion(
                                                    "mpmath.mpf(Fraction(epsilon).numerator) / "
                                                    "Fraction(epsilon).denominator >= stated",
                                                    "map(d_in) epsilon = {epsilon!r} is below the "
                                                    "stated rho + 2 sqrt(rho ln(1/delta)) = "
                                                    "{stated}")))
    return plain_report(False, f"no epsilon below the stated value on {STATED_PROBES} parameters")


def _unmodelled_goal(constructor: Constructor, why: str) -> ComputedGoal:
    """The map uses an operation the float model refuses (``why``), so its rounding is not
    proved: *unknown (unsupported)*, unless the real map on the probes of :func:`_below_stated`
    falls below the stated epsilon: refuted, and the replay shows it again."""
    def decide() -> Decision:
        found = _below_stated(constructor)
        if found.confirmed:
            return Decision(False, {"probe": found.report.splitlines()[0]},
                            "the real map falls below the stated epsilon")
        return Decision(False, {"operation": why}, f"the map's float arithmetic is not modelled "
                        f"({why}); no probe fell below the stated epsilon", unsupported=True)
    return ComputedGoal("the map's float operations are modelled, or the real map stays at or "
                        "above the stated epsilon on the probes", "structure", decide,
                        lambda _: _below_stated(constructor))


def zcdp_to_approx_obligations(constructor: Constructor = make_zCDP_to_approxDP,
                               prefix: str = "zCDP_to_approxDP") -> tuple[Obligation, ...]:
    replay = _replay_privacy(constructor)

    witnesses = {"measurement": make_gaussian(1.0), "delta": 1e-6}
    shown = {"measurement": Code(GAUSS, GAUSS_IMPORT), "delta": 1e-6}
    builds = witness_goal(constructor, witnesses, shown)

    def output_domain_goals() -> list[Any]:
        inner, delta = stand_in()
        built = constructor.build(measurement=inner, delta=delta)
        x, r = z3.Reals("x r")
        guarantee = z3.Implies(is_true(inner.input_domain.contains(x)),
                               is_true(inner.output_domain.contains(inner.function(x, r))))
        claim = z3.Implies(is_true(built.input_domain.contains(x)),
                           is_true(built.output_domain.contains(built.function(x, r))))
        return [witness_goal(constructor, witnesses, shown, inputs=[0, -3, 7], draws=3),
                *excluded_goals(constructor, [
                    ({"measurement": make_discrete_laplace(1.0), "delta": 1e-6},
                     "a pure-DP measurement (the conversion is for zCDP)",
                     {"measurement": Code("make_discrete_laplace(1.0)", LAPLACE_IMPORT),
                      "delta": 1e-6}),
                    ({"measurement": make_gaussian(1.0), "delta": Fraction(1, 2)},
                     "a delta that is not an int or a float",
                     {"measurement": Code(GAUSS, GAUSS_IMPORT),
                      "delta": Code("Fraction(1, 2)", "from fractions import Fraction")})],
                    inputs=[0, -3, 7], draws=3),
                Z3Goal("x in the input domain => function(x, r) in the output domain, given the "
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
        d_in, rho_true, root = z3.Reals("d_in rho_true q")
        with float_model.exact_model() as model:
            built = constructor.build(measurement=inner, delta=delta)
            epsilon, claimed_delta = built.map(d_in)
            sqrt_facts = list(model.facts)
        rho, log_term = inner.map(d_in), float_model.LN(1 / delta)
        names = {"d_in": d_in, "delta": delta, "rho_true": rho_true, "q": root}
        return [
            builds,
            ComputedGoal("the measurement's function and input metric; zCDP to fixed delta",
                         "structure", premises, replay),
            Z3Goal("the map's delta is the given delta", claimed_delta == delta,
                   assumed(constructor, inner, delta), names, replay),
            Z3Goal("rho_true <= m(d_in) (the measurement's guarantee), q = sqrt(rho_true "
                   "ln(1/delta)), ln(1/delta) >= 0 for delta < 1: rho_true + 2 q <= the exact "
                   "epsilon rho + 2 sqrt(rho ln(1/delta))",
                   rho_true + 2 * root <= epsilon,
                   [*assumed(constructor, inner, delta), rho_true >= 0, rho_true <= rho,
                    root >= 0, root * root == rho_true * log_term, ln_nonnegative(1 / delta),
                    *sqrt_facts],
                   names, replay),
        ]

    def float_symbolic() -> tuple[Any, dict[str, Any], list[Any]]:
        inner = replace(stand_in()[0], privacy_map=float_valued_map("rho"))
        delta = float_model.float_parameter("delta")
        plain_delta = float_model.plain(delta)
        rho = float_model.plain(inner.map(z3.Real("d_in")))
        return (constructor.build(measurement=inner, delta=delta), {"delta": plain_delta},
                [*assumed(constructor, inner, delta), rho >= 0, ln_nonnegative(1 / plain_delta)])

    def rounding_goals() -> list[Any]:
        try:
            modelled = rounded.goals()
        except TypeError as error:  # the float model's refusal of an operation it cannot model
            if "not modelled" not in str(error):
                raise
            modelled = [_unmodelled_goal(constructor, str(error))]
        return [builds, ComputedGoal("sqrt_up(x) >= 0 and sqrt_up(x)^2 >= x (least such float)",
                                     "structure", _sqrt_up_facts), *modelled]

    rounded = map_rounding_obligation(
        prefix, float_symbolic, real_d_in, replay_rounding(constructor, _rounding_candidates()),
        "(rho + 2 sqrt(rho ln(1/delta)), delta), rho = m(d_in) >= 0",
        uses=(ROUNDING_LEMMA, "arith.ln_up"))

    def symbolic_builds() -> list[Any]:
        inner, delta = stand_in()
        return [constructor.build(measurement=inner, delta=delta)]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "The function is the measurement's, so its outputs lie in the measurement's "
                   "output domain, which is the result's.",
                   r"x \in \mathcal{X} \implies M(x, r) \in \mathcal{Y}", output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "The input metric is the measurement's, which fits its input domain.",
                   r"d_{\mathcal{X}} \sim \mathcal{X}",
                   lambda: [builds, compatibility_goal(constructor, symbolic_builds, witnesses,
                                                       shown)]),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "If the measurement is rho-zCDP on d_in-close inputs with rho <= m(d_in), it is "
                   "(rho + 2 sqrt(rho ln(1/delta)), delta)-DP (the cited proposition), and the "
                   "exact epsilon of the map at rho = m(d_in) is at least that "
                   "(map_rounding: the float map is at least the exact one).",
                   r"d(x, x') \le d_{in} \implies \Pr[M(x) \in S] \le e^{\varepsilon} "
                   r"\Pr[M(x') \in S] + \delta", privacy_goals, uses=(f"{prefix}.map_rounding",),
                   cites=(BUN_STEINKE_CONVERSION,)),
        replace(rounded, goals=rounding_goals,
                bound=f"sqrt_up's facts: guaranteed by its exact loop guards, evaluated on "
                      f"{SQRT_UP_GRID} seeded values"),
    )


IMPORTS = ("from mechanisms.make_zCDP_to_approxDP import make_zCDP_to_approxDP",
           "from mechanisms.make_gaussian import make_gaussian")


def catalogue_entry() -> Entry:
    return Entry("make_zCDP_to_approxDP", make_zCDP_to_approxDP, zcdp_to_approx_obligations(),
                 "a rho-zCDP measurement as (epsilon, delta)-DP for a fixed delta",
                 (example("make_zCDP_to_approxDP(make_gaussian(2.0), 1e-6)", *IMPORTS),),
                 proof=True)
