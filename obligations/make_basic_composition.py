"""Obligations of ``make_basic_composition``, by assume-guarantee over arbitrary components.

Stand-in measurements share a symbolic input interval and absolute distance; each has an
uninterpreted function ``g_i(x, r)``, an output interval of its own and an uninterpreted privacy
map ``m_i`` (returning a float). Each component's guarantee is an assumption where the proof uses
it. Two forms of the map are proved:

* a left fold of the component maps with ``combine`` (``ops.fold`` through
  ``make_partition_map.partition_bound``): the privacy proofs are inductions on the number ``k``
  of components, for every ``k``. Z3 discharges the base case and the fold's recurrence on the
  constructor's own map, and the step adding one component (pure DP: ``exp`` is the
  uninterpreted ``EXP`` with stated facts; zCDP: the cited composition lemma reduces the step to
  ``rho_total + rho_k <= combine``); ``map_rounding`` checks one ``combine`` step in binary64.
* any other rule (a right fold, a sum written otherwise ...): the running map is evaluated on each
  stand-in list of :data:`PATTERNS` (``k <= 4``, so the privacy obligations are then bounded) and
  Z3 proves, pure DP, ``prod_i P_i(y_i) <= exp(map(d_in)) prod_i P'_i(y_i)`` from each position's
  ``P_i <= exp(e_i) P'_i``, ``e_i <= m_i(d_in)``, and zCDP ``sum_i rho_i <= map(d_in)`` from
  ``rho_i <= m_i(d_in)`` (with the cited lemma), i.e. ``map(d_in) >= sum_i m_i(d_in)``. The
  component maps are non-negative there: a component's guarantee on ``x`` against itself (distance
  0 <= d_in) forces it, both laws having total mass 1. ``map_rounding`` runs the rule under the
  rounding model against the exact model on the same lists (the component values float terms).

Both forms are also run on numbers: on seeded lists of real components (repeats included) the map
must be at least the exact sum of the component maps as computed, so a map that computes otherwise
on numbers than on solver terms is refuted.
Component lists are taken as given, a component repeated included (``[a, a]``, ``[a, b, a]``):
code that deduplicates or keys components by identity computes another map or function there.
The stand-ins always share their domain, metric and measure, so goals on real components check the
preconditions: the constructor builds valid lists and refuses lists whose input domains, input
metrics or output measures differ. Refutations are replayed on real components with exact output
laws, at ``d_in`` from 1 to 3 and with components repeated.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction
from types import SimpleNamespace
from typing import Any, Callable, Sequence

import mpmath
import z3

from mechanisms.core import Constructor, Measurement
from mechanisms.make_basic_composition import CompositionFunction, make_basic_composition
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_partition_map import partition_bound
from mechanisms.make_randomized_response import RandomizedResponse, make_randomized_response
from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence
from mechanisms.metrics import AbsoluteDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal
from obligations.kernels import trusted_kernel_goal
from obligations.stand_ins import interval, MAX_COMPONENTS_CHECKED, PATTERNS
from obligations.path_enumeration import exact_distribution
from obligations.exponential import EXP
from obligations.rounding import (ROUNDING_LEMMA, at_least, combine_rounding_obligation, float_d_in,
                                  float_valued_map, map_values, random_float)
from obligations.reports import (Code, bound_assertion, claim_assertion, import_line, literal,
                                 log_lines, member_assertion, plain_report, reproducer,
                                 seeded_members, show)
from obligations.symbols import natural
from obligations.witnesses import (excluded_goals, make_constant, make_keep_or_redraw, refusal_goal,
                                   witness_goal)

BUN_STEINKE_COMPOSITION = ("Bun and Steinke 2016 (arXiv:1605.02065), composition of zCDP: "
                           "rho-zCDP and rho'-zCDP give (rho + rho')-zCDP")


PROBES = 200
"""Seeded lists of real components per family that the map is run on, on numbers."""


def _seeded_list(make: Callable[[float], Measurement], rng: random.Random
                 ) -> tuple[list[Measurement], tuple[int, ...]]:
    """A pool of one to three components ``make(scale)`` of seeded float scales, and one to five
    picks from it (indices): a component is often listed more than once, as one object."""
    pool = [make(random_float(rng)) for _ in range(rng.randint(1, 3))]
    return pool, tuple(rng.randrange(len(pool)) for _ in range(rng.randint(1, 5)))


def stand_in(index: int, measure: Any) -> Measurement:
    """Component ``i``: symbolic input interval ``X`` (shared), absolute distance, function
    ``g_i(x, r)`` and map ``m_i`` uninterpreted (a float under the rounding model), output
    interval ``Z_i``."""
    g = z3.Function(f"g{index}", z3.RealSort(), z3.RealSort(), z3.RealSort())
    return Measurement(interval("X"), interval(f"Z{index}"), AbsoluteDistance(), measure, g,
                       float_valued_map(f"m{index}"))


def stand_ins(k: int, measure: Any = MaxDivergence()) -> list[Measurement]:
    return [stand_in(i, measure) for i in range(k)]


def stand_in_lists(measure: Any = MaxDivergence()) -> list[list[Measurement]]:
    """The lists of :data:`PATTERNS`, over one set of stand-ins."""
    pool = stand_ins(MAX_COMPONENTS_CHECKED, measure)
    return [[pool[i] for i in pattern] for pattern in PATTERNS]


def assumed(constructor: Constructor, components: list[Measurement]) -> list[Any]:
    return [is_true(c) for c in constructor.assumptions(measurements=components)]


RR = "make_randomized_response([0, 1], 0.75)"
IMPORTS = ("from mechanisms.make_basic_composition import make_basic_composition",
           "from mechanisms.make_randomized_response import make_randomized_response",
           "from mechanisms.make_gaussian import make_gaussian",
           "from obligations.witnesses import make_constant, make_keep_or_redraw",
           "from mechanisms.make_discrete_laplace import make_discrete_laplace")


def _replay_output_domain(constructor: Constructor) -> Callable[[dict], Replay]:
    """Randomized response and a constant string: outputs of different types per position."""
    def replay(_: dict) -> Replay:
        m = constructor([make_randomized_response([0, 1], 0.75), make_constant("y")])
        output = m(1, random.Random(0))
        confirmed = not m.output_domain.member(output)
        call = f"{constructor.name}([{RR}, make_constant('y')])"
        return plain_report(confirmed, f"{call} on 1", f"output {output!r}",
                            f"in the output domain {m.output_domain}: {not confirmed}",
                            *reproducer(import_line(constructor), *IMPORTS[1:], "import random",
                                        f"m = {call}", "output = m(1, random.Random(0))",
                                        member_assertion("m")))
    return replay


def _product(distributions: list[dict[Any, Fraction]]) -> dict[tuple, Fraction]:
    """The joint distribution of independent components: ``P(y_1, ..., y_k) = prod_i P_i(y_i)``."""
    joint: dict[tuple, Fraction] = {(): Fraction(1)}
    for distribution in distributions:
        joint = {(*y, z): p * q for y, p in joint.items() for z, q in distribution.items()}
    return joint


RESPONSES = [(RR, make_randomized_response([0, 1], 0.75)),
             ("make_randomized_response([0, 1], 0.6)", make_randomized_response([0, 1], 0.6))]
LAPLACES = [("make_discrete_laplace(1.0)", make_discrete_laplace(1.0)),
            ("make_discrete_laplace(2.0)", make_discrete_laplace(2.0))]
GAUSSIANS = [("make_gaussian(1.0)", make_gaussian(1.0)), ("make_gaussian(2.0)", make_gaussian(2.0))]
LIST_PATTERNS = ((0, 0), (0, 1), (0, 1, 0), (1, 1, 1))
"""Lists replayed: indices into a family of two real components, repeats included."""


def _lists(family: list[tuple[str, Measurement]]
           ) -> list[tuple[str, list[str], list[Measurement]]]:
    """Per pattern of :data:`LIST_PATTERNS`: the list as a reader writes it, the reproducer lines
    that build it (``a`` and ``b`` the family's two objects, so a repeat is one object twice, as
    in the replay), and the list."""
    setup = f"a, b = {family[0][0]}, {family[1][0]}"
    return [("[" + ", ".join(family[i][0] for i in pattern) + "]",
             [setup, "measurements = [" + ", ".join("ab"[i] for i in pattern) + "]"],
             [family[i][1] for i in pattern])
            for pattern in LIST_PATTERNS]


def _rr_loss(m: Measurement) -> Fraction:
    """The exact largest ``P(y) / P'(y)`` of the running components' product on 0 and 1."""
    functions = m.function.functions
    return MaxDivergence().max_ratio(_product([_rr_law(f, 0) for f in functions]),
                                     _product([_rr_law(f, 1) for f in functions]))


def _rr_law(function: RandomizedResponse, arg: Any) -> dict[Any, Fraction]:
    """A running randomized response's exact output law on ``arg`` (its own draws and coin)."""
    return exact_distribution(SimpleNamespace(function=function), arg)


