"""Obligations of ``make_chain_tt``, by assume-guarantee over arbitrary components.

Stand-in components have symbolic domains (atoms with Z3 real bounds), uninterpreted Z3
functions in place of their functions and of their maps. Each component's own guarantee (output
domain, stability) is an assumption, instantiated where the chain uses it: ``inner``'s at the
input ``x`` and distance ``d_in``, ``outer``'s at ``inner.function(x)`` and ``inner.map(d_in)``.
The constructor's own ``build`` runs on these stand-ins, so the proof holds for every pair of
components that meet their own obligations; the pairs include one component chained after itself
(``outer is inner``), so code that tells components apart by identity is covered too. The chain's
function may be any code (``ChainedFunction``, a closure, a lambda, a method): a goal runs it on
symbolic inputs, several calls on one built object, and proves each result is ``outer``'s function
applied to ``inner``'s (:func:`composition_goal`); code that cannot run on terms is outside the
method (unknown), and code that computes something else is refuted where a replay on real
components shows a violation, unknown where none shows. The
stand-ins always meet, so goals on real components check the preconditions themselves: the
constructor builds a matching pair and refuses a pair whose domains, or whose metrics, do not meet
(what the proof needs). Refutations are replayed on small real components, linear and not.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any, Callable, Sequence

import z3

from mechanisms.core import Constructor, Map, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import ConstructorError
from mechanisms.make_chain_tt import make_chain_tt
from mechanisms.metrics import AbsoluteDistance, DiscreteMetric, SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal
from obligations.reports import (Code, constructor_report, import_line, member_assertion,
                                 plain_report, reproducer)
from obligations.witnesses import (capped_rule, make_count_capped, make_count_scaled, refusal_goal,
                                   scale_constant, witness_goal)
from obligations.stand_ins import interval, shifted, symbolic_map


def stand_in_transformation(name: str, input_domain: Any, output_domain: Any,
                            input_metric: Any = AbsoluteDistance(),
                            output_metric: Any = AbsoluteDistance()) -> Transformation:
    """A transformation whose function and map are uninterpreted Z3 functions."""
    function = z3.Function(f"{name}_f", z3.RealSort(), z3.RealSort())
    return Transformation(input_domain, output_domain, input_metric, output_metric, function,
                          symbolic_map(name))


def scalar_pair() -> tuple[Transformation, Transformation]:
    """``inner: X -> Y`` and ``outer: Y -> Z`` on real intervals, absolute distance."""
    middle = interval("Y")
    inner = stand_in_transformation("inner", interval("X"), middle)
    outer = stand_in_transformation("outer", middle, interval("Z"))
    return outer, inner


def aliased_pair() -> tuple[Transformation, Transformation]:
    """One transformation ``t: Y -> Y`` as both ``outer`` and ``inner`` (the same object)."""
    middle = interval("Y")
    t = stand_in_transformation("self", middle, middle)
    return t, t


def counting_pair() -> tuple[Transformation, Transformation]:
    """``inner``: integer vectors to a number (symmetric to absolute distance); ``outer`` on it."""
    middle = interval("Y")
    inner = stand_in_transformation("inner", VectorDomain(AtomDomain(int)), middle,
                                    SymmetricDistance(), AbsoluteDistance())
    outer = stand_in_transformation("outer", middle, interval("Z"))
    return outer, inner


def assumed(constructor: Constructor, outer: Any, inner: Any) -> list[Any]:
    """The constructor's preconditions on the stand-ins, as Z3 booleans."""
    return [is_true(c) for c in constructor.assumptions(outer=outer, inner=inner)]


def output_domain_goal(constructor: Constructor, outer: Any, inner: Any, x: Any,
                       outer_value: Any, chain_output: Callable[[Any], Any],
                       variables: dict[str, Any], replay: Callable[[dict], Replay]) -> Z3Goal:
    """``x`` in the chain's input domain gives ``chain_output(function)`` (the chain's function
    applied to ``x``) in its output domain, assuming ``inner`` maps ``x`` into its output domain
    and ``outer`` maps ``inner.function(x)`` into its own (``outer_value`` is that output)."""
    built = constructor.build(outer=outer, inner=inner)
    fx = inner.function(x)
    guarantees = [z3.Implies(is_true(inner.input_domain.contains(x)),
                             is_true(inner.output_domain.contains(fx))),
                  z3.Implies(is_true(outer.input_domain.contains(fx)),
                             is_true(outer.output_domain.contains(outer_value)))]
    claim = z3.Implies(is_true(built.input_domain.contains(x)),
                       is_true(built.output_domain.contains(chain_output(built.function))))
    return Z3Goal("x in the input domain => function(x) in the output domain, given each "
                  "component's output-domain guarantee", claim,
                  [*assumed(constructor, outer, inner), *guarantees], variables, replay)


