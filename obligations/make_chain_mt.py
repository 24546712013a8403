"""Obligations of ``make_chain_mt``, by assume-guarantee over arbitrary components.

As for ``make_chain_tt`` (stand-ins with uninterpreted functions and maps, each component's own
guarantee assumed where the chain uses it), with a measurement outside: its function takes the
random source ``r`` as a second argument, and its guarantee bounds a divergence, not a distance.
As there, real components check the preconditions (a matching pair builds, pairs whose domains or
metrics do not meet are refused), and the chain's function may be any code: a goal proves that,
called on symbolic inputs and draws (every input with every draw, on one built chain), it returns
``outer``'s function at ``inner``'s output with the same draw, the inner transformation getting
none (:func:`~obligations.make_chain_tt.composition_goal`). A measurement cannot be chained after
itself (``inner`` is a transformation), so no aliasing arises. Refutations are replayed on real
components with exact output laws: randomized response after a count capped at 1 (the running
chain's law, every path of its draws enumerated), and discrete Laplace noise after counts and
scalings (linear or not), at ``d_in`` from 1 to 4 (the law of the noise at the inner output, which
is the chain's once its function is proved to compute that).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from typing import Any, Callable, Sequence

import math
import random

import mpmath
import z3

from mechanisms.arith import ln_up
from mechanisms.core import Constructor, Map, Measurement, Transformation
from mechanisms.domains import AtomDomain
from mechanisms.errors import ConstructorError
from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_randomized_response import make_randomized_response, rr_privacy_map
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteMetric
from mechanisms.samplers import system_rng
from obligations.base import ComputedGoal, Decision, Entry, Kind, Obligation, Replay, example
from obligations.compatibility import compatibility_goal
from obligations.make_chain_tt import (bound_goal, composition_check, composition_goal,
                                       counting_pair, make_spread, metrics_premise,
                                       output_domain_goal, scalar_pair, when_composes)
from obligations.reports import (Code, bound_assertion, import_line, literal, log_lines,
                                 member_assertion, plain_report, reproducer, returns,
                                 seeded_members, show)
from obligations.witnesses import (make_count_capped, make_count_scaled, refusal_goal,
                                   scale_constant, witness_goal)


def as_measurement(outer: Transformation) -> Measurement:
    """The stand-in ``outer`` as a measurement: function ``(y, r) -> g(y, r)``, uninterpreted, with
    ``r`` the random source; its map (now a privacy map) stays uninterpreted."""
    g = z3.Function("outer_g", z3.RealSort(), z3.RealSort(), z3.RealSort())
    return Measurement(outer.input_domain, outer.output_domain, outer.input_metric,
                       MaxDivergence(), g, outer.stability_map)


def stand_ins(pair: Callable[[], tuple[Transformation, Transformation]]) -> tuple[Measurement, Transformation]:
    outer, inner = pair()
    return as_measurement(outer), inner


@dataclass(frozen=True)
class Constant:
    """``(y, rng) -> value``: ignores its input."""

    value: Any

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        return self.value


def make_constant(value: str) -> Measurement:
    """Integers to the constant string ``value``: 0-DP, privacy map ``d_in * 0``."""
    return Measurement(AtomDomain(int), AtomDomain(str), DiscreteMetric(), MaxDivergence(),
                       Constant(value), Map(constant=scale_constant, params={"scale": 0}))


def make_present() -> Transformation:
    """``v -> min(len(v), 1)``, under the discrete metric on the output (the values are 0 and 1,
    so it equals the absolute distance): map ``min(d_in, 1)``."""
    return replace(make_count_capped(1), output_metric=DiscreteMetric())


@dataclass(frozen=True)
class KeepOrRedraw:
    """``(x, rng) -> x`` with probability 1/2, else a uniform integer of ``[lower, upper]``."""

    lower: int
    upper: int

    def __call__(self, arg: int, rng: Any = None) -> int:
        rng = system_rng(rng)
        return arg if rng.randrange(2) else rng.randrange(self.lower, self.upper + 1)


def make_keep_or_redraw(lower: int, upper: int) -> Measurement:
    """On ``[lower, upper]`` (``n`` integers), discrete metric: ``Pr[y = x] = (n + 1) / 2n``, any
    other ``y`` has ``1 / 2n``, so the map is ``ln(n + 1)`` (rounded up) for ``d_in >= 1``."""
    bounded = AtomDomain(int, bounds=(lower, upper))
    return Measurement(bounded, bounded, DiscreteMetric(), MaxDivergence(),
                       KeepOrRedraw(lower, upper),
                       Map(rule=rr_privacy_map, params={"epsilon": ln_up(upper - lower + 2)}))


RR = "make_randomized_response([0, 1], 0.75)"
WITNESS_IMPORTS = ("from obligations.make_chain_mt import make_constant, make_present, "
                   "make_keep_or_redraw",
                   "from obligations.make_chain_tt import make_spread, make_times",
                   "from obligations.witnesses import make_count_scaled, make_count_capped",
                   "from mechanisms.make_discrete_laplace import make_discrete_laplace",
                   "from mechanisms.make_randomized_response import make_randomized_response")
MISMATCHED_DOMAINS = {"outer": Code("make_keep_or_redraw(0, 9)", *WITNESS_IMPORTS),
                      "inner": Code("make_spread(10)", *WITNESS_IMPORTS)}
MISMATCHED_METRICS = {"outer": Code("make_discrete_laplace(1.0)", *WITNESS_IMPORTS),
                      "inner": Code("make_spread(10)", *WITNESS_IMPORTS)}
NOISY = [("make_discrete_laplace(1.0)", make_discrete_laplace(1.0)),
         ("make_discrete_laplace(2.0)", make_discrete_laplace(2.0))]
"""Outer measurements whose exact loss between inputs ``a`` and ``b`` is ``|a - b| / scale``."""
INNER = [("make_count_scaled(2)", make_count_scaled(2)), ("make_count_capped(2)", make_count_capped(2)),
         ("make_count_capped(1)", make_count_capped(1))]
"""Inner transformations (vectors to integers), linear and not."""


OUTPUT_PROBES = ((RR, lambda: make_randomized_response([0, 1], 0.75)),
                 ("make_constant('y')", lambda: make_constant("y")))
"""Outer measurements of the output-domain replay, in this order: outputs 0 and 1, then strings."""


def _outside_output_domain(constructor: Constructor) -> Replay:
    """Each outer of :data:`OUTPUT_PROBES` after ``make_present()``, built in turn, run on ``[]``
    and ``[1, 2]`` with seeds 0..3: the first output outside that chain's output domain, or the
    first raise (no output at all); state carried from one chain to the next shows."""
    for name, outer in OUTPUT_PROBES:
        m = constructor(outer=outer(), inner=make_present())
        for data, seed in product(([], [1, 2]), range(4)):
            call = f"{constructor.name}({name}, make_present()) on {data!r}, seed {seed}"
            run = f"m.function({data!r}, random.Random({seed}))"
            snippet = reproducer(import_line(constructor), *WITNESS_IMPORTS, "import random",
                                 f"m = {constructor.name}({name}, make_present())",
                                 *returns(f"output = {run}", run), member_assertion("m"))
            try:
                output = m.function(data, random.Random(seed))
            except Exception as error:  # noqa: BLE001 - no output at all breaks the claim too
                return plain_report(True, call, f"raised {type(error).__name__}: {error}",
                                    *snippet)
            if not m.output_domain.member(output):
                return plain_report(True, call, f"output {output!r}",
                                    f"not in the output domain {m.output_domain}", *snippet)
    return plain_report(False, f"{constructor.name}: every probe output is in its output domain")


def _replay_output_domain(constructor: Constructor) -> Callable[[dict], Replay]:
    return lambda _: _outside_output_domain(constructor)


class ScriptedSource:
    """A random source whose ``randrange`` follows ``script`` (then 0) and records each range:
    one path through the draws of a function that uses ``randrange`` only."""

    def __init__(self, script: list[int]) -> None:
        self.script = script
        self.ranges: list[int] = []

    def randrange(self, start: int, stop: int | None = None) -> int:
        low, high = (0, start) if stop is None else (start, stop)
        if high <= low:
            raise ValueError(f"empty range for randrange({low}, {high})")
        position = len(self.ranges)
        self.ranges.append(high - low)
        return low + (self.script[position] if position < len(self.script) else 0)


MAX_PATHS = 4096
"""Paths :func:`exact_law` enumerates at most."""


def exact_law(run: Callable[[ScriptedSource], Any]) -> dict[Any, Fraction]:
    """The exact law of ``run(source)``, ``source`` a uniform random source of which ``run``
    uses ``randrange`` only: every path of draws, depth first, weighs the product of ``1 / range``
    of its draws. ``run`` should build what it runs afresh, so each path is a first call.
    ``ValueError`` past :data:`MAX_PATHS` paths; another method of the source raises
    ``AttributeError``."""
    law: dict[Any, Fraction] = {}
    script: list[int] = []
    for _ in range(MAX_PATHS):
        source = ScriptedSource(script)
        output = run(source)
        ranges = source.ranges
        choices = script + [0] * (len(ranges) - len(script))
        law[output] = law.get(output, Fraction(0)) + Fraction(1, math.prod(ranges))
        last = max((i for i in range(len(ranges)) if choices[i] + 1 < ranges[i]), default=None)
        if last is None:
            return law
        script = choices[:last] + [choices[last] + 1]
    raise ValueError(f"more than {MAX_PATHS} paths of draws")


def _rr_loss(constructor: Constructor) -> Replay | None:
    """``v = []`` and ``w = [0]`` (``d_in = 1``) through randomized response after
    ``make_present()``: the exact largest log-ratio of the running chain's output laws on them
    (:func:`exact_law`, a chain built afresh for each path) against ``map(1)``."""
    def law(data: list[int]) -> dict[Any, Fraction]:
        def run(source: ScriptedSource) -> Any:
            chain = constructor(outer=make_randomized_response([0, 1], 0.75), inner=make_present())
            return chain.function(data, source)
        return exact_law(run)
    rr = make_randomized_response([0, 1], 0.75)
    m = constructor(outer=rr, inner=make_present())
    v, w = [], [0]
    claimed = m.map(1)
    ratio = rr.output_measure.max_ratio(law(v), law(w))
    with mpmath.workdps(50):
        observed = mpmath.inf if ratio == math.inf else \
            mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
        if observed <= mpmath.mpf(claimed):
            return None
    chain = f"{constructor.name}({RR}, make_present())"
    return _loss_report(constructor, f"{RR}, make_present()", v, w, 1, claimed,
                        mpmath.nstr(observed, 17), "max ln(Pr[M(v)=y] / Pr[M(w)=y])", [
                            "from obligations.make_chain_mt import exact_law",
                            f"m = {chain}", "claimed = m.map(1)",
                            f"law = lambda data: exact_law(lambda source: {chain}"
                            ".function(data, source))",
                            *log_lines(f"m.output_measure.max_ratio(law({v!r}), law({w!r}))")])


def _laplace_loss(constructor: Constructor, outer: tuple[str, Measurement],
                  inner: tuple[str, Transformation], v: Any, w: Any,
                  earlier: Sequence[str] = ()) -> Replay | None:
    """Discrete Laplace noise after ``inner``: ``inner``'s function takes ``v, w`` to ``a, b``;
    the exact largest log-ratio of the noise's law there, ``|a - b| / scale`` (the running
    sampler's scale), against ``map(d_in)``. It is the chain's loss only when the chain's function
    is proved to run the noise at ``inner``'s output (:func:`_composes`): callers check that.
    ``earlier``: reproducer lines that run what the replay ran before (a map may keep state)."""
    m = constructor(outer=outer[1], inner=inner[1])
    d_in = m.input_metric.distance(v, w)
    observed = Fraction(abs(inner[1].function(v) - inner[1].function(w))) / \
        Fraction(outer[1].function.scale)
    if observed <= Fraction(m.map(d_in)):
        return None
    return _loss_report(constructor, f"{outer[0]}, {inner[0]}", v, w, d_in, m.map(d_in),
                        show(observed), "max ln(Pr[M(v)=y] / Pr[M(w)=y]) = |a - b| / scale", [
                            *earlier, f"inner, outer = {inner[0]}, {outer[0]}",
                            f"m = {constructor.name}(outer, inner)",
                            f"claimed = m.map({literal(d_in)})",
                            f"observed = Fraction(abs(inner.function({v!r}) - inner.function("
                            f"{w!r}))) / Fraction(outer.function.scale)"])


def _loss_report(constructor: Constructor, call: str, v: Any, w: Any, d_in: Any, claimed: Any,
                 observed: str, what: str, computation: Sequence[str]) -> Replay:
    """The chain ``call`` loses more than its map on ``v, w``; ``computation`` are the reproducer
    lines that build the chain, bind ``claimed`` to its map and ``observed`` to the exact loss, as
    the replay computed it."""
    return plain_report(True, f"{constructor.name}({call})",
                        f"inputs v = {v!r}, w = {w!r} (d_in = {d_in})",
                        f"claimed  map(d_in) = {claimed!r}", f"observed {what} = {observed}  > claimed",
                        *reproducer(import_line(constructor), *WITNESS_IMPORTS,
                                    *computation,
                                    bound_assertion(f"the loss {what}", f"map({literal(d_in)})")))


def _loss_above_map(constructor: Constructor, laplace: bool) -> Replay:
    """Randomized response after ``make_present``, then (if ``laplace``) discrete Laplace noise
    after each inner transformation at ``v = [0] * a``, ``w = [0] * (a + d)``, ``d`` in ``1..4``,
    ``a`` in ``0..2``, each pair on a chain built afresh: the first exact loss above the map (a
    pair the chain's metric or components cannot take is skipped: no evidence either way)."""
    cases = [(o, i, [0] * a, [0] * (a + d))
             for o, i in product(NOISY, INNER) for d in range(1, 5) for a in range(3)] \
        if laplace else []
    earlier = [f"{constructor.name}({RR}, make_present()).map(1)  # the replay's first probe"]
    probes = [lambda: _rr_loss(constructor)] + [
        lambda case=case: _laplace_loss(constructor, *case, earlier=earlier) for case in cases]
    found = None
    for probe in probes:
        try:
            found = found or probe()
        except (TypeError, ValueError, ArithmeticError, AttributeError):  # cannot measure this
            continue
    return found or plain_report(False, f"{constructor.name}: no loss above the map on "
                                 f"{len(cases) + 1} pairs of real components and inputs")


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """:func:`_loss_above_map` on the real constructor, with the discrete Laplace probes when
    the chain's function is proved to compute the composition."""
    return lambda _: _loss_above_map(constructor, _composes(constructor))


def probe_goal(constructor: Constructor) -> ComputedGoal:
    """Goal: on the real components and inputs of :func:`_loss_above_map`, the exact loss of the
    running chain is at most the map the built chain reports. The symbolic goals prove the map
    for every pair of components the solver sees; this one runs the maps that real chains
    compute (state kept between builds, such as a cache, included): a loss above one is a
    confirmed refutation. The discrete Laplace probes read the noise's law at ``inner``'s output,
    the chain's law only when its function is proved to compute that: otherwise unsupported."""
    def decide() -> Decision:
        if not _composes(constructor):
            return Decision(False, {"function": "not proved to compute outer after inner"},
                            "the probes take the noise's law at inner's output for the chain's, "
                            "which holds only of a function proved to compute that",
                            unsupported=True)
        found = _loss_above_map(constructor, laplace=True)
        if found.confirmed:
            return Decision(False, {"probe": found.report.splitlines()[1]},
                            "a real chain's exact loss exceeds its map")
        return Decision(True, detail=found.report)
    return ComputedGoal("real chains (randomized response, discrete Laplace after counts) have "
                        "exact loss <= their reported map on the probes", "structure", decide,
                        _replay_privacy(constructor))


def _replay_metric_mismatch(constructor: Constructor) -> Callable[[dict], Replay]:
    """Discrete Laplace noise after ``make_spread(10)``, built though the metrics differ: inputs
    0 and 1 reach the noise as 0 and 10 (when the chain's function is proved to compute that)."""
    def replay(_: dict) -> Replay:
        found = _composes(constructor) and _laplace_loss(
            constructor, (MISMATCHED_METRICS["outer"], make_discrete_laplace(1.0)),
            (MISMATCHED_METRICS["inner"], make_spread(10)), 0, 1)
        return found or plain_report(False, f"{constructor.name}: no loss above the map")
    return replay


def _replay_domain_mismatch(constructor: Constructor) -> Callable[[dict], Replay]:
    """``make_keep_or_redraw(0, 9)`` after ``make_spread(10)``, built though the domains differ:
    the input 1 reaches it as 10, which it keeps half of the time, outside ``[0, 9]``."""
    def replay(_: dict) -> Replay:
        m = constructor(outer=make_keep_or_redraw(0, 9), inner=make_spread(10))
        outputs = [m(1, random.Random(seed)) for seed in range(20)]
        outside = [y for y in outputs if not m.output_domain.member(y)]
        call = f"{constructor.name}(make_keep_or_redraw(0, 9), make_spread(10))"
        return plain_report(bool(outside), f"{call} on 1, seeds 0..19",
                            f"outputs {outputs!r}", f"outside {m.output_domain}: {outside!r}",
                            *reproducer(import_line(constructor), *WITNESS_IMPORTS, f"m = {call}",
                                        *seeded_members(1, 20)))
    return replay


def _agreement_cases() -> list[tuple[str, Measurement, str, Transformation, list[list[int]]]]:
    """Real components and inputs on which a chain's function is compared with the composition:
    randomized response after ``make_present()``, discrete Laplace noise after each count."""
    return [(RR, make_randomized_response([0, 1], 0.75), "make_present()", make_present(),
             [[], [0], [1, 2]])] + [(o_name, outer, i_name, inner, [[0] * a for a in range(4)])
                                    for (o_name, outer), (i_name, inner) in product(NOISY, INNER)]


def _disagreement(constructor: Constructor) -> str | None:
    """The first case of :func:`_agreement_cases` (seeds 0..3) on which a real chain returns
    other than ``outer.function(inner.function(v), rng)`` with an equally seeded source, or raises
    where that does not; pairs the constructor refuses are skipped."""
    for o_name, outer, i_name, inner, inputs in _agreement_cases():
        try:
            m = constructor(outer=outer, inner=inner)
        except ConstructorError:
            continue
        for data, seed in product(inputs, range(4)):
            expected = outer.function(inner.function(data), random.Random(seed))
            try:
                output = m.function(data, random.Random(seed))
            except Exception as error:  # noqa: BLE001 - a raise is a difference too
                output = f"<raised {type(error).__name__}>"
            if output != expected:
                return (f"{constructor.name}({o_name}, {i_name}) on {data!r}, seed {seed}, "
                        f"returns {output!r}, the composition {expected!r}")
    return None


def _composition(constructor: Constructor) -> dict[str, Any]:
    """:func:`~obligations.make_chain_tt.composition_check`'s arguments for a measurement chain:
    the scalar stand-ins, inputs ``x, x2`` with draws ``r, r2`` in every combination, each result
    against ``outer.function(inner.function(x), r)``."""
    x, x2, r, r2 = z3.Reals("x x2 r r2")
    return {"constructor": constructor, "pairs": lambda: [stand_ins(scalar_pair)],
            "calls": [(x, r), (x2, r), (x, r2), (x2, r2)],
            "expected": lambda outer, inner, arg, draw: outer.function(inner.function(arg), draw),
            "variables": {"x": x, "x2": x2, "r": r, "r2": r2},
            "disagreement": lambda: _disagreement(constructor)}


def _composes(constructor: Constructor) -> bool:
    """The chain's function is proved to compute ``outer``'s function at ``inner``'s output."""
    return composition_check(**_composition(constructor)).proved


def chain_composes(constructor: Constructor, replay: Callable[[dict], Replay]) -> ComputedGoal:
    return composition_goal(**_composition(constructor), replay=replay)


def chain_mt_obligations(constructor: Constructor = make_chain_mt,
                         prefix: str = "chain_mt") -> tuple[Obligation, ...]:
    witnesses = {"outer": make_randomized_response([0, 1], 0.75), "inner": make_present()}
    shown = {"outer": Code(RR, *WITNESS_IMPORTS), "inner": Code("make_present()", *WITNESS_IMPORTS)}
    builds = witness_goal(constructor, witnesses, shown)

    def output_domain_goals() -> list[Any]:
        outer, inner = stand_ins(scalar_pair)
        x, r = z3.Reals("x r")
        return [chain_composes(constructor, _replay_output_domain(constructor)),
                witness_goal(constructor, witnesses, shown, inputs=[[], [1, 2]], draws=4),
                refusal_goal(constructor, {"outer": make_keep_or_redraw(0, 9),
                                           "inner": make_spread(10)}, MISMATCHED_DOMAINS,
                             "outer's input domain is not inner's output domain",
                             _replay_domain_mismatch(constructor)),
                *when_composes(_composition(constructor), lambda: [
                    output_domain_goal(constructor, outer, inner, x,
                                       outer.function(inner.function(x), r), lambda f: f(x, r),
                                       {"x": x, "r": r}, _replay_output_domain(constructor))])]

    def privacy_goals() -> list[Any]:
        outer, inner = stand_ins(scalar_pair)
        built = constructor.build(outer=outer, inner=inner)
        replay = _replay_privacy(constructor)
        return [chain_composes(constructor, lambda _: _loss_above_map(constructor, laplace=False)),
                builds,
                refusal_goal(constructor, {"outer": make_discrete_laplace(1.0),
                                           "inner": make_spread(10)}, MISMATCHED_METRICS,
                             "outer's input metric is not inner's output metric",
                             _replay_metric_mismatch(constructor)),
                metrics_premise(constructor, lambda: stand_ins(scalar_pair), "output_measure"),
                probe_goal(constructor),
                bound_goal(constructor, outer, inner, built.map, "divergence", replay)]

    def symbolic_builds() -> list[Any]:
        return [constructor.build(outer=o, inner=i)
                for o, i in (stand_ins(scalar_pair), stand_ins(counting_pair))]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "If inner maps its input domain into outer's input domain and outer's outputs "
                   "lie in its output domain for every random draw, so do the chain's.",
                   r"x \in \mathcal{X} \implies \mathtt{outer}(\mathtt{inner}(x), r) \in \mathcal{Z}",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "The chain's input metric is inner's, which fits inner's input domain.",
                   r"d_{\mathcal{X}} \sim \mathcal{X}",
                   lambda: [builds, compatibility_goal(constructor, symbolic_builds, witnesses,
                                                       shown)]),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "If d_X(x, x') <= d_in then inner(x), inner(x') are d' = inner.map(d_in)-close, "
                   "so the divergence of outer's output distributions on them is at most "
                   "outer.map(d') = map(d_in), for any components meeting their own guarantees.",
                   r"d_{\mathcal{X}}(x, x') \le d_{in} \implies D(M(x) \,\|\, M(x')) \le "
                   r"\mathtt{outer.map}(\mathtt{inner.map}(d_{in}))",
                   privacy_goals),
    )


def catalogue_entry() -> Entry:
    """Examples on atoms (the empirical privacy runner draws hashable inputs)."""
    imports = ("from mechanisms.make_chain_mt import make_chain_mt",
               "from mechanisms.make_discrete_laplace import make_discrete_laplace",
               "from obligations.make_chain_tt import make_times")
    return Entry("make_chain_mt", make_chain_mt, chain_mt_obligations(),
                 "chain a transformation into a measurement",
                 (example("make_chain_mt(make_discrete_laplace(2.0), make_times(3))", *imports),),
                 proof=True)