def _laplace_loss(m: Measurement, x: int, x2: int) -> Fraction:
    """The discrete Laplace components' product at ``x`` and ``x2``: each running function's law
    has largest log-ratio ``|x - x2| / scale``, all attained at one output (every ``y_i`` below
    both inputs), so the product's is their sum."""
    return sum((Fraction(abs(x - x2)) / Fraction(f.scale) for f in m.function.functions),
               Fraction(0))


def _report(constructor: Constructor, call: str, inputs: str, d_in: Any, claimed: Any,
            observed: str, what: str, built: Sequence[str], computation: Sequence[str]) -> Replay:
    """The composition of ``call`` loses more than its map on ``inputs``. Reproducer lines:
    ``built`` bind ``measurements`` to the components, ``computation`` binds ``observed`` to the
    loss the replay computed from the composition ``m``."""
    return plain_report(True, f"{constructor.name}({call})", f"{inputs} (d_in = {d_in})",
                        f"claimed  map(d_in) = {claimed!r}", f"observed {what} = {observed}  > claimed",
                        *reproducer(import_line(constructor), *IMPORTS[1:], *built,
                                    f"m = {constructor.name}(measurements)",
                                    f"claimed = m.map({literal(d_in)})", *computation,
                                    bound_assertion(what, f"map({literal(d_in)})")))


