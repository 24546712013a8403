"""Obligations of ``make_pureDP_to_approxDP``, over an arbitrary pure-DP stand-in measurement.

The stand-in has a symbolic input interval, an uninterpreted function ``g(x, r)`` and an
uninterpreted privacy map ``m``; its guarantee (``Pr[M(x) = y] <= exp(e) Pr[M(x') = y]`` with
``e <= m(d_in)`` on ``d_in``-close inputs) is an assumption of the goals that use it. The privacy
proof is an induction on the number of outcomes of an event ``S``: the empty event has mass 0 on
both sides, and adding one outcome ``y`` adds ``P(y) <= exp(e) Q(y)`` to the left and
``exp(eps) Q(y)`` to the right, with ``(eps, delta)`` the running map's pair, read from the built
object; ``exp`` is the uninterpreted ``EXP`` with the facts stated in each goal. A countable event
is the limit of its finite parts (argued in the human proof). Nothing is cited.

Replays run real components with exact laws (randomized response; the discrete Laplace, its mass
summed at 60 digits over a window that holds all but a negligible tail, which only lowers the
sum) and compute the least delta that makes ``Pr[M(x) in S] <= exp(eps) Pr[M(x') in S] + delta``
hold for every event ``S``, ``sum_y max(0, P(y) - exp(eps) Q(y))``, against the claimed delta.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from typing import Any, Callable

import mpmath
import z3

from mechanisms.core import Constructor, Map, Measurement
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_discrete_laplace import IntegerNoise, make_discrete_laplace
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP
from mechanisms.make_randomized_response import RandomizedResponse, make_randomized_response
from mechanisms.make_zCDP_to_approxDP import make_zCDP_to_approxDP
from mechanisms.measures import FixedSmoothedMaxDivergence, MaxDivergence
from mechanisms.metrics import AbsoluteDistance
from mechanisms.samplers import sample_discrete_laplace
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true, on_solver_terms)
from obligations.compatibility import compatibility_goal
from obligations.stand_ins import interval, symbolic_map
from obligations.path_enumeration import exact_distribution
from obligations.exponential import EXP
from obligations.reports import Code, import_line, member_assertion, plain_report, reproducer
from obligations.exact_delta import gaussian_delta, DIGITS, exceeds, mpf_of, needed_delta
from obligations.witnesses import excluded_goals, refusal_goal, witness_goal

LAPLACE = "make_discrete_laplace(1.0)"
LAPLACE_IMPORT = "from mechanisms.make_discrete_laplace import make_discrete_laplace"
APPROX = "make_zCDP_to_approxDP(make_gaussian(1.0), 1e-6)"
APPROX_IMPORT = ("from mechanisms.make_gaussian import make_gaussian; "
                 "from mechanisms.make_zCDP_to_approxDP import make_zCDP_to_approxDP")
GAUSS = "make_gaussian(1.0)"
GAUSS_IMPORT = "from mechanisms.make_gaussian import make_gaussian"
RR = "make_randomized_response([0, 1], 0.75)"
RR_IMPORT = "from mechanisms.make_randomized_response import make_randomized_response"


def stand_in() -> Measurement:
    g = z3.Function("g", z3.RealSort(), z3.RealSort(), z3.RealSort())
    return Measurement(interval("X"), interval("Z"), AbsoluteDistance(), MaxDivergence(), g,
                       symbolic_map("m"))


def discrete_laplace_window(scale: Any, x: int, x2: int) -> tuple[dict[int, Any], dict[int, Any]]:
    """The laws of ``x + Y`` and ``x2 + Y``, ``Pr[Y = z] = (1 - a)/(1 + a) a^|z|``,
    ``a = exp(-1/scale)`` (the stated discrete Laplace law, from the mathematics), at
    :data:`DIGITS` digits, on the outcomes within ``60 scale + 60`` of both centres. Omitted
    outcomes only lower :func:`needed_delta`."""
    with mpmath.workdps(DIGITS):
        a = mpmath.exp(-1 / mpf_of(scale))
        c = (1 - a) / (1 + a)
        radius = int(60 * Fraction(scale)) + 60
        window = range(min(x, x2) - radius, max(x, x2) + radius + 1)
        return ({y: c * a ** abs(y - x) for y in window},
                {y: c * a ** abs(y - x2) for y in window})


def observed_delta(m: Measurement, x: Any, x2: Any, epsilon: Any) -> mpmath.mpf | None:
    """The least delta of the running measurement ``m`` on ``x`` and ``x2`` at ``epsilon``, for a
    function whose law is known: randomized response (its exact law, enumerated from its own
    ``__call__``) or the exact discrete Laplace kernel; ``None`` otherwise."""
    f = m.function
    if isinstance(f, RandomizedResponse):
        return needed_delta(exact_distribution(m, x), exact_distribution(m, x2), epsilon)
    if type(f) is IntegerNoise and f.sampler is sample_discrete_laplace and \
            type(f).shift is IntegerNoise.shift and Fraction(f.scale) > 0:
        return needed_delta(*discrete_laplace_window(f.scale, x, x2), epsilon)
    return None


def exact_laplace_map(d_in: Any, scale: Any) -> Fraction:
    """The discrete Laplace's exact loss ``d_in / scale`` (from the mathematics: the ratio of
    ``a^|y - x|`` and ``a^|y - x'|``, ``a = exp(-1/scale)``, is at most ``exp(|x - x'| / scale)``),
    as a rational: a valid map that is not a float."""
    return Fraction(d_in) / Fraction(scale)


def exact_discrete_laplace(scale: float) -> Measurement:
    """The real discrete Laplace of ``scale`` with the exact rational map :func:`exact_laplace_map`
    (a correct pure-DP measurement whose epsilon, e.g. ``1/3``, is no binary64)."""
    return replace(make_discrete_laplace(scale),
                   privacy_map=Map(rule=exact_laplace_map, params={"scale": scale}))


EXACT_LAPLACE = "exact_discrete_laplace(3.0)"
EXACT_LAPLACE_IMPORT = "from obligations.make_pureDP_to_approxDP import exact_discrete_laplace"

CASES = ((RR, lambda: make_randomized_response([0, 1], 0.75), 0, 1, 1),
         (LAPLACE, lambda: make_discrete_laplace(1.0), 0, 1, 1),
         (LAPLACE, lambda: make_discrete_laplace(1.0), 0, 2, 2),
         (LAPLACE, lambda: make_discrete_laplace(1.0), 0, 3, 3),
         (EXACT_LAPLACE, lambda: exact_discrete_laplace(3.0), 0, 1, 1))
"""Replayed components: ``(code, make, x, x', d_in)``."""


def privacy_violation(constructor: Constructor, cases: Any = CASES
                      ) -> tuple[str, int, int, int, Any, Any, mpmath.mpf] | None:
    """The first case of ``cases`` on which the least delta of the running result at the claimed
    epsilon exceeds the claimed delta: ``(code, x, x', d_in, claimed eps, claimed delta,
    observed delta)``."""
    for code, make, x, x2, d_in in cases:
        m = constructor(make())
        epsilon, delta = m.map(d_in)
        observed = observed_delta(m, x, x2, epsilon)
        if observed is None:
            continue
        if exceeds(observed, delta):
            return code, x, x2, d_in, epsilon, delta, observed
    return None


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        found = privacy_violation(constructor)
        if found is None:
            return plain_report(False, "no replayed component loses more than the claimed "
                                "(epsilon, delta)")
        code, x, x2, d_in, epsilon, delta, observed = found
        call = f"{constructor.name}({code})"
        imports = [{RR: RR_IMPORT, EXACT_LAPLACE: EXACT_LAPLACE_IMPORT}.get(code, LAPLACE_IMPORT)]
        return plain_report(True, call, f"inputs x = {x}, x' = {x2} (d_in = {d_in})",
                            f"claimed  map(d_in) = {(epsilon, delta)!r}",
                            f"observed least delta at that epsilon = {mpmath.nstr(observed, 12)}"
                            "  > claimed delta",
                            *reproducer(import_line(constructor), *imports,
                                        "from obligations.make_pureDP_to_approxDP import "
                                        "exceeds, observed_delta",
                                        f"m = {call}", f"epsilon, claimed = m.map({d_in})",
                                        f"observed = observed_delta(m, {x}, {x2}, epsilon)",
                                        "assert not exceeds(observed, claimed), f'the least "
                                        "delta at epsilon = {epsilon!r} is {observed} > the "
                                        "claimed delta {claimed!r}'"))
    return replay


def _replay_output_domain(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        inner = make_chain_mt(make_discrete_laplace(1.0), make_bounded_int_sum(0, 10))
        m = constructor(inner)
        output = m([1, 2], random.Random(0))
        confirmed = not m.output_domain.member(output)
        call = f"{constructor.name}(make_chain_mt({LAPLACE}, make_bounded_int_sum(0, 10)))"
        return plain_report(confirmed, f"{call} on [1, 2]", f"output {output!r}",
                            f"in the output domain {m.output_domain}: {not confirmed}",
                            *reproducer(import_line(constructor), "import random",
                                        "from mechanisms.make_chain_mt import make_chain_mt",
                                        LAPLACE_IMPORT,
                                        "from mechanisms.make_bounded_int_sum import "
                                        "make_bounded_int_sum",
                                        f"m = {call}", "output = m([1, 2], random.Random(0))",
                                        member_assertion("m")))
    return replay


def pure_to_approx_obligations(constructor: Constructor = make_pureDP_to_approxDP,
                               prefix: str = "pureDP_to_approxDP") -> tuple[Obligation, ...]:
    replay = _replay_privacy(constructor)
    witnesses = {"measurement": make_discrete_laplace(1.0)}
    shown = {"measurement": Code(LAPLACE, LAPLACE_IMPORT)}
    builds = witness_goal(constructor, witnesses, shown)

    def gaussian_refused(component: Callable[[], Measurement], code: str, imports: str,
                         excluded: str) -> ComputedGoal:
        """A measurement that is not pure DP (an approximate-DP one, delta > 0, whose delta the
        conversion would drop; a zCDP one, which is no (rho, 0)-DP) is refused. If it is built,
        the replay computes the discrete Gaussian's exact least delta (scale 1, inputs 0 and 1)
        at the claimed epsilon against the claimed delta."""
        def replay(_: dict) -> Replay:
            m = constructor(component())
            epsilon, delta = m.map(1)
            observed = gaussian_delta(epsilon, Fraction(1, 2))
            call = f"{constructor.name}({code})"
            return plain_report(exceeds(observed, delta), call, "inputs x = 0, x' = 1 (d_in = 1)",
                                f"claimed  map(d_in) = {(epsilon, delta)!r}",
                                f"observed least delta at that epsilon = "
                                f"{mpmath.nstr(observed, 12)}",
                                *reproducer(import_line(constructor), imports,
                                            "from fractions import Fraction",
                                            "from obligations.make_pureDP_to_approxDP import "
                                            "exceeds",
                                            "from obligations.make_zCDP_to_approxDP import "
                                            "gaussian_delta",
                                            f"m = {call}", "epsilon, claimed = m.map(1)",
                                            "observed = gaussian_delta(epsilon, Fraction(1, 2))",
                                            "assert not exceeds(observed, claimed), f'the least "
                                            "delta at epsilon = {epsilon!r} is {observed} > the "
                                            "claimed delta {claimed!r}'"))
        return refusal_goal(constructor, {"measurement": component()},
                            {"measurement": Code(code, imports)}, excluded, replay)

    def approximate_refused() -> ComputedGoal:
        return gaussian_refused(lambda: make_zCDP_to_approxDP(make_gaussian(1.0), 1e-6), APPROX,
                                APPROX_IMPORT,
                                "an approximate-DP measurement (its delta would be dropped)")

    def zcdp_refused() -> ComputedGoal:
        return gaussian_refused(lambda: make_gaussian(1.0), GAUSS, GAUSS_IMPORT,
                                "a zCDP measurement (the conversion is for pure DP)")

    def output_domain_goals() -> list[Any]:
        inner = stand_in()
        built = constructor.build(measurement=inner)
        x, r = z3.Reals("x r")

        def symbolic() -> list[Any]:
            guarantee = z3.Implies(is_true(inner.input_domain.contains(x)),
                                   is_true(inner.output_domain.contains(inner.function(x, r))))
            claim = z3.Implies(is_true(built.input_domain.contains(x)),
                               is_true(built.output_domain.contains(built.function(x, r))))
            return [Z3Goal("x in the input domain => function(x, r) in the output domain, given "
                           "the measurement's output-domain guarantee", claim, [guarantee],
                           {"x": x, "r": r}, _replay_output_domain(constructor))]

        # A zCDP or approximate component built anyway is run here for its outputs only; the
        # replay of its exact least delta above the claim is privacy's (zcdp_refused and
        # approximate_refused).
        return [witness_goal(constructor, witnesses, shown, inputs=[0, -3, 7], draws=3),
                *excluded_goals(constructor, [
                    ({"measurement": None}, "no measurement"),
                    ({"measurement": make_gaussian(1.0)}, "a zCDP measurement",
                     {"measurement": Code(GAUSS, GAUSS_IMPORT)}),
                    ({"measurement": make_zCDP_to_approxDP(make_gaussian(1.0), 1e-6)},
                     "an approximate-DP measurement", {"measurement": Code(APPROX, APPROX_IMPORT)})],
                    inputs=[0, -3, 7], draws=3),
                *on_solver_terms("the output domain", symbolic)]

    def premises() -> Decision:
        inner = stand_in()
        built = constructor.build(measurement=inner)
        if built.function is not inner.function or built.input_metric is not inner.input_metric:
            return Decision(False, {}, "the function or input metric is not the measurement's",
                            unsupported=True)
        if not isinstance(built.output_measure, FixedSmoothedMaxDivergence):
            return Decision(False, {"measure": str(built.output_measure)},
                            "the output measure is not FixedSmoothedMaxDivergence",
                            unsupported=True)
        return Decision(True, detail="same function and input metric; pure DP in, fixed delta out")

    def on_numbers() -> Decision:
        found = privacy_violation(constructor)
        if found is not None:
            code, x, x2, d_in, epsilon, delta, observed = found
            return Decision(False, {"measurement": code, "d_in": d_in},
                            f"least delta {mpmath.nstr(observed, 8)} > claimed {delta!r}")
        computed = sum(1 for _, make, x, x2, d_in in CASES
                       if observed_delta(constructor(make()), x, x2,
                                         constructor(make()).map(d_in)[0]) is not None)
        if not computed:  # a bounded check counts only the cases that ran
            return Decision(False, {"cases": len(CASES)}, "no case's law is known (the running "
                            "function is none the replay computes): nothing was checked",
                            unsupported=True)
        return Decision(True, detail=f"{computed} of {len(CASES)} real components computed: the "
                        "least delta at the claimed epsilon is within the claimed delta")

    def privacy_goals() -> list[Any]:
        inner = stand_in()
        built = constructor.build(measurement=inner)
        d_in, e, big_p, big_q, p, q = z3.Reals("d_in e P_S Q_S p q")

        def symbolic() -> list[Any]:
            pair = built.map(d_in)
            if not (isinstance(pair, tuple) and len(pair) == 2):
                return [ComputedGoal("the map returns a pair (epsilon, delta)", "structure",
                                     lambda: Decision(False, {}, f"the map returns {pair!r}",
                                                      unsupported=True), replay)]
            epsilon, delta = (z3.RealVal(v) if isinstance(v, (int, float)) else v for v in pair)
            rho = inner.map(d_in)
            names = {"d_in": d_in, "e": e, "P_S": big_p, "Q_S": big_q, "p": p, "q": q}
            exp_facts = [EXP(e) > 0, EXP(epsilon) > 0,
                         z3.Implies(e <= epsilon, EXP(e) <= EXP(epsilon))]
            return [
                Z3Goal("base (the empty event): 0 <= exp(eps) * 0 + delta, i.e. delta >= 0",
                       0 <= EXP(epsilon) * 0 + delta, [d_in >= 0], names, replay),
                Z3Goal("step (one more outcome y): P_S <= exp(eps) Q_S + delta and P(y) = p <= "
                       "exp(e) q = exp(e) Q(y) with e <= m(d_in) (the measurement's guarantee) "
                       "give P_S + p <= exp(eps) (Q_S + q) + delta",
                       big_p + p <= EXP(epsilon) * (big_q + q) + delta,
                       [d_in >= 0, big_p >= 0, big_q >= 0, p >= 0, q >= 0,
                        big_p <= EXP(epsilon) * big_q + delta, p <= EXP(e) * q, e <= rho,
                        *exp_facts], names, replay),
            ]

        return [
            builds,
            ComputedGoal("the measurement's function and input metric; pure DP to fixed delta",
                         "structure", premises, replay),
            approximate_refused(),
            zcdp_refused(),
            *on_solver_terms("the privacy induction", symbolic),
            ComputedGoal("on numbers: real components (randomized response, discrete Laplace at "
                         "d_in 1 to 3, discrete Laplace of scale 3 with its exact rational map "
                         "d_in / 3) lose no more than the claimed (epsilon, delta)", "exact",
                         on_numbers, replay),
        ]

    def symbolic_builds() -> list[Any]:
        return [constructor.build(measurement=stand_in())]

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
                   "If the measurement satisfies P(y) <= exp(e) Q(y) for every outcome y with "
                   "e <= m(d_in) on d_in-close inputs, then with (eps, delta) = map(d_in), "
                   "Pr[M(x) in S] <= exp(eps) Pr[M(x') in S] + delta for every event S: by "
                   "induction on the outcomes of S (base delta >= 0, step e <= eps).",
                   r"d(x, x') \le d_{in} \implies \Pr[M(x) \in S] \le e^{\varepsilon} "
                   r"\Pr[M(x') \in S] + \delta", privacy_goals),
    )


IMPORTS = ("from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP",
           LAPLACE_IMPORT)


def catalogue_entry() -> Entry:
    return Entry("make_pureDP_to_approxDP", make_pureDP_to_approxDP, pure_to_approx_obligations(),
                 "a pure-DP measurement as (epsilon, 0)-DP",
                 (example("make_pureDP_to_approxDP(make_discrete_laplace(2.0))", *IMPORTS),),
                 proof=True)
