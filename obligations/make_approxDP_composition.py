"""Obligations of ``make_approxDP_composition``, by assume-guarantee over arbitrary components.

Stand-in components share a symbolic input interval and absolute distance; each has an
uninterpreted function ``g_i(x, r)``, an output interval of its own and an uninterpreted privacy
map ``d_in -> (e_i(d_in), d_i(d_in))`` (two floats). The map is read from the built object: it
must be a left fold (``make_partition_map.partition_bound``) of the component maps, in order,
with a ``combine`` step; the privacy proof is then an induction on the number ``k`` of
components, for every ``k``, as ``make_basic_composition``'s (whose stand-in lists
:data:`PATTERNS` and kernel class are reused): Z3 proves the base case and the fold's recurrence
on the constructor's own map, and the step adding one component, which the basic composition
theorem for approximate DP (Dwork and Roth 2014, Theorem 3.16, cited) reduces to
``E + e <= combine(A, F)[0]`` and ``D + d <= combine(A, F)[1]`` for the accumulated guarantee
``(E, D) <= A`` and the new component's ``(e, d) <= F``. ``map_rounding`` checks one ``combine``
step in binary64 and that the exact step is increasing, so by induction the float map is at
least the exact sums. Both are also run on numbers: on seeded lists of real components (repeats
included) the map at ``d_in = 1`` must be at least the exact componentwise sums.

Replays run real components with exact laws: two randomized responses converted to (eps, 0)
(product law enumerated from their own ``__call__``), and the discrete Gaussian of scale 1 at
``delta = 1e-6`` (the least delta at the claimed epsilon bounded from below at 60 digits).
"""

from __future__ import annotations

import random
from fractions import Fraction
from types import SimpleNamespace
from typing import Any, Callable

import mpmath
import z3

from mechanisms import float_model
from mechanisms.core import Constructor, Map, Measurement
from mechanisms.domains import ProductDomain
from mechanisms.make_approxDP_composition import make_approxDP_composition
from mechanisms.make_basic_composition import CompositionFunction
from mechanisms.make_discrete_laplace import IntegerNoise, make_discrete_laplace
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_partition_map import partition_bound
from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP
from mechanisms.make_randomized_response import RandomizedResponse, make_randomized_response
from mechanisms.make_zCDP_to_approxDP import make_zCDP_to_approxDP
from mechanisms.measures import FixedSmoothedMaxDivergence
from mechanisms.metrics import AbsoluteDistance
from mechanisms.samplers import sample_discrete_gaussian
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true, on_solver_terms)
from obligations.compatibility import compatibility_goal
from obligations.kernels import trusted_kernel_goal
from obligations.stand_ins import MAX_COMPONENTS_CHECKED, PATTERNS, interval
from obligations.exact_delta import exceeds, needed_delta, gaussian_delta
from obligations.path_enumeration import exact_distribution
from obligations.reports import Code, import_line, member_assertion, plain_report, reproducer, show
from obligations.rounding import ROUNDING_LEMMA, at_least, random_float
from obligations.symbols import natural
from obligations.witnesses import excluded_goals, refusal_goal, witness_goal

DWORK_ROTH = ("Dwork and Roth 2014, Theorem 3.16 (basic composition: (eps_i, delta_i)-DP "
              "mechanisms run independently give (sum eps_i, sum delta_i)-DP)")
PROBES = 80
"""Seeded lists of real components the map is run on, on numbers."""

IMPORTS = ("from mechanisms.make_approxDP_composition import make_approxDP_composition",
           "from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP",
           "from mechanisms.make_zCDP_to_approxDP import make_zCDP_to_approxDP",
           "from mechanisms.make_discrete_laplace import make_discrete_laplace",
           "from mechanisms.make_gaussian import make_gaussian",
           "from mechanisms.make_randomized_response import make_randomized_response")
RR = "make_pureDP_to_approxDP(make_randomized_response([0, 1], 0.75))"
LAPLACE = "make_pureDP_to_approxDP(make_discrete_laplace(1.0))"
GAUSS = "make_zCDP_to_approxDP(make_gaussian(1.0), 1e-6)"


def _pair_map(d_in: Any, e: Any, d: Any) -> tuple[Any, Any]:
    x = float_model.plain(d_in)
    return float_model.float_value(e(x)), float_model.float_value(d(x))