def bound_goal(constructor: Constructor, outer: Any, inner: Any, build_map: Callable[[Any], Any],
               what: str, replay: Callable[[dict], Replay]) -> Z3Goal:
    """``d(x, x') <= d_in`` gives an outer distance (or divergence) ``o <= map(d_in)``, from
    ``inner``'s guarantee at ``d_in`` (``m <= inner.map(d_in)``) and ``outer``'s at
    ``d' = inner.map(d_in)`` (``o <= outer.map(d')``)."""
    d_in, dx, m, o = z3.Reals("d_in d_x d_mid o")
    middle = inner.map(d_in)
    guarantees = [dx >= 0, dx <= d_in, z3.Implies(dx <= d_in, m <= middle),
                  z3.Implies(m <= middle, o <= outer.map(middle))]
    return Z3Goal(f"d_in-close inputs: {what} o <= map(d_in), with outer's guarantee at "
                  "d' = inner.map(d_in)", o <= build_map(d_in),
                  [*assumed(constructor, outer, inner), *guarantees],
                  {"d_in": d_in, "d_x": dx, "d_mid": m, "o": o}, replay)


def metrics_premise(constructor: Constructor,
                    pair: Callable[[], tuple[Any, Any]], output_side: str) -> ComputedGoal:
    """The chain measures inputs with ``inner``'s metric and outputs with ``outer``'s
    ``output_side`` (metric or measure): the guarantees being chained are stated in those."""
    def decide() -> Decision:
        outer, inner = pair()
        built = constructor.build(outer=outer, inner=inner)
        if built.input_metric is not inner.input_metric:
            return Decision(False, {"input_metric": str(built.input_metric)},
                            "the input metric is not inner's", unsupported=True)
        if getattr(built, output_side) is not getattr(outer, output_side):
            return Decision(False, {output_side: str(getattr(built, output_side))},
                            f"the {output_side} is not outer's", unsupported=True)
        return Decision(True, detail=f"input metric inner's, {output_side} outer's")
    return ComputedGoal(f"input metric is inner's and {output_side} is outer's", "structure",
                        decide)


COMPOSITION_SECONDS = 10
"""The solver's time for :func:`composition_check` (equalities of uninterpreted terms: it answers
in milliseconds)."""


def _composition_claims(constructor: Constructor, pairs: Callable[[], list[tuple[Any, Any]]],
                        calls: Sequence[tuple[Any, ...]],
                        expected: Callable[..., Any]) -> list[Any]:
    """For each stand-in pair, one chain built on it; its function called on each of ``calls`` in
    turn (the same object throughout, so state kept between calls shows); each result compared,
    by the solver's own equality, with ``expected(outer, inner, *call)``."""
    claims = []
    for outer, inner in pairs():
        function = constructor.build(outer=outer, inner=inner).function
        for args in calls:
            result = function(*args)
            claims.append(expected(outer, inner, *args) == result)
    return claims