def _replay_pure(constructor: Constructor) -> Callable[[dict], Replay]:
    """Lists of randomized responses on neighbours 0 and 1 (exact product laws), then lists of
    discrete Laplace noise on ``x`` and ``x + d`` (``d`` in ``1..3``, ``x`` in ``-1..0``): the
    first exact loss above ``map(d_in)``."""
    def replay(_: dict) -> Replay:
        for call, built, components in _lists(RESPONSES):
            m = constructor(components)
            ratio = _rr_loss(m)
            with mpmath.workdps(50):
                observed = mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
                if observed > mpmath.mpf(m.map(1)):
                    return _report(constructor, call, "inputs x = 0, x' = 1", 1, m.map(1),
                                   mpmath.nstr(observed, 17), "max ln(P(y) / P'(y))", built,
                                   log_lines(f"{literal(ratio)}  # the replay's exact max "
                                             "P(y) / P'(y) of the components' product law"))
        for call, built, components in _lists(LAPLACES):
            m = constructor(components)
            for d in range(1, 4):
                for x in (-1, 0):
                    observed = _laplace_loss(m, x, x + d)
                    if observed > Fraction(m.map(d)):
                        return _report(constructor, call, f"inputs x = {x}, x' = {x + d}", d,
                                       m.map(d), show(observed),
                                       "max ln(P(y) / P'(y)) = sum_i |x - x'| / scale_i", built,
                                       [f"observed = sum(Fraction({d}) / Fraction(f.scale) "
                                        "for f in m.function.functions)"])
        return plain_report(False, f"{constructor.name}: no loss above the map on "
                            f"{2 * len(LIST_PATTERNS)} lists of real components")
    return replay


def _replay_zcdp(constructor: Constructor) -> Callable[[dict], Replay]:
    """Lists of discrete Gaussians on ``x = 0``, ``x' = d`` (``d`` in ``1..3``): each running
    function has Renyi divergence exactly ``alpha d^2 / (2 scale^2)`` at every order (make_gaussian's
    replay), and divergences of independent products add."""
    def replay(_: dict) -> Replay:
        for call, built, components in _lists(GAUSSIANS):
            m = constructor(components)
            for d in range(1, 4):
                observed = sum((Fraction(d * d) / (2 * Fraction(f.scale) ** 2)
                                for f in m.function.functions), Fraction(0))
                if observed > Fraction(m.map(d)):
                    return _report(constructor, call, f"inputs x = 0, x' = {d}", d, m.map(d),
                                   show(observed), "D_alpha(M(x) || M(x')) / alpha", built,
                                   [f"observed = sum(Fraction({d * d}) / (2 * Fraction(f.scale) "
                                    "** 2) for f in m.function.functions)"])
        return plain_report(False, f"{constructor.name}: no divergence above the map on "
                            f"{len(LIST_PATTERNS)} lists of discrete Gaussians")
    return replay


def _replay_domain_mismatch(constructor: Constructor) -> Callable[[dict], Replay]:
    """Built though the input domains differ: on 50 (in component 0's domain, the composition's)
    ``make_keep_or_redraw(0, 9)`` keeps 50 half of the time, outside its output domain."""
    def replay(_: dict) -> Replay:
        m = constructor([make_randomized_response(list(range(10)), 0.75), make_keep_or_redraw(0, 9)])
        outputs = [m(50, random.Random(seed)) for seed in range(20)]
        outside = [y for y in outputs if not m.output_domain.member(y)]
        call = (f"{constructor.name}([make_randomized_response(list(range(10)), 0.75), "
                "make_keep_or_redraw(0, 9)])")
        return plain_report(bool(outside), f"{call} on 50, seeds 0..19",
                            f"outputs {outputs!r}", f"outside {m.output_domain}: {outside!r}",
                            *reproducer(import_line(constructor), *IMPORTS[1:], f"m = {call}",
                                        *seeded_members(50, 20)))
    return replay


def _replay_metric_mismatch(constructor: Constructor) -> Callable[[dict], Replay]:
    """Built though the input metrics differ: under randomized response's discrete metric, 0 and
    10 are 1 apart; the discrete Laplace component alone has loss ``10 / scale`` there."""
    def replay(_: dict) -> Replay:
        call = f"[{RR}, make_discrete_laplace(1.0)]"
        m = constructor([make_randomized_response([0, 1], 0.75), make_discrete_laplace(1.0)])
        d_in = m.input_metric.distance(0, 10)
        observed = Fraction(10) / Fraction(m.function.functions[1].scale)
        if observed <= Fraction(m.map(d_in)):
            return plain_report(False, f"{constructor.name}({call}): no loss above the map")
        return _report(constructor, call, "inputs x = 0, x' = 10", d_in, m.map(d_in),
                       show(observed), "max ln(P(y) / P'(y)) >= (Laplace component alone)",
                       [f"measurements = {call}"],
                       ["observed = Fraction(10) / Fraction(m.function.functions[1].scale)"])
    return replay