def stand_in(index: int) -> Measurement:
    """Component ``i``: symbolic input interval ``X`` (shared), absolute distance, function
    ``g_i(x, r)`` and map ``(e_i, d_i)`` uninterpreted (floats under the rounding model), output
    interval ``Z_i``."""
    g = z3.Function(f"g{index}", z3.RealSort(), z3.RealSort(), z3.RealSort())
    functions = {n: z3.Function(f"{n}{index}_map", z3.RealSort(), z3.RealSort()) for n in "ed"}
    return Measurement(interval("X"), interval(f"Z{index}"), AbsoluteDistance(),
                       FixedSmoothedMaxDivergence(), g, Map(rule=_pair_map, params=functions))


def stand_in_lists() -> list[list[Measurement]]:
    """The lists of :data:`PATTERNS` (``k = 1..4``, repeats included) over one set of stand-ins."""
    pool = [stand_in(i) for i in range(MAX_COMPONENTS_CHECKED)]
    return [[pool[i] for i in pattern] for pattern in PATTERNS]


def assumed(constructor: Constructor, components: list[Measurement]) -> list[Any]:
    return [is_true(c) for c in constructor.assumptions(measurements=components)]


def product_law(laws: list[dict[Any, Fraction]]) -> dict[tuple, Fraction]:
    """The joint law of independent components: ``P(y_1, ..., y_k) = prod_i P_i(y_i)``."""
    joint: dict[tuple, Fraction] = {(): Fraction(1)}
    for law in laws:
        joint = {(*y, z): p * q for y, p in joint.items() for z, q in law.items()}
    return joint


def composed_delta(m: Measurement, x: Any, x2: Any, epsilon: Any) -> mpmath.mpf | None:
    """A lower bound of the least delta of the running composition ``m`` on ``x`` and ``x2`` at
    ``epsilon``, when its law is known: every component randomized response (exact product law,
    each enumerated from its own ``__call__``), or a single exact discrete Gaussian of scale 1 on
    0 and 1; ``None`` otherwise."""
    functions = getattr(m.function, "functions", None)
    if type(m.function) is not CompositionFunction or not functions:
        return None
    if all(isinstance(f, RandomizedResponse) for f in functions):
        laws = [[exact_distribution(SimpleNamespace(function=f), v) for f in functions]
                for v in (x, x2)]
        return needed_delta(product_law(laws[0]), product_law(laws[1]), epsilon)
    f = functions[0]
    if len(functions) == 1 and type(f) is IntegerNoise and f.sampler is sample_discrete_gaussian \
            and type(f).shift is IntegerNoise.shift and f.scale == 1.0 and {x, x2} == {0, 1}:
        return gaussian_delta(epsilon, Fraction(1, 2))
    return None


CASES = ((f"[{RR}, {RR}]",
          lambda: [make_pureDP_to_approxDP(make_randomized_response([0, 1], 0.75))] * 2),
         (f"[{GAUSS}]", lambda: [make_zCDP_to_approxDP(make_gaussian(1.0), 1e-6)]))
"""Replayed component lists (inputs 0 and 1, d_in = 1)."""


def privacy_violation(constructor: Constructor) -> tuple[str, Any, Any, mpmath.mpf] | None:
    """The first list of :data:`CASES` whose composition, on 0 and 1, needs more than the
    claimed delta at the claimed epsilon: ``(list, eps, delta, least delta)``."""
    for code, make in CASES:
        m = constructor(make())
        epsilon, delta = m.map(1)
        observed = composed_delta(m, 0, 1, epsilon)
        if observed is None:
            continue
        if exceeds(observed, delta):
            return code, epsilon, delta, observed
    return None


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        found = privacy_violation(constructor)
        if found is None:
            return plain_report(False, "no replayed list needs more than the claimed delta")
        code, epsilon, delta, observed = found
        call = f"{constructor.name}({code})"
        return plain_report(True, call, "inputs x = 0, x' = 1 (d_in = 1)",
                            f"claimed  map(1) = {(epsilon, delta)!r}",
                            f"observed least delta at that epsilon >= {mpmath.nstr(observed, 12)}"
                            "  > claimed delta",
                            *reproducer(import_line(constructor), *IMPORTS[1:],
                                        "from obligations.make_approxDP_composition import "
                                        "composed_delta",
                                        "from obligations.make_pureDP_to_approxDP import exceeds",
                                        f"m = {call}", "epsilon, claimed = m.map(1)",
                                        "observed = composed_delta(m, 0, 1, epsilon)",
                                        "assert not exceeds(observed, claimed), f'the least "
                                        "delta at epsilon = {epsilon!r} is {observed} > the "
                                        "claimed delta {claimed!r}'"))
    return replay