def composition_check(constructor: Constructor, pairs: Callable[[], list[tuple[Any, Any]]],
                      calls: Sequence[tuple[Any, ...]], expected: Callable[..., Any],
                      variables: dict[str, Any],
                      disagreement: Callable[[], str | None]) -> Decision:
    """Whether the running function computes ``expected`` (``outer``'s function after
    ``inner``'s) on the stand-ins: proved for every interpretation of their uninterpreted
    functions and every value of the symbolic arguments; refuted with the solver's model (the
    arguments, and the first call that differs); unsupported when the function does not run on
    solver terms (it raises, say it branches on its input) or returns what is not one, or when
    the solver gives up. Proved on terms, it is still unsupported when ``disagreement()`` finds
    a real chain whose output on numbers is not the composition's (code that tells numbers from
    terms otherwise than by the scan of :mod:`obligations.one_body`, e.g. by type): two bodies."""
    try:
        claims = _composition_claims(constructor, pairs, calls, expected)
    except Exception as error:  # noqa: BLE001 - code outside the method may not run on terms
        return Decision(False, {"raised": f"{type(error).__name__}: {error}"},
                        "the chain's function does not run on solver terms "
                        f"({type(error).__name__}: {error}), so what it computes is not known",
                        unsupported=True)
    if not all(isinstance(claim, z3.BoolRef) for claim in claims):
        return Decision(False, {"returned": "not a solver term"}, "the chain's function returns "
                        "values the solver cannot compare on stand-ins", unsupported=True)
    solver = z3.Solver()
    solver.set("timeout", COMPOSITION_SECONDS * 1000)
    solver.add(z3.Not(z3.And(claims)))
    outcome = solver.check()
    if outcome == z3.unsat:
        differs = disagreement()
        if differs:
            return Decision(False, {"differs": differs}, "two bodies: the composition on solver "
                            f"terms, other code on numbers ({differs})", unsupported=True)
        return Decision(True, detail=f"{len(calls)} calls on each of the stand-in chains return "
                        "outer's function applied to inner's, for all stand-in functions, and "
                        "real chains agree with the composition on the probe inputs")
    if outcome == z3.unknown:
        return Decision(False, {"solver": solver.reason_unknown()}, "time-out: the solver gave up "
                        f"({solver.reason_unknown()})", unsupported=True)
    model = solver.model()
    call = next(i for i, claim in enumerate(claims)
                if z3.is_false(model.eval(claim, model_completion=True)))
    return Decision(False, {**{name: str(model.eval(term, model_completion=True))
                               for name, term in variables.items()}, "call": call},
                    f"call {call} (on one built chain) returns what is not outer's function "
                    "applied to inner's")


def composition_goal(constructor: Constructor, pairs: Callable[[], list[tuple[Any, Any]]],
                     calls: Sequence[tuple[Any, ...]], expected: Callable[..., Any],
                     variables: dict[str, Any], disagreement: Callable[[], str | None],
                     replay: Callable[[dict], Replay]) -> ComputedGoal:
    """Goal: :func:`composition_check`. The rest of the proof reasons about ``outer``'s function
    after ``inner``'s, so whatever code computes that is covered. A difference is a refutation
    when ``replay`` (real components) shows a violation of the chain's claims, and otherwise
    *unknown (unsupported)*: code that computes something else, harmlessly or not, is outside the
    proof method, and a shape difference is not a confirmed violation."""
    def decide() -> Decision:
        decision = composition_check(constructor, pairs, calls, expected, variables,
                                     disagreement)
        if decision.proved or decision.unsupported or _confirms(replay):
            return decision
        return Decision(False, decision.counterexample, decision.detail + "; no replay on real "
                        "components shows a violation, so this code is outside the proof method",
                        unsupported=True)
    return ComputedGoal("the running function computes outer's function applied to inner's "
                        "(any code; several calls on one chain)", "z3", decide, replay)


def _confirms(replay: Callable[[dict], Replay]) -> bool:
    """``replay`` shows a violation (a replay that raises shows none)."""
    try:
        return replay({}).confirmed
    except Exception:  # noqa: BLE001 - the checker reports the raise when it replays
        return False


@dataclass(frozen=True)
class Times:
    """``x -> factor * x`` on integers."""

    factor: int

    def __call__(self, x: int) -> int:
        return self.factor * x


def make_times(factor: int) -> Transformation:
    """Integers times ``factor``, absolute distance: map ``d_in * |factor|``."""
    return Transformation(AtomDomain(int), AtomDomain(int), AbsoluteDistance(), AbsoluteDistance(),
                          Times(factor), Map(constant=scale_constant, params={"scale": abs(factor)}))


def make_shift(offset: int) -> Transformation:
    """Vectors of ``[offset - 100, offset - 1]`` to ``[offset, offset + 99]``: add 100."""
    return Transformation(VectorDomain(AtomDomain(int, bounds=(offset - 100, offset - 1))),
                          VectorDomain(AtomDomain(int, bounds=(offset, offset + 99))),
                          SymmetricDistance(), SymmetricDistance(),
                          RowTransform(shifted, {"offset": 100}), Map(constant=scale_constant,
                                                                     params={"scale": 1}))


@dataclass(frozen=True)
class Clip:
    """``x -> max(-cap, min(x, cap))`` on integers."""

    cap: int

    def __call__(self, x: int) -> int:
        return max(-self.cap, min(x, self.cap))