def _replay_measure_mismatch(constructor: Constructor) -> Callable[[dict], Replay]:
    """Built though the output measures differ, as pure DP: on 0 and 1 at outputs ``y = -10``,
    discrete Laplace has log-ratio ``1 / scale`` and the discrete Gaussian (running scale ``s``)
    ``((y - 1)^2 - y^2) / (2 s^2) = 21 / (2 s^2)``, which no pure-DP map bounds."""
    def replay(_: dict) -> Replay:
        call = "[make_discrete_laplace(1.0), make_gaussian(1.0)]"
        m = constructor([make_discrete_laplace(1.0), make_gaussian(1.0)])
        laplace, gaussian = (Fraction(f.scale) for f in m.function.functions)
        observed = 1 / laplace + Fraction(21) / (2 * gaussian ** 2)
        if observed <= Fraction(m.map(1)):
            return plain_report(False, f"{constructor.name}({call}): no loss above the map")
        return _report(constructor, call, "inputs x = 0, x' = 1, outputs y = (-10, -10)", 1,
                       m.map(1), show(observed), "ln(P(y) / P'(y))", [f"measurements = {call}"],
                       ["laplace, gaussian = (Fraction(f.scale) for f in m.function.functions)",
                        "observed = 1 / laplace + Fraction(21) / (2 * gaussian ** 2)"])
    return replay


def _is_fold(constructor: Constructor) -> Decision:
    """The map is ``partition_bound`` over the components' maps in order (a left fold), on every
    list of :data:`PATTERNS` (repeats included)."""
    for components in stand_in_lists():
        built = constructor.build(measurements=components)
        rule, params = built.privacy_map.rule, built.privacy_map.params
        if rule is not partition_bound or tuple(params.get("maps", ())) != tuple(
                c.privacy_map for c in components):
            return Decision(False, {"k": len(components)}, "the map is not partition_bound over "
                            "the component maps in order", unsupported=True)
    return Decision(True, detail="map = fold(combine, [m_i(d_in)])")


def _composition_kernel(constructor: Constructor) -> ComputedGoal:
    """The function is ``CompositionFunction``'s own code."""
    return trusted_kernel_goal("the composition's function",
                               lambda: constructor.build(measurements=stand_ins(2)).function,
                               CompositionFunction)


def _is_product(constructor: Constructor) -> Decision:
    """The function runs every component of the list in order, repeats included, on the same input
    (fresh draws each), so the output distribution is the product of the components'."""
    for components in stand_in_lists():
        function = constructor.build(measurements=components).function
        if getattr(function, "functions", None) != tuple(c.function for c in components):
            return Decision(False, {"k": len(components)}, "the function does not hold the "
                            "components' functions in order", unsupported=True)
    return Decision(True, detail=f"the components' functions in order, on {len(PATTERNS)} lists "
                    "(repeats included)")


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
    """Base case ``map_1 = m_1`` and recurrence ``map_k = combine(map_(k-1), m_k)`` on the
    constructor's own map, for every list of :data:`PATTERNS` (so ``[a, a]`` is ``a`` twice)."""
    d_in, d_in_natural = natural("d_in")
    lists = stand_in_lists(measure)
    first = lists[0]
    one = constructor.build(measurements=first)
    combine = _combine(constructor, measure)
    goals = [Z3Goal("base: one component's map is its own", one.map(d_in) == first[0].map(d_in),
                    [*assumed(constructor, first), *d_in_natural], {"d_in": d_in}, replay)]
    for components, pattern in zip(lists, PATTERNS):
        if len(components) < 2:
            continue
        longer = constructor.build(measurements=components)
        shorter = constructor.build(measurements=components[:-1])
        goals.append(Z3Goal(f"recurrence (components {list(pattern)}): "
                            "map_k = combine(map_(k-1), m_k)",
                            longer.map(d_in) == combine(shorter.map(d_in), components[-1].map(d_in)),
                            [*assumed(constructor, components), *d_in_natural], {"d_in": d_in},
                            replay))
    return goals


def _combine(constructor: Constructor, measure: Any) -> Callable[[Any, Any], Any] | None:
    """The map's ``combine`` (``None`` when the map has none: the fold check then fails)."""
    return constructor.build(measurements=stand_ins(1, measure)).privacy_map.params.get("combine")