def _replay_output_domain(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        m = constructor([make_pureDP_to_approxDP(make_discrete_laplace(1.0))] * 2)
        output = m(0, random.Random(0))
        confirmed = not m.output_domain.member(output)
        call = f"{constructor.name}([{LAPLACE}] * 2)"
        return plain_report(confirmed, f"{call} on 0", f"output {output!r}",
                            f"in the output domain {m.output_domain}: {not confirmed}",
                            *reproducer(import_line(constructor), *IMPORTS[1:], "import random",
                                        f"m = {call}", "output = m(0, random.Random(0))",
                                        member_assertion("m")))
    return replay


def outside_method(goal: ComputedGoal, why: str) -> ComputedGoal:
    """A refusal the proof needs only because it does not cover those arguments, not because
    they are wrong: if the constructor builds them, the goal is *unknown (unsupported)*, unless
    the goal's own replay shows what was built misbehaving (a raise or an output outside its
    output domain), which stays refuted (confirmed by the same replay)."""
    def decide() -> Decision:
        decision = goal.decide()
        if decision.proved or decision.unsupported or goal.replay is None:
            return decision
        if goal.replay(decision.counterexample).confirmed:
            return decision
        return Decision(False, decision.counterexample, f"{decision.detail}: {why}",
                        unsupported=True)
    return ComputedGoal(goal.name, goal.solver, decide, goal.replay)


def _zcdp_refused(constructor: Constructor) -> ComputedGoal:
    """A zCDP component is refused (``rho``-zCDP is no ``(rho, 0)``-DP). If the list
    ``[make_gaussian(1.0)]`` is built, the replay computes the discrete Gaussian's least delta
    (scale 1, inputs 0 and 1, :func:`composed_delta`) at the claimed epsilon against the claimed
    delta."""
    call = f"{constructor.name}([make_gaussian(1.0)])"

    def replay(_: dict) -> Replay:
        m = constructor([make_gaussian(1.0)])
        epsilon, delta = m.map(1)
        observed = composed_delta(m, 0, 1, epsilon)
        if observed is None:
            return plain_report(False, f"{call} builds, but its function is not the checked "
                                "composition of the exact discrete Gaussian: no exact law")
        return plain_report(exceeds(observed, delta), call, "inputs x = 0, x' = 1 (d_in = 1)",
                            f"claimed  map(1) = {(epsilon, delta)!r}",
                            f"observed least delta at that epsilon >= {mpmath.nstr(observed, 12)}",
                            *reproducer(import_line(constructor), IMPORTS[4],
                                        "from obligations.make_approxDP_composition import "
                                        "composed_delta",
                                        "from obligations.make_pureDP_to_approxDP import exceeds",
                                        f"m = {call}", "epsilon, claimed = m.map(1)",
                                        "observed = composed_delta(m, 0, 1, epsilon)",
                                        "assert not exceeds(observed, claimed), f'the least "
                                        "delta at epsilon = {epsilon!r} is {observed} > the "
                                        "claimed delta {claimed!r}'"))
    return refusal_goal(constructor, {"measurements": [make_gaussian(1.0)]},
                        {"measurements": Code("[make_gaussian(1.0)]", IMPORTS[4])},
                        "a zCDP component (rho-zCDP is no (rho, 0)-DP)", replay)


def _seeded_components(rng: random.Random) -> tuple[list[str], list[Measurement]]:
    """One to three fixed-delta components of seeded float scales (a converted discrete Laplace
    or Gaussian, delta seeded in (0, 1/2)), then one to five picks of them (repeats are one
    object): the code that builds the list, and the list."""
    pool, lines = [], []
    for i in range(rng.randint(1, 3)):
        scale = random_float(rng)
        if rng.random() < 0.5:
            pool.append(make_pureDP_to_approxDP(make_discrete_laplace(scale)))
            lines.append(f"make_pureDP_to_approxDP(make_discrete_laplace({scale!r}))")
        else:
            delta = rng.uniform(1e-12, 0.5)
            pool.append(make_zCDP_to_approxDP(make_gaussian(scale), delta))
            lines.append(f"make_zCDP_to_approxDP(make_gaussian({scale!r}), {delta!r})")
    picks = [rng.randrange(len(pool)) for _ in range(rng.randint(1, 5))]
    return [f"pool = [{', '.join(lines)}]", f"measurements = [pool[i] for i in {picks!r}]"], \
        [pool[i] for i in picks]


def _below_sums(value: Any, sums: tuple[Fraction, Fraction]) -> bool:
    try:
        return len(value) != 2 or any(Fraction(v) < s for v, s in zip(value, sums))
    except (TypeError, ValueError, OverflowError):
        return True


def map_below_sums(constructor: Constructor) -> tuple[list[str], Any, tuple] | int:
    """The first seeded list (:func:`_seeded_components`, :data:`PROBES` of them) whose running
    map at ``d_in = 1`` is below the exact componentwise sums of the component maps (or raises):
    ``(code, map or exception, exact sums)``; else the number of lists built."""
    rng, built = random.Random(0), 0
    for _ in range(PROBES):
        lines, parts = _seeded_components(rng)
        try:
            composed = constructor(parts)
        except Exception:  # noqa: BLE001 - refusals are the witness goals' to judge
            continue
        built += 1
        values = [part.map(1) for part in parts]
        sums = tuple(sum((Fraction(v[i]) for v in values), Fraction(0)) for i in (0, 1))
        try:
            code = composed.map(1)
        except Exception as error:  # noqa: BLE001 - a map that raises returns no bound
            return lines, error, sums
        if _below_sums(code, sums):
            return lines, code, sums
    return built


def _replay_below_sums(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        found = map_below_sums(constructor)
        if isinstance(found, int) or isinstance(found[1], Exception):
            return plain_report(False, "no list found whose map is below the exact sums of the "
                                       "component maps")
        lines, code, sums = found
        return plain_report(True, f"the map is below the exact sums of its components' maps: "
                                  f"{constructor.name}(measurements), {'; '.join(lines)}",
                            "d_in = 1", f"map(1) = {code!r} (computed)",
                            f"exact sums = ({show(sums[0])}, {show(sums[1])})",
                            *reproducer(import_line(constructor), *IMPORTS[1:], *lines,
                                        f"computed = {constructor.name}(measurements).map(1)",
                                        "exact = [sum((Fraction(part.map(1)[i]) for part in "
                                        "measurements), Fraction(0)) for i in (0, 1)]",
                                        "assert all(Fraction(c) >= s for c, s in zip(computed, "
                                        "exact)), f'map(1) = {computed!r} is below the exact "
                                        "sums {exact}'"))
    return replay


def _numbers_goal(constructor: Constructor) -> ComputedGoal:
    def decide() -> Decision:
        found = map_below_sums(constructor)
        if isinstance(found, int):
            return Decision(found > 0, {}, f"{found} seeded lists of real fixed-delta components "
                            "built, repeats included", unsupported=not found)
        lines, code, sums = found
        return Decision(False, {"measurements": "; ".join(lines), "map(1)": repr(code)},
                        f"map(1) = {code!r} on numbers, not at least the exact sums "
                        f"({show(sums[0])}, {show(sums[1])})")
    return ComputedGoal(f"on numbers: the map at d_in = 1 is >= the exact componentwise sums of "
                        f"the component maps, on {PROBES} seeded lists of real components",
                        "exact", decide, _replay_below_sums(constructor))


def _fold_premise(constructor: Constructor) -> Decision:
    """The map is ``partition_bound`` over the components' maps in order with a ``combine``, on
    every list of :data:`PATTERNS`."""
    for components in stand_in_lists():
        built = constructor.build(measurements=components)
        rule, params = built.privacy_map.rule, built.privacy_map.params
        if rule is not partition_bound or params.get("combine") is None or tuple(
                params.get("maps", ())) != tuple(c.privacy_map for c in components):
            return Decision(False, {"k": len(components)}, "the map is not partition_bound over "
                            "the component maps in order with a combine step", unsupported=True)
    return Decision(True, detail="map = fold(combine, [m_i(d_in)]) on every list of PATTERNS")


def _is_product(constructor: Constructor) -> Decision:
    for components in stand_in_lists():
        function = constructor.build(measurements=components).function
        if getattr(function, "functions", None) != tuple(c.function for c in components):
            return Decision(False, {"k": len(components)}, "the function does not hold the "
                            "components' functions in order", unsupported=True)
    return Decision(True, detail=f"the components' functions in order, on {len(PATTERNS)} lists "
                    "(repeats included)")


def _same_metric_and_measure(constructor: Constructor) -> Decision:
    components = [stand_in(0), stand_in(1)]
    built = constructor.build(measurements=components)
    if built.input_metric is not components[0].input_metric:
        return Decision(False, {"input_metric": str(built.input_metric)},
                        "the input metric is not the components'", unsupported=True)
    if built.output_measure != FixedSmoothedMaxDivergence():
        return Decision(False, {"output_measure": str(built.output_measure)},
                        "the output measure is not FixedSmoothedMaxDivergence", unsupported=True)
    return Decision(True, detail="input metric the components', measure FixedSmoothedMaxDivergence")


def _combine(constructor: Constructor) -> Callable[[Any, Any], Any] | None:
    return constructor.build(measurements=[stand_in(0)]).privacy_map.params.get("combine")


def _pair(value: Any) -> tuple[Any, Any] | None:
    return tuple(value) if isinstance(value, tuple) and len(value) == 2 else None


def approx_composition_obligations(constructor: Constructor = make_approxDP_composition,
                                   prefix: str = "approxDP_composition") -> tuple[Obligation, ...]:
    replay = _replay_privacy(constructor)
    laplace = make_pureDP_to_approxDP(make_discrete_laplace(1.0))
    gauss = make_zCDP_to_approxDP(make_gaussian(1.0), 1e-6)
    valid = {"measurements": [gauss, laplace]}
    shown_valid = {"measurements": Code(f"[{GAUSS}, {LAPLACE}]", *IMPORTS[1:5])}
    builds = witness_goal(constructor, valid, shown_valid)
    refusals = excluded_goals(constructor, [
        ({"measurements": []}, "no components"),
        ({"measurements": {"first": laplace}}, "a dict of components (not a list or tuple)",
         {"measurements": Code(f'{{"first": {LAPLACE}}}', *IMPORTS[1:5])}),
        ({"measurements": [make_pureDP_to_approxDP(make_randomized_response([0, 1], 0.75)),
                           laplace]}, "components whose input domains and metrics differ",
         {"measurements": Code(f"[{RR}, {LAPLACE}]", *IMPORTS[1:])})], inputs=[0, 1, 5])
    refusals.append(_zcdp_refused(constructor))
    refusals += [outside_method(goal, "a pure-DP component read as (epsilon, 0) is outside the "
                                "proof method (the proof composes fixed-delta components); "
                                "it is not wrong in itself: an eps-DP measurement is "
                                "(eps, 0)-DP")
                 for goal in excluded_goals(constructor, [
                     ({"measurements": [laplace, make_discrete_laplace(1.0)]},
                      "a pure-DP component (convert it first)",
                      {"measurements": Code(f"[{LAPLACE}, make_discrete_laplace(1.0)]",
                                            *IMPORTS[1:5])})], inputs=[0, 1, 5])]

    def structure() -> list[Any]:
        return [trusted_kernel_goal("the composition's function",
                                    lambda: constructor.build(
                                        measurements=[stand_in(0), stand_in(1)]).function,
                                    CompositionFunction),
                builds, *refusals,
                ComputedGoal("outputs are independent draws of the components, in order",
                             "structure", lambda: _is_product(constructor), replay),
                ComputedGoal("input metric the components', measure fixed-delta", "structure",
                             lambda: _same_metric_and_measure(constructor), replay),
                ComputedGoal("the map folds the component maps with a combine step", "structure",
                             lambda: _fold_premise(constructor), replay)]

    def output_domain_goals() -> list[Any]:
        x, r = z3.Reals("x r")
        goals: list[Any] = [witness_goal(constructor, valid, shown_valid, inputs=[0, 1, 5],
                                         draws=3), *refusals]
        return [*goals, *on_solver_terms("the output domain", lambda: symbolic_output(x, r))]

    def symbolic_output(x: Any, r: Any) -> list[Any]:
        goals: list[Any] = []
        for components, pattern in zip(stand_in_lists(), PATTERNS):
            built = constructor.build(measurements=components)
            output = built.function(x, r)
            domain = built.output_domain
            if not isinstance(domain, ProductDomain) or len(domain.components) != len(components) \
                    or len(output) != len(components):
                goals.append(ComputedGoal(
                    f"components {list(pattern)}: k outputs in a k-fold product", "structure",
                    lambda d=domain: Decision(False, {"output_domain": str(d)},
                                              "the output domain is not a k-fold product"),
                    _replay_output_domain(constructor)))
                continue
            guarantees = [z3.Implies(is_true(c.input_domain.contains(x)),
                                     is_true(c.output_domain.contains(c.function(x, r))))
                          for c in components]
            claim = z3.Implies(is_true(built.input_domain.contains(x)),
                               z3.And(*[is_true(d.contains(y))
                                        for d, y in zip(domain.components, output)]))
            goals.append(Z3Goal(f"components {list(pattern)}: x in the input domain => output i "
                                "in output domain i", claim,
                                [*assumed(constructor, components), *guarantees],
                                {"x": x, "r": r}, _replay_output_domain(constructor)))
        return goals

    def privacy_goals() -> list[Any]:
        goals = structure()
        if not all(g.decide().proved for g in goals if isinstance(g, ComputedGoal)):
            return goals
        combine = _combine(constructor)
        d_in, d_in_natural = natural("d_in")
        lists = stand_in_lists()
        first = lists[0]
        one = _pair(constructor.build(measurements=first).map(d_in))
        if one is None:
            return [*goals, ComputedGoal("the map returns a pair", "structure",
                                         lambda: Decision(False, {}, "not a pair",
                                                          unsupported=True), replay)]
        own = first[0].map(d_in)
        goals.append(Z3Goal("base: one component's map is its own (both components)",
                            z3.And(one[0] == own[0], one[1] == own[1]),
                            [*assumed(constructor, first), *d_in_natural], {"d_in": d_in},
                            replay))
        for components, pattern in zip(lists, PATTERNS):
            if len(components) < 2:
                continue
            longer = constructor.build(measurements=components).map(d_in)
            step = combine(constructor.build(measurements=components[:-1]).map(d_in),
                           components[-1].map(d_in))
            goals.append(Z3Goal(f"recurrence (components {list(pattern)}): map_k = "
                                "combine(map_(k-1), m_k), both components",
                                z3.And(longer[0] == step[0], longer[1] == step[1]),
                                [*assumed(constructor, components), *d_in_natural],
                                {"d_in": d_in}, replay))
        big_e, big_d, e, d, a_e, a_d, f_e, f_d = z3.Reals("E D e d A_eps A_delta F_eps F_delta")
        total = combine((a_e, a_d), (f_e, f_d))
        goals += [
            Z3Goal("step: the theorem makes the first k-1 and component k (E + e, D + d)-DP; "
                   "E <= A_eps, D <= A_delta, e <= F_eps, d <= F_delta give E + e <= "
                   "combine(A, F)_eps and D + d <= combine(A, F)_delta",
                   z3.And(big_e + e <= total[0], big_d + d <= total[1]),
                   [big_e >= 0, big_d >= 0, e >= 0, d >= 0, big_e <= a_e, big_d <= a_d,
                    e <= f_e, d <= f_d],
                   {"E": big_e, "D": big_d, "e": e, "d": d, "A_eps": a_e, "A_delta": a_d,
                    "F_eps": f_e, "F_delta": f_d}, replay),
            ComputedGoal("on numbers: real compositions (two randomized responses, one discrete "
                         "Gaussian at delta 1e-6) need no more than the claimed delta at the "
                         "claimed epsilon", "exact", lambda: _privacy_on_numbers(constructor),
                         replay)]
        return goals

    def rounding_goals() -> list[Any]:
        combine = _combine(constructor)
        below = _replay_below_sums(constructor)
        if combine is None:
            return [ComputedGoal("the map folds with a combine step", "structure",
                                 lambda: Decision(False, {}, "no combine step", unsupported=True))]
        with float_model.rounding_model() as model:
            total = (float_model.float_parameter("A_eps"), float_model.float_parameter("A_delta"))
            part = (float_model.float_parameter("F_eps"), float_model.float_parameter("F_delta"))
            rounded = combine(total, part)
            facts = list(model.facts)
        a, f = tuple(map(float_model.plain, total)), tuple(map(float_model.plain, part))
        b = z3.Reals("B_eps B_delta")
        with float_model.exact_model():
            exact, larger = combine(a, f), combine(tuple(b), f)
        names = {"A_eps": a[0], "A_delta": a[1], "F_eps": f[0], "F_delta": f[1]}
        return [Z3Goal("one step combine(A, F) computed in binary64 is >= the exact step, "
                       "componentwise", at_least(tuple(rounded), tuple(exact)), facts, names,
                       below),
                Z3Goal("the exact step combine(A, F) is increasing in A, componentwise",
                       z3.Implies(z3.And(a[0] <= b[0], a[1] <= b[1]),
                                  at_least(tuple(larger), tuple(exact))), [],
                       {**names, "B_eps": b[0], "B_delta": b[1]}),
                _numbers_goal(constructor)]

    def symbolic_builds() -> list[Any]:
        return [constructor.build(measurements=components) for components in stand_in_lists()]

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
                   lambda: [builds, compatibility_goal(constructor, symbolic_builds, valid,
                                                       shown_valid)], bound=bounded),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "If each M_i is (e_i, d_i)-DP on d_in-close inputs with (e_i, d_i) <= "
                   "m_i(d_in), the independent composition is (sum e_i, sum d_i)-DP (the cited "
                   "theorem), and map(d_in) >= (sum_i eps_i, sum_i delta_i) componentwise, for "
                   "every k by induction on the fold.",
                   r"d(x, x') \le d_{in} \implies \Pr[M(x) \in S] \le e^{\varepsilon} "
                   r"\Pr[M(x') \in S] + \delta", privacy_goals,
                   uses=(f"{prefix}.map_rounding",), cites=(DWORK_ROTH,)),
        Obligation(f"{prefix}.map_rounding", Kind.ROUNDING,
                   "For all component values, the map the code folds in floating point is never "
                   "below the exact componentwise sums: each step computed in binary64 is at "
                   f"least the exact step (rounding-up primitives, {ROUNDING_LEMMA}), and the "
                   "exact step is increasing in the value accumulated so far, so by induction "
                   "over the fold the whole map is. On seeded lists of real components (repeats "
                   "included), the map run on numbers is at least the exact sums.",
                   r"\widehat{\mathrm{combine}}(A, F) \ge \mathrm{combine}(A, F),\ "
                   r"A \le B \implies \mathrm{combine}(A, F) \le \mathrm{combine}(B, F)",
                   rounding_goals, uses=(ROUNDING_LEMMA,)),
    )


def _privacy_on_numbers(constructor: Constructor) -> Decision:
    found = privacy_violation(constructor)
    if found is not None:
        code, epsilon, delta, observed = found
        return Decision(False, {"measurements": code},
                        f"least delta {mpmath.nstr(observed, 8)} > claimed {delta!r} at "
                        f"epsilon {epsilon!r}")
    computed = 0
    for _, make in CASES:
        m = constructor(make())
        computed += composed_delta(m, 0, 1, m.map(1)[0]) is not None
    if not computed:  # a bounded check counts only the cases that ran
        return Decision(False, {"lists": len(CASES)}, "no list's law is known (the running "
                        "function is none the replay computes): nothing was checked",
                        unsupported=True)
    return Decision(True, detail=f"{computed} of {len(CASES)} real lists computed, within their "
                    "claimed (eps, delta)")


def catalogue_entry() -> Entry:
    return Entry("make_approxDP_composition", make_approxDP_composition,
                 approx_composition_obligations(),
                 "run several (epsilon, delta)-DP measurements on the same input",
                 (example(f"make_approxDP_composition([{GAUSS}, {LAPLACE}])", *IMPORTS[:5]),),
                 proof=True)