def make_clip(cap: int) -> Transformation:
    """Integers clipped to ``[-cap, cap]``, absolute distance: 1-stable and at most ``2 cap``
    apart, the map ``min(d_in, 2 cap)`` (not linear)."""
    return Transformation(AtomDomain(int), AtomDomain(int), AbsoluteDistance(), AbsoluteDistance(),
                          Clip(cap), Map(rule=capped_rule, params={"cap": 2 * cap}))


def make_spread(factor: int) -> Transformation:
    """Integers times ``factor``, measured on the output by the discrete metric: integers at
    absolute distance ``d < 1`` are equal, so the map ``min(d_in, 1)`` is sound."""
    return Transformation(AtomDomain(int), AtomDomain(int), AbsoluteDistance(), DiscreteMetric(),
                          Times(factor), Map(rule=capped_rule, params={"cap": 1}))


WITNESSES = {"outer": make_times(3), "inner": make_count_scaled(2)}
WITNESS_IMPORTS = ("from obligations.make_chain_tt import make_times, make_shift, make_clip, "
                   "make_spread",
                   "from obligations.witnesses import make_count_scaled, make_count_capped")
SHOWN = {"outer": Code("make_times(3)", *WITNESS_IMPORTS),
         "inner": Code("make_count_scaled(2)", *WITNESS_IMPORTS)}
COUNTS = [("make_count_scaled(2)", make_count_scaled(2)), ("make_count_capped(2)", make_count_capped(2)),
          ("make_count_capped(1)", make_count_capped(1))]
"""Inner components of the stability replay: vectors to integers, linear and not."""
SCALARS = [("make_times(3)", make_times(3)), ("make_times(-2)", make_times(-2)),
           ("make_clip(1)", make_clip(1)), ("make_clip(2)", make_clip(2))]
"""Outer components: integers to integers, linear and not; each is also chained after itself."""


def _replay_output_domain(constructor: Constructor) -> Callable[[dict], Replay]:
    """Shift [0, 99] to [100, 199], then to [200, 299]: a member of the chain's input domain whose
    image is not in its output domain."""
    def replay(_: dict) -> Replay:
        built = constructor(outer=make_shift(200), inner=make_shift(100))
        call = "make_shift(200), make_shift(100)"
        for data in ([0], [100], [200]):
            if built.input_domain.member(data):
                output = built.function(data)
                if not built.output_domain.member(output):
                    return plain_report(True, f"{constructor.name}({call}) on {data!r}",
                                        f"output {output!r} is not in {built.output_domain}",
                                        *reproducer(import_line(constructor), *WITNESS_IMPORTS,
                                                    f"t = {constructor.name}({call})",
                                                    f"output = t({data!r})", member_assertion("t")))
        return plain_report(False, f"{constructor.name}({call}): outputs in the output domain")
    return replay


def _stability_cases() -> list[tuple[str, str, Transformation, Transformation, Any, Any]]:
    """``(outer, inner, ...)`` pairs with ``d_in``-close inputs ``v, w`` at every ``d_in`` in
    ``1..4``: counts of ``[0] * a`` and ``[0] * (a + d)`` (``a`` in ``0..2``) through each scalar
    component; integers ``x`` and ``x + d`` (``x`` in ``-2..1``) through a scalar component after
    another, or after itself."""
    cases = []
    for (o_name, outer), (i_name, inner) in product(SCALARS, COUNTS):
        cases += [(o_name, i_name, outer, inner, [0] * a, [0] * (a + d))
                  for d in range(1, 5) for a in range(3)]
    for (o_name, outer), (i_name, inner) in product(SCALARS, repeat=2):
        for same in (False, True):
            first, name = (outer, o_name) if same else (inner, i_name)
            cases += [(o_name, name, outer, first, x, x + d) for d in range(1, 5)
                      for x in range(-2, 2)]
    return cases


def _shown_pair(outer: str, inner: str, same: bool) -> dict[str, Code]:
    """``outer`` and ``inner`` as a report writes them: one object built once and passed twice
    when ``same`` (the reproducer assigns it to ``component``)."""
    if same:
        component = Code("component", *WITNESS_IMPORTS, f"component = {outer}")
        return {"outer": component, "inner": component}
    return {"outer": Code(outer, *WITNESS_IMPORTS), "inner": Code(inner, *WITNESS_IMPORTS)}