def _folds(constructor: Constructor) -> bool:
    """Whether the map is a left fold with a ``combine`` step, so the induction proves every
    ``k`` (else the bounded method for any rule applies). Only picks the method: its goals read
    the running map again."""
    try:
        return _is_fold(constructor).proved and all(
            _combine(constructor, measure) is not None
            for measure in (MaxDivergence(), ZeroConcentratedDivergence()))
    except Exception:  # noqa: BLE001 - a build that raises is left to the goals to report
        return False


def _on_terms(name: str, goal: Callable[[], Any], replay: Callable[[dict], Replay]) -> Any:
    """``goal()``, built by running the composition's map on solver terms; a rule that does not
    run on them (it raises) leaves the goal unknown (unsupported), never proved."""
    try:
        return goal()
    except Exception as error:  # noqa: BLE001 - a rule outside the method may not run on terms
        detail = f"the map does not run on solver terms ({type(error).__name__}: {error})"
        return ComputedGoal(name, "structure",
                            lambda: Decision(False, {}, detail, unsupported=True), replay)


def _component_values(components: list[Measurement], d_in: Any) -> tuple[list[Any], list[Any]]:
    """``m_i(d_in)`` at each position, and ``m_i(d_in) >= 0``: a component's guarantee on an input
    against itself (distance ``0 <= d_in``) forces it, as both laws have total mass 1."""
    values = [c.map(d_in) for c in components]
    return values, [v >= 0 for v in values]


def _product_law_goal(constructor: Constructor, pattern: tuple[int, ...],
                      replay: Callable[[dict], Replay]) -> Any:
    """Pure DP on one stand-in list, any map rule: position ``i`` has ``p_i <= e^(e_i) q_i`` with
    ``e_i <= m_i(d_in)`` (a repeated component: the same ``m``, draws of its own); the product
    law gives ``prod_i p_i <= e^(map(d_in)) prod_i q_i``."""
    name = (f"components {list(pattern)}: p_i <= exp(e_i) q_i, e_i <= m_i(d_in) give "
            "prod_i p_i <= exp(map(d_in)) prod_i q_i")

    def goal() -> Z3Goal:
        components = stand_in_lists()[PATTERNS.index(pattern)]
        d_in = z3.Real("d_in")
        k = len(components)
        p, q, e = ([z3.Real(f"{n}{i + 1}") for i in range(k)] for n in ("p", "q", "e"))
        values, nonnegative = _component_values(components, d_in)
        total = constructor.build(measurements=components).map(d_in)
        loss = z3.Sum(*e)
        positions = [z3.And(p_i >= 0, q_i >= 0, p_i <= EXP(e_i) * q_i, e_i <= v, EXP(e_i) > 0)
                     for p_i, q_i, e_i, v in zip(p, q, e, values)]
        exp_facts = [math.prod(EXP(e_i) for e_i in e) == EXP(loss),
                     z3.Implies(loss <= total, EXP(loss) <= EXP(total))]
        return Z3Goal(name, math.prod(p) <= EXP(total) * math.prod(q),
                      [*assumed(constructor, components), d_in >= 0, *nonnegative, *positions,
                       *exp_facts], {"d_in": d_in, **{f"e{i + 1}": x for i, x in enumerate(e)}},
                      replay)
    return _on_terms(name, goal, replay)


def _zcdp_sum_goal(constructor: Constructor, pattern: tuple[int, ...],
                   replay: Callable[[dict], Replay]) -> Any:
    """zCDP on one stand-in list, any map rule: the lemma makes the list ``(sum_i rho_i)``-zCDP
    when position ``i`` is ``rho_i``-zCDP, and ``rho_i <= m_i(d_in)`` give
    ``sum_i rho_i <= map(d_in)``."""
    name = (f"components {list(pattern)}: the lemma makes the list (sum_i rho_i)-zCDP; "
            "rho_i <= m_i(d_in) give sum_i rho_i <= map(d_in)")

    def goal() -> Z3Goal:
        components = stand_in_lists(ZeroConcentratedDivergence())[PATTERNS.index(pattern)]
        d_in = z3.Real("d_in")
        rho = [z3.Real(f"rho{i + 1}") for i in range(len(components))]
        values, nonnegative = _component_values(components, d_in)
        total = constructor.build(measurements=components).map(d_in)
        return Z3Goal(name, z3.Sum(*rho) <= total,
                      [*assumed(constructor, components), d_in >= 0, *nonnegative,
                       *[z3.And(r >= 0, r <= v) for r, v in zip(rho, values)]],
                      {"d_in": d_in, **{f"rho{i + 1}": r for i, r in enumerate(rho)}}, replay)
    return _on_terms(name, goal, replay)


