"""Obligations of ``make_basic_composition``, by assume-guarantee over arbitrary components.

Stand-in measurements share a symbolic input interval and absolute distance; each has an
uninterpreted function ``g_i(x, r)``, an output interval of its own and an uninterpreted privacy
map ``m_i``. Each component's guarantee is an assumption where the proof uses it. The map is a
left fold of the component maps with ``combine`` (``ops.fold`` through
``make_partition_map.partition_bound``); the privacy proofs are inductions on the number ``k`` of
components: Z3 discharges the base case and the fold's recurrence on the constructor's own map,
and the step adding one component (pure DP: ``exp`` is the uninterpreted ``EXP`` with stated
facts; zCDP: the cited composition lemma reduces the step to ``rho_total + rho_k <= combine``).
Refutations are replayed on real components with exact output distributions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

import random

import mpmath
import z3

from mechanisms.core import Constructor, Measurement
from mechanisms.make_basic_composition import CompositionFunction, make_basic_composition
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_partition_map import partition_bound
from mechanisms.make_randomized_response import make_randomized_response
from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence
from mechanisms.metrics import AbsoluteDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal
from obligations.make_chain_mt import make_constant
from obligations.make_chain_tt import interval, symbolic_map
from obligations.make_randomized_response import EXP, exact_distribution
from obligations.rounding import combine_rounding_obligation, random_float, replay_combined
from obligations.reports import Code, import_line, plain_report
from obligations.symbols import natural

MAX_COMPONENTS_CHECKED = 4
BUN_STEINKE_COMPOSITION = ("Bun and Steinke 2016 (arXiv:1605.02065), composition of zCDP: "
                           "rho-zCDP and rho'-zCDP give (rho + rho')-zCDP")


def _laplace_components(rng: random.Random) -> list[Measurement]:
    """Two to five discrete Laplace measurements of seeded float scales."""
    return [make_discrete_laplace(random_float(rng)) for _ in range(rng.randint(2, 5))]


def stand_in(index: int, measure: Any) -> Measurement:
    """Component ``i``: symbolic input interval ``X`` (shared), absolute distance, function
    ``g_i(x, r)`` and map ``m_i`` uninterpreted, output interval ``Z_i``."""
    g = z3.Function(f"g{index}", z3.RealSort(), z3.RealSort(), z3.RealSort())
    return Measurement(interval("X"), interval(f"Z{index}"), AbsoluteDistance(), measure, g,
                       symbolic_map(f"m{index}"))


def stand_ins(k: int, measure: Any = MaxDivergence()) -> list[Measurement]:
    return [stand_in(i, measure) for i in range(k)]


def assumed(constructor: Constructor, components: list[Measurement]) -> list[Any]:
    return [is_true(c) for c in constructor.assumptions(measurements=components)]


RR = "make_randomized_response([0, 1], 0.75)"
IMPORTS = ("from mechanisms.make_basic_composition import make_basic_composition",
           "from mechanisms.make_randomized_response import make_randomized_response",
           "from mechanisms.make_gaussian import make_gaussian",
           "from obligations.make_chain_mt import make_constant")


def _replay_output_domain(constructor: Constructor) -> Callable[[dict], Replay]:
    """Randomized response and a constant string: outputs of different types per position."""
    def replay(_: dict) -> Replay:
        import random
        m = constructor([make_randomized_response([0, 1], 0.75), make_constant("y")])
        output = m(1, random.Random(0))
        confirmed = not m.output_domain.member(output)
        call = f"{constructor.name}([{RR}, make_constant('y')])"
        return plain_report(confirmed, f"{call} on 1", f"output {output!r}",
                            f"in the output domain {m.output_domain}: {not confirmed}",
                            "reproduce:", f"  {import_line(constructor)}", *[f"  {i}" for i in IMPORTS[1:]],
                            f"  import random; m = {call}",
                            "  print(m(1, random.Random(0)), m.output_domain.member(m(1, random.Random(0))))")
    return replay


def _product(distributions: list[dict[Any, Fraction]]) -> dict[tuple, Fraction]:
    """The joint distribution of independent components: ``P(y_1, ..., y_k) = prod_i P_i(y_i)``."""
    joint: dict[tuple, Fraction] = {(): Fraction(1)}
    for distribution in distributions:
        joint = {(*y, z): p * q for y, p in joint.items() for z, q in distribution.items()}
    return joint


def _replay_pure(constructor: Constructor) -> Callable[[dict], Replay]:
    """Two randomized responses on neighbours 0 and 1: the exact largest log-ratio of the product
    distributions (``2 ln 3``) against ``map(1)``."""
    def replay(_: dict) -> Replay:
        components = [make_randomized_response([0, 1], 0.75)] * 2
        m = constructor(components)
        p = _product([exact_distribution(c, 0) for c in components])
        q = _product([exact_distribution(c, 1) for c in components])
        ratio = MaxDivergence().max_ratio(p, q)
        claimed = m.map(1)
        with mpmath.workdps(50):
            observed = mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
            confirmed = observed > mpmath.mpf(claimed)
        call = f"{constructor.name}([{RR}, {RR}])"
        return plain_report(confirmed, call, "inputs x = 0, x' = 1 (d_in = 1)",
                            f"claimed  map(1) = {claimed!r}",
                            f"observed max ln(P(y) / P'(y)) = {mpmath.nstr(observed, 17)}"
                            + ("  > claimed" if confirmed else ""),
                            "reproduce:", f"  {import_line(constructor)}", f"  {IMPORTS[1]}",
                            f"  print({call}.map(1))")
    return replay


def _replay_zcdp(constructor: Constructor) -> Callable[[dict], Replay]:
    """Two discrete Gaussians of scale 1 on x = 0, x' = 1: each has Renyi divergence exactly
    alpha / 2 at every order (make_gaussian's replay), the product's is alpha (divergences of
    independent products add), so rho = 1 is attained."""
    def replay(_: dict) -> Replay:
        m = constructor([make_gaussian(1.0), make_gaussian(1.0)])
        claimed, observed = m.map(1), Fraction(1)
        confirmed = observed > claimed
        call = f"{constructor.name}([make_gaussian(1.0), make_gaussian(1.0)])"
        return plain_report(confirmed, call, "inputs x = 0, x' = 1 (d_in = 1)",
                            f"claimed  map(1) = {claimed!r}",
                            "observed D_alpha(M(0) || M(1)) / alpha = 1/2 + 1/2 = 1"
                            + ("  > claimed" if confirmed else ""),
                            "reproduce:", f"  {import_line(constructor)}", f"  {IMPORTS[2]}",
                            f"  print({call}.map(1))")
    return replay


def _is_fold(constructor: Constructor) -> Decision:
    """The map is ``partition_bound`` over the components' maps in order (a left fold)."""
    for k in range(1, MAX_COMPONENTS_CHECKED + 1):
        components = stand_ins(k)
        built = constructor.build(measurements=components)
        rule, params = built.privacy_map.rule, built.privacy_map.params
        if rule is not partition_bound or tuple(params.get("maps", ())) != tuple(
                c.privacy_map for c in components):
            return Decision(False, {"k": k}, "the map is not partition_bound over the component "
                            "maps in order", unsupported=True)
    return Decision(True, detail="map = fold(combine, [m_i(d_in)])")


def _is_product(constructor: Constructor) -> Decision:
    """The function runs every component in order on the same input (fresh draws each), so the
    output distribution is the product of the components' distributions."""
    for k in range(1, MAX_COMPONENTS_CHECKED + 1):
        components = stand_ins(k)
        function = constructor.build(measurements=components).function
        if not (isinstance(function, CompositionFunction)
                and function.functions == tuple(c.function for c in components)):
            return Decision(False, {"k": k}, "the function is not CompositionFunction of the "
                            "components' functions in order", unsupported=True)
    return Decision(True, detail=f"CompositionFunction of the components in order, k = 1..{MAX_COMPONENTS_CHECKED}")


def _same_metric_and_measure(constructor: Constructor, measure: Any) -> Decision:
    components = stand_ins(2, measure)
    built = constructor.build(measurements=components)
    if built.input_metric is not components[0].input_metric:
        return Decision(False, {"input_metric": str(built.input_metric)},
                        "the input metric is not the components'", unsupported=True)
    if built.output_measure is not measure:
        return Decision(False, {"output_measure": str(built.output_measure)},
                        f"the output measure is not the components' {measure}", unsupported=True)
    return Decision(True, detail=f"input metric and {measure} are the components'")


def _fold_goals(constructor: Constructor, measure: Any,
                replay: Callable[[dict], Replay]) -> list[Any]:
    """Base case ``map_1 = m_1`` and recurrence ``map_k = combine(map_(k-1), m_k)`` (k = 2, 3) on
    the constructor's own map."""
    d_in, d_in_natural = natural("d_in")
    components = stand_ins(3, measure)
    one = constructor.build(measurements=components[:1])
    combine = one.privacy_map.params["combine"]
    goals = [Z3Goal("base: one component's map is its own", one.map(d_in) == components[0].map(d_in),
                    [*assumed(constructor, components[:1]), *d_in_natural], {"d_in": d_in}, replay)]
    for k in (2, 3):
        longer = constructor.build(measurements=components[:k])
        shorter = constructor.build(measurements=components[:k - 1])
        goals.append(Z3Goal(f"recurrence (k = {k}): map_k = combine(map_(k-1), m_k)",
                            longer.map(d_in) == combine(shorter.map(d_in), components[k - 1].map(d_in)),
                            [*assumed(constructor, components[:k]), *d_in_natural], {"d_in": d_in},
                            replay))
    return goals


def _combine(constructor: Constructor, measure: Any) -> Callable[[Any, Any], Any]:
    return constructor.build(measurements=stand_ins(1, measure)).privacy_map.params["combine"]


def composition_obligations(constructor: Constructor = make_basic_composition,
                            prefix: str = "basic_composition") -> tuple[Obligation, ...]:
    pure_replay, zcdp_replay = _replay_pure(constructor), _replay_zcdp(constructor)

    def structure(measure: Any, replay: Callable[[dict], Replay]) -> list[Any]:
        return [ComputedGoal("outputs are independent draws of the components, in order",
                             "structure", lambda: _is_product(constructor), replay),
                ComputedGoal("input metric and output measure are the components'", "structure",
                             lambda: _same_metric_and_measure(constructor, measure), replay),
                ComputedGoal("the map folds the component maps", "structure",
                             lambda: _is_fold(constructor), replay)]

    def output_domain_goals() -> list[Any]:
        goals = []
        x, r = z3.Reals("x r")
        replay = _replay_output_domain(constructor)
        for k in range(1, MAX_COMPONENTS_CHECKED + 1):
            components = stand_ins(k)
            built = constructor.build(measurements=components)
            output = built.function(x, r)
            domains = built.output_domain.components
            if len(output) != k or len(domains) != k:
                goals.append(ComputedGoal(f"k = {k}: k outputs in a k-fold product", "structure",
                                          lambda k=k: Decision(False, {"k": k}, "wrong length"),
                                          replay))
                continue
            guarantees = [z3.Implies(is_true(c.input_domain.contains(x)),
                                     is_true(c.output_domain.contains(c.function(x, r))))
                          for c in components]
            claim = z3.Implies(is_true(built.input_domain.contains(x)),
                               z3.And(*[is_true(d.contains(y)) for d, y in zip(domains, output)]))
            goals.append(Z3Goal(f"k = {k}: x in the input domain => output i in output domain i",
                                claim, [*assumed(constructor, components), *guarantees],
                                {"x": x, "r": r}, replay))
        return goals

    def pure_goals() -> list[Any]:
        goals = structure(MaxDivergence(), pure_replay)
        if not all(g.decide().proved for g in goals):
            return goals
        combine = _combine(constructor, MaxDivergence())
        big_p, big_q, p, q, a, e, f, d_in = z3.Reals("P Q p q A e F d_in")
        names = {"P": big_p, "Q": big_q, "p": p, "q": q, "A": a, "e": e, "F": f}
        total = combine(a, f)
        exp_facts = [EXP(a) > 0, EXP(e) > 0, EXP(f) > 0, EXP(a) * EXP(f) == EXP(a + f),
                     z3.Implies(e <= f, EXP(e) <= EXP(f)),
                     z3.Implies(a + f <= total, EXP(a + f) <= EXP(total))]
        first = stand_ins(1)
        return [*goals, *_fold_goals(constructor, MaxDivergence(), pure_replay),
                Z3Goal("base: p <= exp(e) q and e <= m_1(d_in) = map_1(d_in) give "
                       "p <= exp(map_1(d_in)) q",
                       p <= EXP(constructor.build(measurements=first).map(d_in)) * q,
                       [p >= 0, q >= 0, p <= EXP(e) * q, e <= first[0].map(d_in), EXP(e) > 0,
                        z3.Implies(e <= first[0].map(d_in), EXP(e) <= EXP(first[0].map(d_in)))],
                       {"p": p, "q": q, "e": e, "d_in": d_in}, pure_replay),
                Z3Goal("step: P <= exp(A) Q (first k-1), p <= exp(e) q with e <= F = m_k(d_in) "
                       "give P p <= exp(combine(A, F)) Q q",
                       big_p * p <= EXP(total) * big_q * q,
                       [big_p >= 0, big_q >= 0, p >= 0, q >= 0, big_p <= EXP(a) * big_q,
                        p <= EXP(e) * q, e <= f, *exp_facts], names, pure_replay)]

    def zcdp_goals() -> list[Any]:
        measure = ZeroConcentratedDivergence()
        goals = structure(measure, zcdp_replay)
        if not all(g.decide().proved for g in goals):
            return goals
        combine = _combine(constructor, measure)
        s, a, o, f = z3.Reals("S A o F")
        return [*goals, *_fold_goals(constructor, measure, zcdp_replay),
                Z3Goal("step: the lemma makes the first k-1 and component k (S + o)-zCDP; "
                       "S <= A, o <= F = m_k(d_in) give S + o <= combine(A, F)",
                       s + o <= combine(a, f), [s >= 0, o >= 0, s <= a, o <= f],
                       {"S": s, "A": a, "o": o, "F": f}, zcdp_replay)]

    def builds() -> list[Any]:
        return [constructor.build(measurements=stand_ins(k))
                for k in range(1, MAX_COMPONENTS_CHECKED + 1)]

    witnesses = {"measurements": [make_randomized_response([0, 1], 0.75)] * 2}
    shown = {"measurements": Code(f"[{RR}, {RR}]")}
    bounded = f"k <= {MAX_COMPONENTS_CHECKED} measurements"
    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "If each M_i maps the common input domain into its output domain for every "
                   "random draw, function(x) = (M_1(x), ..., M_k(x)) lies in the product of the "
                   "output domains.",
                   r"x \in \mathcal{X} \implies (M_1(x), \dots, M_k(x)) \in \prod_i \mathcal{Y}_i",
                   output_domain_goals, bound=bounded),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "The input metric is the components' common one, which fits their common "
                   "input domain.", r"d_{\mathcal{X}} \sim \mathcal{X}",
                   lambda: [compatibility_goal(constructor, builds, witnesses, shown)],
                   bound=bounded),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "Pure DP: if each M_i is m_i(d_in)-DP on d_in-close inputs, the independent "
                   "product satisfies P(y) = prod_i P_i(y_i) <= prod_i exp(eps_i) P'_i(y_i) <= "
                   "exp(map(d_in)) P'(y), map(d_in) >= sum_i m_i(d_in), for every k by induction.",
                   r"d(x, x') \le d_{in} \implies \Pr[M(x) = y] \le e^{\mathtt{map}(d_{in})} "
                   r"\Pr[M(x') = y]", pure_goals, uses=(f"{prefix}.map_rounding",)),
        Obligation(f"{prefix}.privacy_zcdp", Kind.PRIVACY,
                   "zCDP: if each M_i is m_i(d_in)-zCDP on d_in-close inputs, the independent "
                   "product is (sum_i m_i(d_in))-zCDP by the composition lemma, and "
                   "map(d_in) >= sum_i m_i(d_in), for every k by induction.",
                   r"d(x, x') \le d_{in} \implies D_\alpha(M(x) \| M(x')) \le "
                   r"\alpha\, \mathtt{map}(d_{in})\ \forall \alpha > 1", zcdp_goals,
                   uses=(f"{prefix}.map_rounding",), cites=(BUN_STEINKE_COMPOSITION,)),
        combine_rounding_obligation(
            prefix, lambda: [_combine(constructor, MaxDivergence()),
                             _combine(constructor, ZeroConcentratedDivergence())],
            replay_combined(constructor, "measurements", _laplace_components),
            "sum_i m_i(d_in), the component maps as computed"),
    )


def catalogue_entry() -> Entry:
    return Entry("make_basic_composition", make_basic_composition, composition_obligations(),
                 "run several pure-DP or zCDP measurements on the same input",
                 (example(f"make_basic_composition([{RR}, make_randomized_response([0, 1], 0.6)])",
                          *IMPORTS[:2]),
                  example("make_basic_composition([make_gaussian(1.0), make_gaussian(2.0)])",
                          IMPORTS[0], IMPORTS[2])),
                 proof=True)