def _replay_stability(constructor: Constructor) -> Callable[[dict], Replay]:
    """The real chain on each case of :func:`_stability_cases`: the output distance against
    ``map(d_in)``, ``d_in`` the inputs' own distance (a pair the running function cannot take is
    skipped: no evidence either way)."""
    def replay(_: dict) -> Replay:
        for o_name, i_name, outer, inner, v, w in _stability_cases():
            t = constructor(outer=outer, inner=inner)
            d_in = t.input_metric.distance(v, w)
            try:
                observed = t.output_metric.distance(t(v), t(w))
            except (TypeError, ValueError, ArithmeticError):  # this chain cannot take the pair
                continue
            if observed > t.map(d_in):
                shown = _shown_pair(o_name, i_name, outer is inner)
                return constructor_report(constructor, shown, v, w, d_in, t.map(d_in), observed,
                                          True, WITNESS_IMPORTS)
        return plain_report(False, f"{constructor.name}: no violation on "
                            f"{len(_stability_cases())} pairs of real components and inputs")
    return replay


def _replay_metric_mismatch(constructor: Constructor) -> Callable[[dict], Replay]:
    """``make_times(3)`` after ``make_spread(10)``, built though the metrics differ: inputs 0 and
    1 are 1 apart, spread to 0 and 10 (one apart in the discrete metric), tripled to 0 and 30."""
    def replay(_: dict) -> Replay:
        t = constructor(outer=make_times(3), inner=make_spread(10))
        v, w = 0, 1
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, MISMATCHED_METRICS, v, w, d_in, t.map(d_in),
                                  observed, observed > t.map(d_in), WITNESS_IMPORTS)
    return replay


def _replay_domain_mismatch(constructor: Constructor) -> Callable[[dict], Replay]:
    """``make_shift(300)`` (for ``[200, 299]``) after ``make_shift(100)`` (into ``[100, 199]``),
    built though the domains differ: ``[0]`` comes out as ``[200]``, outside ``[300, 399]``."""
    def replay(_: dict) -> Replay:
        t = constructor(outer=make_shift(300), inner=make_shift(100))
        data = [0]
        output = t(data)
        confirmed = not t.output_domain.member(output)
        call = f"{constructor.name}(make_shift(300), make_shift(100))"
        return plain_report(confirmed, f"{call} on {data!r}", f"output {output!r}",
                            f"in the output domain {t.output_domain}: {not confirmed}",
                            *reproducer(import_line(constructor), *WITNESS_IMPORTS, f"t = {call}",
                                        f"output = t({data!r})", member_assertion("t")))
    return replay


MISMATCHED_METRICS = {"outer": Code("make_times(3)", *WITNESS_IMPORTS),
                      "inner": Code("make_spread(10)", *WITNESS_IMPORTS)}
MISMATCHED_DOMAINS = {"outer": Code("make_shift(300)", *WITNESS_IMPORTS),
                      "inner": Code("make_shift(100)", *WITNESS_IMPORTS)}


def _disagreement(constructor: Constructor) -> str | None:
    """The first pair of :func:`_stability_cases` on which a real chain (built afresh) returns
    other than ``outer.function(inner.function(v))``, or raises where that does not; pairs the
    constructor refuses are skipped."""
    for o_name, i_name, outer, inner, v, w in _stability_cases():
        try:
            t = constructor(outer=outer, inner=inner)
        except ConstructorError:
            continue
        for data in (v, w):
            expected = outer.function(inner.function(data))
            try:
                output = t.function(data)
            except Exception as error:  # noqa: BLE001 - a raise is a difference too
                output = f"<raised {type(error).__name__}>"
            if output != expected:
                return (f"{constructor.name}({o_name}, {i_name}) on {data!r} returns "
                        f"{output!r}, the composition {expected!r}")
    return None


def _composition(constructor: Constructor) -> dict[str, Any]:
    """:func:`composition_check`'s arguments for a transformation chain: the scalar and the
    aliased stand-in pairs, inputs ``x``, ``x2``, ``x`` in turn, each result against
    ``outer.function(inner.function(x))``; real chains on the stability replay's pairs."""
    x, x2 = z3.Reals("x x2")
    return {"constructor": constructor, "pairs": lambda: [scalar_pair(), aliased_pair()],
            "calls": [(x,), (x2,), (x,)],
            "expected": lambda outer, inner, arg: outer.function(inner.function(arg)),
            "variables": {"x": x, "x2": x2}, "disagreement": lambda: _disagreement(constructor)}


def when_composes(arguments: dict[str, Any], goals: Callable[[], list[Any]]) -> list[Any]:
    """``goals()`` (goals that run the chain's function on stand-ins) once
    :func:`composition_check` on ``arguments`` proves the function computes the composition;
    none otherwise: the composition goal beside them is then not proved, nor is the obligation,
    and a refutation of theirs would be about other code than the one they assume."""
    return goals() if composition_check(**arguments).proved else []