def _rounding_goal(constructor: Constructor, measure: Any, pattern: tuple[int, ...],
                   replay: Callable[[dict], Replay]) -> Any:
    """Any map rule on one stand-in list: run under the rounding model (component values and
    ``d_in`` floats, each float operation rounded, each rounding-up primitive a fresh float at or
    above its exact value), it is at least the same rule under the exact model."""
    name = (f"components {list(pattern)} ({measure}): the map computed in binary64 is >= its "
            "exact value")

    def symbolic() -> tuple[Any, dict[str, Any], list[Any]]:
        components = stand_in_lists(measure)[PATTERNS.index(pattern)]
        return constructor.build(measurements=components), {}, assumed(constructor, components)

    def goal() -> Z3Goal:
        rounded, exact, names, assumptions = map_values(symbolic, float_d_in)
        return Z3Goal(name, at_least(rounded, exact), assumptions, names, replay)
    return _on_terms(name, goal, replay)


def _at_least(value: Any, exact: Fraction) -> bool:
    """``value >= exact`` for what a map returned on numbers: ``+inf`` is, NaN and non-numbers
    are not."""
    try:
        return Fraction(value) >= exact
    except OverflowError:
        return value > 0
    except (TypeError, ValueError):
        return False


FAMILIES = ((make_discrete_laplace, "make_discrete_laplace"), (make_gaussian, "make_gaussian"))


def _map_below_sum(constructor: Constructor
                   ) -> tuple[list[str], list[Any], Any, Fraction] | int:
    """The first seeded list of real components (:func:`_seeded_list`, :data:`PROBES` per family)
    on which the running map at ``d_in = 1``, on numbers, is below the exact sum of the component
    maps as computed (or raises): ``(code that builds it, component maps, map or its exception,
    exact sum)``; else the number of lists the constructor built."""
    rng, built = random.Random(0), 0
    for make, name in FAMILIES:
        for _ in range(PROBES):
            pool, picks = _seeded_list(make, rng)
            parts = [pool[i] for i in picks]
            try:
                composed = constructor(parts)
            except Exception:  # noqa: BLE001 - refusals and crashes are the witness goals' to judge
                continue
            built += 1
            values = [part.map(1) for part in parts]
            exact = sum((Fraction(v) for v in values), Fraction(0))
            try:
                code = composed.map(1)
            except Exception as error:  # noqa: BLE001 - a map that raises returns no bound
                code = error
            if isinstance(code, Exception) or not _at_least(code, exact):
                made = ", ".join(f"{name}({part.function.scale!r})" for part in pool)
                lines = [f"pool = [{made}]", f"measurements = [pool[i] for i in {picks!r}]"]
                return lines, values, code, exact
    return built


def _replay_below_sum(constructor: Constructor) -> Callable[[dict], Replay]:
    """The running map on seeded real lists against the exact sum of their component maps."""
    def replay(_: dict) -> Replay:
        found = _map_below_sum(constructor)
        if isinstance(found, int):
            return plain_report(False, f"no list of real components found (of {found} built) "
                                       "whose map is below the exact sum of the component maps")
        lines, values, code, exact = found
        if isinstance(code, Exception):
            return plain_report(False, f"the map raised on numbers ({code!r}), so it returns no "
                                       f"value below the sum: {'; '.join(lines)}")
        with mpmath.workdps(40):
            decimal = mpmath.nstr(mpmath.mpf(exact.numerator) / exact.denominator, 30)
        return plain_report(True, f"the map is below the exact sum of its components' maps: "
                                  f"{constructor.name}(measurements), {'; '.join(lines)}",
                            "d_in = 1", f"component maps = {values!r}",
                            f"map(d_in) = {code!r} (computed)", f"exact sum = {exact} = {decimal}",
                            *reproducer(import_line(constructor), IMPORTS[2], IMPORTS[4], *lines,
                                        f"computed = {constructor.name}(measurements).map(1)",
                                        "exact = sum((Fraction(part.map(1)) for part in "
                                        "measurements), Fraction(0))",
                                        claim_assertion("computed >= exact",
                                                        "map(1) = {computed!r} is below the exact "
                                                        "sum of the component maps, {exact}")))
    return replay


def _numbers_goal(constructor: Constructor) -> ComputedGoal:
    """The map run on numbers is at least the exact sum of the component maps as computed, on
    seeded real lists (repeats included): a map that computes otherwise on numbers than on solver
    terms is refuted here."""
    def decide() -> Decision:
        found = _map_below_sum(constructor)
        if isinstance(found, int):
            return Decision(found > 0, {}, f"{found} seeded lists of discrete Laplace or Gaussian "
                            "components built, repeats included", unsupported=not found)
        lines, _, code, exact = found
        return Decision(False, {"measurements": "; ".join(lines), "map(1)": code},
                        f"map(1) = {code!r} on numbers, not at least the exact sum {show(exact)} "
                        "of the component maps")
    return ComputedGoal(f"on numbers: the map at d_in = 1 is >= the exact sum of the component "
                        f"maps, on {2 * PROBES} seeded lists of real components", "exact", decide,
                        _replay_below_sum(constructor))