def chain_composes(constructor: Constructor, replay: Callable[[dict], Replay]) -> ComputedGoal:
    """:func:`composition_goal`; a difference is refuted when ``replay`` (the obligation's own,
    on real chains) shows a violation."""
    return composition_goal(**_composition(constructor), replay=replay)


def chain_tt_obligations(constructor: Constructor = make_chain_tt,
                         prefix: str = "chain_tt") -> tuple[Obligation, ...]:
    builds = witness_goal(constructor, WITNESSES, SHOWN)
    clip = make_clip(1)
    aliased = witness_goal(constructor, {"outer": clip, "inner": clip},
                           _shown_pair("make_clip(1)", "make_clip(1)", True),
                           inputs=[-5, 0, 5])

    def output_domain_goals() -> list[Any]:
        goals: list[Any] = [
            chain_composes(constructor, _replay_output_domain(constructor)),
            witness_goal(constructor, WITNESSES, SHOWN, inputs=[[], [1, 2, 3]]), aliased,
            refusal_goal(constructor, {"outer": make_shift(300), "inner": make_shift(100)},
                         MISMATCHED_DOMAINS, "outer's input domain is not inner's output domain",
                         _replay_domain_mismatch(constructor))]
        x = z3.Real("x")
        return goals + when_composes(_composition(constructor), lambda: [
            output_domain_goal(constructor, outer, inner, x, outer.function(inner.function(x)),
                               lambda f: f(x), {"x": x}, _replay_output_domain(constructor))
            for outer, inner in (scalar_pair(), aliased_pair())])

    def stability_goals() -> list[Any]:
        replay = _replay_stability(constructor)
        goals: list[Any] = [
            chain_composes(constructor, replay), builds, aliased,
            refusal_goal(constructor, {"outer": make_times(3), "inner": make_spread(10)},
                         MISMATCHED_METRICS, "outer's input metric is not inner's output metric",
                         _replay_metric_mismatch(constructor)),
            metrics_premise(constructor, scalar_pair, "output_metric")]
        for outer, inner in (scalar_pair(), aliased_pair()):
            built = constructor.build(outer=outer, inner=inner)
            same = " (outer is inner)" if outer is inner else ""
            goals.append(bound_goal(constructor, outer, inner, built.map,
                                    f"output distance{same}", replay))
        return goals

    def symbolic_builds() -> list[Any]:
        return [constructor.build(outer=o, inner=i)
                for o, i in (scalar_pair(), counting_pair(), aliased_pair())]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "If inner maps its input domain into its output domain, which is outer's input "
                   "domain, and outer maps that into its output domain, the chain maps inner's "
                   "input domain into outer's output domain.",
                   r"x \in \mathcal{X} \implies \mathtt{outer}(\mathtt{inner}(x)) \in \mathcal{Z}",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "inner's input metric fits inner's input domain and outer's output metric fits "
                   "outer's output domain: the chain's pairs are the components' own.",
                   r"d_{\mathcal{X}} \sim \mathcal{X},\ d_{\mathcal{Z}} \sim \mathcal{Z}",
                   lambda: [builds, compatibility_goal(constructor, symbolic_builds, WITNESSES,
                                                       SHOWN)]),
        Obligation(f"{prefix}.stability", Kind.STABILITY,
                   "If d_X(x, x') <= d_in then d_Y(inner(x), inner(x')) <= inner.map(d_in) = d', "
                   "so d_Z(outer(inner(x)), outer(inner(x'))) <= outer.map(d') = map(d_in), for "
                   "any components that meet their own stability guarantees.",
                   r"d_{\mathcal{X}}(x, x') \le d_{in} \implies d_{\mathcal{Z}}(f(x), f(x')) \le "
                   r"\mathtt{outer.map}(\mathtt{inner.map}(d_{in}))",
                   stability_goals),
    )


def catalogue_entry() -> Entry:
    imports = ("from mechanisms.make_chain_tt import make_chain_tt", *WITNESS_IMPORTS)
    return Entry("make_chain_tt", make_chain_tt, chain_tt_obligations(),
                 "chain two transformations: outer after inner",
                 (example("make_chain_tt(make_times(3), make_count_scaled(2))", *imports),
                  example("make_chain_tt(make_shift(200), make_shift(100))", *imports)),
                 proof=True)