def composition_obligations(constructor: Constructor = make_basic_composition,
                            prefix: str = "basic_composition") -> tuple[Obligation, ...]:
    pure_replay, zcdp_replay = _replay_pure(constructor), _replay_zcdp(constructor)
    rr = make_randomized_response([0, 1], 0.75)
    folds = _folds(constructor)

    valid = {"measurements": [rr] * 2}
    shown_valid = {"measurements": Code(f"[{RR}] * 2", IMPORTS[1])}
    builds = witness_goal(constructor, valid, shown_valid)
    mismatched_metrics = refusal_goal(
        constructor, {"measurements": [make_randomized_response([0, 1], 0.75),
                                       make_discrete_laplace(1.0)]},
        {"measurements": Code(f"[{RR}, make_discrete_laplace(1.0)]", IMPORTS[1], IMPORTS[4])},
        "components whose input metrics differ", _replay_metric_mismatch(constructor))
    mismatched_measures = refusal_goal(
        constructor, {"measurements": [make_discrete_laplace(1.0), make_gaussian(1.0)]},
        {"measurements": Code("[make_discrete_laplace(1.0), make_gaussian(1.0)]", IMPORTS[4],
                              IMPORTS[2])},
        "components whose output measures differ", _replay_measure_mismatch(constructor))

    not_lists = excluded_goals(constructor, [
        ({"measurements": []}, "no components"),
        ({"measurements": {"first": rr}}, "a dict of components (not a list or tuple)",
         {"measurements": Code(f'{{"first": {RR}}}', IMPORTS[1])})], inputs=[0, 1])

    def structure(measure: Any, replay: Callable[[dict], Replay]) -> list[Any]:
        return [_composition_kernel(constructor), builds, mismatched_metrics, mismatched_measures,
                *not_lists,
                ComputedGoal("outputs are independent draws of the components, in order",
                             "structure", lambda: _is_product(constructor), replay),
                ComputedGoal("input metric and output measure are the components'", "structure",
                             lambda: _same_metric_and_measure(constructor, measure), replay),
                *([ComputedGoal("the map folds the component maps", "structure",
                                lambda: _is_fold(constructor), replay)] if folds else [])]

    def output_domain_goals() -> list[Any]:
        x, r = z3.Reals("x r")
        replay = _replay_output_domain(constructor)
        goals: list[Any] = [
            _composition_kernel(constructor),
            witness_goal(constructor, valid, shown_valid, inputs=[0, 1, 5], draws=3),
            refusal_goal(constructor, {"measurements": [make_randomized_response(list(range(10)), 0.75),
                                                        make_keep_or_redraw(0, 9)]},
                         {"measurements": Code("[make_randomized_response(list(range(10)), 0.75), "
                                               "make_keep_or_redraw(0, 9)]", IMPORTS[1],
                                               IMPORTS[3])},
                         "components whose input domains differ",
                         _replay_domain_mismatch(constructor))]
        for components, pattern in zip(stand_in_lists(), PATTERNS):
            k = len(components)
            built = constructor.build(measurements=components)
            output = built.function(x, r)
            domains = built.output_domain.components
            if len(output) != k or len(domains) != k:
                goals.append(ComputedGoal(f"components {list(pattern)}: k outputs in a k-fold "
                                          "product", "structure",
                                          lambda k=k: Decision(False, {"k": k}, "wrong length"),
                                          replay))
                continue
            guarantees = [z3.Implies(is_true(c.input_domain.contains(x)),
                                     is_true(c.output_domain.contains(c.function(x, r))))
                          for c in components]
            claim = z3.Implies(is_true(built.input_domain.contains(x)),
                               z3.And(*[is_true(d.contains(y)) for d, y in zip(domains, output)]))
            goals.append(Z3Goal(f"components {list(pattern)}: x in the input domain => output i "
                                "in output domain i", claim,
                                [*assumed(constructor, components), *guarantees],
                                {"x": x, "r": r}, replay))
        return goals

    def pure_goals() -> list[Any]:
        goals = structure(MaxDivergence(), pure_replay)
        if not folds:
            return [*goals, *[_product_law_goal(constructor, p, pure_replay) for p in PATTERNS]]
        combine = _combine(constructor, MaxDivergence())
        if combine is None:
            return goals
        goals += _fold_goals(constructor, MaxDivergence(), pure_replay)
        if not all(g.decide().proved for g in goals if isinstance(g, ComputedGoal)):
            return goals
        big_p, big_q, p, q, a, e, f, d_in = z3.Reals("P Q p q A e F d_in")
        names = {"P": big_p, "Q": big_q, "p": p, "q": q, "A": a, "e": e, "F": f}
        total = combine(a, f)
        exp_facts = [EXP(a) > 0, EXP(e) > 0, EXP(f) > 0, EXP(a) * EXP(f) == EXP(a + f),
                     z3.Implies(e <= f, EXP(e) <= EXP(f)),
                     z3.Implies(a + f <= total, EXP(a + f) <= EXP(total))]
        first = stand_ins(1)
        return [*goals,
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
        if not folds:
            return [*goals, *[_zcdp_sum_goal(constructor, p, zcdp_replay) for p in PATTERNS]]
        combine = _combine(constructor, measure)
        if combine is None:
            return goals
        goals += _fold_goals(constructor, measure, zcdp_replay)
        if not all(g.decide().proved for g in goals if isinstance(g, ComputedGoal)):
            return goals
        s, a, o, f = z3.Reals("S A o F")
        return [*goals,
                Z3Goal("step: the lemma makes the first k-1 and component k (S + o)-zCDP; "
                       "S <= A, o <= F = m_k(d_in) give S + o <= combine(A, F)",
                       s + o <= combine(a, f), [s >= 0, o >= 0, s <= a, o <= f],
                       {"S": s, "A": a, "o": o, "F": f}, zcdp_replay)]

    def symbolic_builds() -> list[Any]:
        return [constructor.build(measurements=components) for components in stand_in_lists()]

    def rounding_goals() -> list[Any]:
        replay = _replay_below_sum(constructor)
        return [*[_rounding_goal(constructor, measure, p, replay) for p in PATTERNS
                  for measure in (MaxDivergence(), ZeroConcentratedDivergence())],
                _numbers_goal(constructor)]

    bounded = f"k <= {MAX_COMPONENTS_CHECKED} measurements"
    how = ("for every k by induction" if folds else
           f"on every list of PATTERNS (k <= {MAX_COMPONENTS_CHECKED}, repeats included), the map "
           "run on it whatever its rule")
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
                   lambda: [builds, compatibility_goal(constructor, symbolic_builds, valid,
                                                       shown_valid)],
                   bound=bounded),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "Pure DP: if each M_i is m_i(d_in)-DP on d_in-close inputs, the independent "
                   "product satisfies P(y) = prod_i P_i(y_i) <= prod_i exp(eps_i) P'_i(y_i) <= "
                   f"exp(map(d_in)) P'(y), map(d_in) >= sum_i m_i(d_in), {how}.",
                   r"d(x, x') \le d_{in} \implies \Pr[M(x) = y] \le e^{\mathtt{map}(d_{in})} "
                   r"\Pr[M(x') = y]", pure_goals, uses=(f"{prefix}.map_rounding",),
                   bound=None if folds else bounded),
        Obligation(f"{prefix}.privacy_zcdp", Kind.PRIVACY,
                   "zCDP: if each M_i is m_i(d_in)-zCDP on d_in-close inputs, the independent "
                   "product is (sum_i m_i(d_in))-zCDP by the composition lemma, and "
                   f"map(d_in) >= sum_i m_i(d_in), {how}.",
                   r"d(x, x') \le d_{in} \implies D_\alpha(M(x) \| M(x')) \le "
                   r"\alpha\, \mathtt{map}(d_{in})\ \forall \alpha > 1", zcdp_goals,
                   uses=(f"{prefix}.map_rounding",), cites=(BUN_STEINKE_COMPOSITION,),
                   bound=None if folds else bounded),
        _map_rounding(constructor, prefix, folds, rounding_goals, bounded),
    )


def _map_rounding(constructor: Constructor, prefix: str, folds: bool,
                  rounding_goals: Callable[[], list[Any]], bounded: str) -> Obligation:
    """``<prefix>.map_rounding``: the fold's one-step argument (every ``k``) when the map folds
    with ``combine``, else the rule under the rounding model against the exact model on every
    list of :data:`PATTERNS`; in both cases also the map run on numbers (:func:`_numbers_goal`)."""
    formula = "sum_i m_i(d_in), the component maps as computed"
    numbers = (" On seeded lists of real components (repeats included), the map run on numbers "
               "is at least the exact sum of the component maps.")
    if folds:
        fold = combine_rounding_obligation(
            prefix, lambda: [_combine(constructor, MaxDivergence()),
                             _combine(constructor, ZeroConcentratedDivergence())],
            _replay_below_sum(constructor), formula)
        return replace(fold, statement=fold.statement + numbers,
                       goals=lambda: [*fold.goals(), _numbers_goal(constructor)])
    return Obligation(
        f"{prefix}.map_rounding", Kind.ROUNDING,
        f"On every list of PATTERNS, the map the code computes in floating point is never below "
        f"the same rule computed exactly, {formula}: each float operation is rounded (standard "
        f"model), each rounding-up primitive is at or above its exact value ({ROUNDING_LEMMA})."
        + numbers,
        r"\widehat{\mathrm{map}}(d_{in}) \ge \mathrm{map}(d_{in})", rounding_goals,
        uses=(ROUNDING_LEMMA,), bound=bounded)


def catalogue_entry() -> Entry:
    return Entry("make_basic_composition", make_basic_composition, composition_obligations(),
                 "run several pure-DP or zCDP measurements on the same input",
                 (example(f"make_basic_composition([{RR}, make_randomized_response([0, 1], 0.6)])",
                          *IMPORTS[:2]),
                  example("make_basic_composition([make_gaussian(1.0), make_gaussian(2.0)])",
                          IMPORTS[0], IMPORTS[2])),
                 proof=True)
