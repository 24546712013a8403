"""Obligations of ``make_randomized_response_bool``, for every float ``prob`` in ``[1/2, 1)``.

The symbolic build takes ``prob`` as a Z3 real ``p`` (a float read as the rational it denotes);
the privacy map runs on that term. The law the function samples is computed from the code that
runs, never from the shape it is expected to have: the built measurement's own ``__call__`` is run
on each input of ``AtomDomain(bool)``, ``True`` and ``False``, with a copy of its function whose
``prob`` field carries its term, and every exact coin followed on both sides (the path enumeration
of :mod:`obligations.make_randomized_response`: a Python branch on a term takes the side the
preconditions decide, anything else leaves the method). Each path has the probability of its coin
sides, a term in ``p`` valid for every admitted ``p``, and a concrete output; ``Pr[M(x) = y]`` is
the sum over the paths that return ``y``. The stated law (:func:`stated_probability`) is written
here, apart from the mechanism's constants; ``distribution`` proves the running law equal to it
for every admitted ``p`` and ``privacy`` bounds every ratio of the running law by
``exp(map(d_in))``. The replays and the tests compute exact pmfs by the same enumeration at a
concrete ``prob`` (:func:`exact_distribution`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Iterator

import z3

from mechanisms import float_model, ops
from mechanisms.core import Constructor, Measurement
from mechanisms.domains import AtomDomain
from mechanisms.make_randomized_response_bool import make_randomized_response_bool
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteMetric
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.ieee import binade_grid
from obligations.path_enumeration import (Context, OutsidePathMethod, Path, enumerate_paths,
                                          exact_loss, exact_loss_replay, loss_violation,
                                          running_loss_goal)
from obligations.exponential import EXP, exp_facts, ln_up_domain_goal
from obligations.noise import exact_noise_goal
from obligations.reports import (claim_assertion, constructor_call, import_line, literal,
                                 plain_report, reproducer, returns)
from obligations.rounding import (Candidates, exact_floats, map_rounding_obligation, natural_d_in,
                                  replay_rounding)
from obligations.symbols import natural
from obligations.witnesses import excluded_goals, witness_goal
from obligations.kernel.reviewed import reviewed
from obligations.running_laws import (INPUTS, built_at_prob, replayed_probs, running_measurement,
                                      drawn_law, exact_distribution, outcomes, output_violation,
                                      replay_constructor, seeded_output_replay)


BITS = AtomDomain(bool)
"""The domain the proof is about, for inputs and outputs (the specification's, not the code's)."""

SYMBOLIC_DRAW_LIMIT = 16
"""On solver terms, a uniform draw below a concrete bound up to this is followed on each value (a
fair coin, ``randrange(2)``, say); a larger one leaves the path method."""


def stated_probability(truthful: bool, prob: Any) -> Any:
    """``Pr[M(x) = y]``: ``p`` if ``y = x`` (the truth), ``1 - p`` if ``y = not x`` (the flip)."""
    return prob if truthful else 1 - prob


def stated_law(prob: Any, arg: bool) -> dict[bool, Fraction]:
    """The law stated for ``make_randomized_response_bool(prob)`` on ``arg``."""
    p = Fraction(prob)
    return {y: stated_probability(y == arg, p) for y in INPUTS}


def stated_distribution(m: Measurement, arg: bool) -> dict[bool, Fraction]:
    """The stated law at the probability the running function holds (for the empirical test)."""
    return stated_law(m.function.prob, arg)


# ------------------------------------------------------------------- the law of the running call


@dataclass(frozen=True)
class BitLaw:
    """The running call enumerated on ``True`` and ``False`` for every admitted ``p``: its paths
    per input, and ``law[x][y] = Pr[M(x) = y]`` (Z3 terms), None when a path raises or returns
    something other than a bool."""

    paths: dict[bool, list[Path]]
    law: dict[bool, dict[bool, Any]] | None
    float_coins: int = 0
    """How many float coins (``rng.random()`` compared with the probability) the paths met."""


def code_law(m: Measurement, assumptions: list[Any]) -> BitLaw:
    """:class:`BitLaw` of the symbolic build ``m``; :class:`OutsidePathMethod` when its domains
    are not ``AtomDomain(bool)`` (the two inputs would not be every input) or its code leaves the
    path method."""
    for side, domain in (("input", m.input_domain), ("output", m.output_domain)):
        if domain != BITS:
            raise OutsidePathMethod(f"the {side} domain is {domain}, not {BITS}")
    context = Context(assumptions)
    running = running_measurement(m, context)
    paths: dict[bool, list[Path]] = {}
    for x in INPUTS:
        found = enumerate_paths(lambda rng, x=x: running(x, rng), context,
                                limit=SYMBOLIC_DRAW_LIMIT, most=64)
        if any(path.draws for path in found):
            raise OutsidePathMethod("a uniform draw below a solver term")
        paths[x] = found
    clean = all(path.raised is None and type(path.output) is bool
                for found in paths.values() for path in found)
    law = {x: {y: sum((path.weight for path in paths[x] if path.output is y), z3.RealVal(0))
               for y in INPUTS} for x in INPUTS} if clean else None
    return BitLaw(paths, law, context.unit_draws)


# ------------------------------------------------------------------------------------- replays


def _law_violation(m: Measurement, prob: float) -> str:
    """How the running sampler's exact pmf departs from the law stated for ``prob``, or ``""``."""
    for arg in INPUTS:
        drawn, raised = drawn_law(m, arg)
        if drawn is None:
            return raised
        stated = stated_law(prob, arg)
        if outcomes(drawn) != outcomes(stated):
            return f"on input {arg!r} the sampler draws {drawn}, the stated law is {stated}"
    return ""


def _run_lines(constructor: Constructor, call: str) -> list[str]:
    """Reproducer lines: build ``call``, then for each input bind ``drawn`` to the exact law of
    the running call (a raise is re-raised as an ``AssertionError``)."""
    return [import_line(constructor),
            "from obligations.make_randomized_response_bool import (exact_distribution, "
            "outcomes, stated_law)",
            f"m = {call}", "for arg in (True, False):",
            *[f"    {line}" for line in returns("drawn = exact_distribution(m, arg)",
                                             "the running call")]]


def _replay(constructor: Constructor, violation: Callable[[Measurement, float], str],
            check: str, message: str) -> Callable[[dict], Replay]:
    """At the model's ``prob`` and small ones: confirmed when ``violation`` finds one on the real
    code; the reproducer asserts ``check`` (about ``drawn``) for each input."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        for prob in replayed_probs(counterexample):
            m, _ = built_at_prob(constructor, prob)
            found = violation(m, prob) if m is not None else ""
            if found:
                call = constructor_call(constructor, prob=prob)
                return plain_report(True, call, found, *reproducer(
                    *_run_lines(constructor, call),
                    "    " + claim_assertion(check.format(prob=literal(prob)), message)))
        return plain_report(False, "the real sampler returns the stated bools on every probe")
    return replay


def _replay_output(constructor: Constructor) -> Callable[[dict], Replay]:
    """Seeded runs of the real call, then its exact law (an output of small probability), at the
    model's ``prob`` and small ones: confirmed on a raise or an output outside the domain."""
    exact = _replay(constructor, lambda m, prob: output_violation(m),
                    "all(m.output_domain.member(y) for y in drawn)",
                    "on input {arg!r} the function returns {drawn}, outside the output domain "
                    "{m.output_domain}")

    return seeded_output_replay(constructor, exact)


def _replay_law(constructor: Constructor) -> Callable[[dict], Replay]:
    return _replay(constructor, _law_violation,
                   "outcomes(drawn) == outcomes(stated_law({prob}, arg))",
                   "on input {arg!r} the sampler draws {drawn}, not the stated law")


PROBES = (*INPUTS, 0, 1, 2, -1)
"""Inputs the exact loss is computed on, those the built input domain admits: the two bools,
and the ints a domain wider than ``AtomDomain(bool)`` would let in (``0`` and ``2`` are at
discrete distance 1)."""


def _admits(m: Measurement, x: Any) -> bool:
    try:
        return bool(m.input_domain.member(x))
    except Exception:  # noqa: BLE001 - a domain that cannot judge x does not admit it
        return False


def _privacy_loss(constructor: Constructor, m: Measurement, prob: float,
                  d_in: int) -> tuple[bool, list[str]]:
    """The exact loss of the running sampler at ``d_in`` (pairs of inputs at discrete distance
    0 or 1, the specification's max-divergence) against ``m.map(d_in)`` (:func:`exact_loss`)."""
    inputs = [x for x in PROBES if _admits(m, x)]
    return exact_loss(constructor, {"prob": prob}, m, d_in, inputs, exact_distribution,
                      lambda m: MaxDivergence(), "MaxDivergence()", "",
                      ["from mechanisms.measures import MaxDivergence",
                       "from obligations.make_randomized_response_bool import exact_distribution"])


def _privacy_violation(constructor: Constructor, m: Measurement, prob: float) -> str:
    """The exact loss at ``d_in`` 1, 0 or 2 above the map, or ``""``."""
    return loss_violation(lambda d_in: _privacy_loss(constructor, m, prob, d_in), (1, 0, 2))


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """The real sampler's exact loss against ``exp(map(d_in))`` at the model's ``(p, d_in)`` and
    small ones."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        return exact_loss_replay(
            int(Fraction(counterexample.get("d_in", 1))), replayed_probs(counterexample),
            lambda prob: built_at_prob(constructor, prob)[0],
            lambda m, prob, d_in: _privacy_loss(constructor, m, prob, d_in),
            lambda error: f"no exact law: {type(error).__name__}: {error} "
                          "(output_domain and runtime_errors report a raise)")
    return replay


def _rounding_candidates() -> Candidates:
    """A float ``prob`` in ``[1/2, 1)``: the model's, then seeded."""
    def arguments(counterexample: dict[str, Any], rng: random.Random
                  ) -> Iterator[tuple[dict, Any]]:
        if "p" in counterexample:
            yield {"prob": float(Fraction(counterexample["p"]))}, 1
        while True:
            yield {"prob": rng.uniform(0.5, 1.0)}, 1
    return Candidates(arguments, exact_floats)


# ----------------------------------------------------------------------------------- obligations

def _symbolic(constructor: Constructor) -> tuple[Measurement, dict[str, Any], list[Any]]:
    p = z3.Real("p")
    return constructor.build(prob=p), {"p": p}, constructor.assumptions(prob=p)


def _float_symbolic(constructor: Constructor) -> tuple[Measurement, dict[str, Any], list[Any]]:
    """The build on a float ``prob`` (:mod:`mechanisms.float_model`)."""
    p = float_model.float_parameter("p")
    return constructor.build(prob=p), {"p": float_model.plain(p)}, constructor.assumptions(prob=p)


def excluded_probabilities(constructor: Constructor) -> list[ComputedGoal]:
    """Probabilities the solver goals cannot stand for are refused: NaN and infinities (not
    reals), 1 (``p / (1 - p)`` divides by zero, which Z3's total division leaves unconstrained)
    and a ``prob`` that is not a float. Below 1/2 nothing is required: every goal is quantified
    over the constructor's own preconditions, so a wider range is proved or refuted on its
    merits."""
    return excluded_goals(constructor, [
        ({"prob": math.nan}, "a NaN probability"),
        ({"prob": math.inf}, "an infinite probability"),
        ({"prob": 1.0}, "prob = 1 (the bit released as it is)"),
        ({"prob": Fraction(3, 4)}, "a probability that is not a float"),
        ({"prob": True}, "a probability that is not a float")], inputs=list(INPUTS), draws=20)


def float_premise(constructor: Constructor) -> list[ComputedGoal]:
    """The premise of a float coin's law: the admitted ``prob`` is a float, so in ``[1/2, 1)`` a
    multiple of ``2^-53`` (:func:`~obligations.ieee.binade_grid`). Rationals off that grid, a
    ``Decimal`` and a bool must be refused (sampled, not proved for every type)."""
    return excluded_goals(constructor, [
        ({"prob": Fraction(2, 3)}, "a rational probability off the 2^-53 grid (the float coin's "
                                   "law is computed for floats)"),
        ({"prob": Decimal("0.7")}, "a Decimal probability"),
        ({"prob": True}, "a bool probability")], inputs=list(INPUTS), draws=20)


@reviewed
def randomized_response_bool_obligations(constructor: Constructor = make_randomized_response_bool,
                                         prefix: str = "randomized_response_bool"
                                         ) -> tuple[Obligation, ...]:
    found: dict[str, tuple[BitLaw | None, str]] = {}

    def route() -> tuple[BitLaw | None, str]:
        """The running call's :class:`BitLaw`, or why its code is outside the path method."""
        if "route" not in found:
            m, params, assumptions = _symbolic(constructor)
            try:
                found["route"] = code_law(m, [*assumptions, binade_grid(params["p"], -1)]), ""
            except OutsidePathMethod as outside:
                found["route"] = None, str(outside) or type(outside).__name__
        return found["route"]

    def enumerated(what: str, replay: Callable[[dict], Replay], bools: bool = True) -> list[Any]:
        """Per input, no path of the running call raises and (``bools``) every path returns a
        bool, decided for every admitted ``p``; or one goal saying why the code is outside the
        method."""
        bits, outside = route()
        if bits is None:
            return [ComputedGoal(f"{what}: the running call runs on a symbolic prob, every path "
                                 "enumerated", "structure",
                                 lambda: Decision(False, {"outside": outside}, "the running "
                                                  "function's code leaves the path method: "
                                                  f"{outside}", unsupported=True))]
        goals: list[Any] = float_premise(constructor) if bits.float_coins else []
        for x in INPUTS:
            def decide(x: bool = x) -> Decision:
                for path in bits.paths[x]:
                    if path.raised is not None:
                        return Decision(False, {"x": x, "path probability": str(path.weight)},
                                        f"on input {x!r} the path of probability {path.weight} "
                                        f"raises {type(path.raised).__name__}: {path.raised}")
                    if bools and type(path.output) is not bool:
                        return Decision(False, {"x": x, "path probability": str(path.weight),
                                                "output": repr(path.output)},
                                        f"on input {x!r} the path of probability {path.weight} "
                                        f"returns {path.output!r}, not a bool")
                return Decision(True, detail=f"{len(bits.paths[x])} paths, each returns "
                                f"{'a bool' if bools else 'a value'}")
            claim = "returns a bool and none raises" if bools else "returns (none raises)"
            goals.append(ComputedGoal(
                f"{what}: on input {x!r} every path of the running call (its coins on both "
                f"sides, for every admitted p) {claim}", "structure", decide, replay))
        return goals

    def running_prob() -> tuple[Any, dict[str, Any], list[Any]] | None:
        """The running function's own coin probability on the symbolic build, or None."""
        m, params, assumptions = _symbolic(constructor)
        prob = getattr(m.function, "prob", None)
        return None if prob is None else (ops.exact(prob), params, assumptions)

    def coin_goal(what: str) -> list[Any]:
        running = running_prob()
        if running is None:
            return []
        prob, params, assumptions = running
        return [Z3Goal(f"{what}: the running coin probability function.prob is in [0, 1], so the "
                       "exact Bernoulli never raises", z3.And(0 <= prob, prob <= 1), assumptions,
                       {**params, "running prob": prob}, _replay_output(constructor))]

    def output_domain_goals() -> list[Any]:
        return [witness_goal(constructor, {"prob": 0.75}, inputs=list(INPUTS), draws=20),
                witness_goal(constructor, {"prob": 0.5}, inputs=list(INPUTS), draws=20),
                *coin_goal("output"), *enumerated("output", _replay_output(constructor)),
                *excluded_probabilities(constructor)]

    def runtime_error_goals() -> list[Any]:
        return [*coin_goal("no error"),
                *enumerated("no error", _replay_output(constructor), bools=False)]

    def distribution_goals() -> list[Any]:
        replay = _replay_law(constructor)
        _, params, assumptions = _symbolic(constructor)
        p = params["p"]
        goals: list[Any] = [
            Z3Goal("every stated probability lies in [0, 1] and the two add up to 1",
                   z3.And(*[z3.And(0 <= stated_probability(t, p), stated_probability(t, p) <= 1)
                            for t in INPUTS],
                          stated_probability(True, p) + stated_probability(False, p) == 1),
                   assumptions, params),
            *enumerated("law", replay)]
        bits, _ = route()
        if bits is None or bits.law is None:
            return goals
        return goals + [
            Z3Goal(f"the running call's Pr[M({x!r}) = {y!r}] (the sum of its paths) is the stated "
                   f"{'p' if x == y else '1 - p'}", bits.law[x][y] == stated_probability(x == y, p),
                   assumptions, params, replay)
            for x in INPUTS for y in INPUTS]

    def privacy_goals() -> list[Any]:
        m, params, assumptions = _symbolic(constructor)
        d_in, d_in_natural = natural("d_in")
        epsilon = m.map(d_in)
        bound = EXP(epsilon)
        names = {**params, "d_in": d_in}
        replay = _replay_privacy(constructor)
        bits, _ = route()
        exact_noise = [] if bits is not None and bits.float_coins else [
            exact_noise_goal(lambda: constructor(prob=0.75))]
        """A float coin the path enumeration met is modelled exactly (``RANDOM_GRID``): its law,
        not a scan for float draws, decides; any other float draw leaves the method."""
        goals: list[Any] = [
            *exact_noise,
            metric_premise(lambda: m, DiscreteMetric, MaxDivergence,
                           "the privacy proof (d_in = 0 iff x = x')"),
            ln_up_domain_goal("the map", epsilon, [*assumptions, *d_in_natural], names,
                              replay_constructor(constructor)),
            *enumerated("privacy", replay), _running_loss_goal(constructor)]
        if bits is None or bits.law is None:
            return goals
        facts = exp_facts(epsilon)
        law = bits.law
        goals += [Z3Goal(f"d_in >= 1, x = {x!r}, x' = {not x!r}, y = {y!r}: Pr[M(x)=y] <= "
                         "exp(map(d_in)) Pr[M(x')=y] (the running call's law)",
                         law[x][y] <= bound * law[not x][y],
                         [*assumptions, *d_in_natural, d_in >= 1, *facts], names, replay)
                  for x in INPUTS for y in INPUTS]
        goals.append(Z3Goal("d_in = 0 (x = x', one law): 1 <= exp(map(0))", 1 <= bound,
                            [*assumptions, *d_in_natural, d_in == 0, *facts], names, replay))
        return goals

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For both inputs, every path of the running call returns a bool (a member of "
                   "AtomDomain(bool)) and none raises: its coin's probability is in [0, 1]. "
                   "Probabilities outside the preconditions are refused.",
                   r"\forall x \in \{\top, \bot\}:\ \mathtt{function}(x) \in \{\top, \bot\}",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "The discrete metric is defined on AtomDomain(bool).",
                   r"d_{Discrete} \sim \mathrm{AtomDomain}(\mathtt{bool})",
                   lambda: [compatibility_goal(
                       constructor, lambda: [_symbolic(constructor)[0],
                                             constructor.build(prob=0.75)], {"prob": 0.75})]),
        Obligation(f"{prefix}.runtime_errors", Kind.RUNTIME_ERRORS,
                   "function(x) raises for no input x: the exact coin's probability is in [0, 1] "
                   "and no path of the running call raises, on either input; so whether it errs "
                   "(only on entropy failure) cannot depend on the data.",
                   r"\forall x, x':\ \mathtt{function}(x) \text{ errs} \iff "
                   r"\mathtt{function}(x') \text{ errs}",
                   runtime_error_goals),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "The running call draws the stated law: Pr[M(x) = x] = p and Pr[M(x) = not x] "
                   "= 1 - p, p the argument, for both inputs and every admitted p; the law is the "
                   "sum of the probabilities of the paths of its own __call__ (coin sides).",
                   r"\Pr[M(x) = y] = \begin{cases} p & y = x \\ 1 - p & y = \lnot x "
                   r"\end{cases}", distribution_goals),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "For both pairs of distinct inputs and both outputs, Pr[M(x) = y] <= "
                   "exp(map(d_in)) Pr[M(x') = y], Pr the running call's law; the worst ratio, "
                   "p/(1-p), is at most exp(map(1)) because the map rounds ln up (arith.ln_up), "
                   "whose argument is >= 1 for every admitted p.",
                   r"\max_{x \ne x', y} \frac{\Pr[M(x) = y]}{\Pr[M(x') = y]} = \frac{p}{1-p} "
                   r"\le e^{\mathtt{map}(1)}",
                   privacy_goals, uses=("arith.ln_up", f"{prefix}.map_rounding")),
        map_rounding_obligation(prefix, lambda: _float_symbolic(constructor), natural_d_in,
                                replay_rounding(constructor, _rounding_candidates()),
                                "ln(p / (1 - p)) (0 at d_in = 0)", uses=("arith.ln_up",)),
    )


def _running_loss_goal(constructor: Constructor) -> ComputedGoal:
    """Goal: at the small parameters of :func:`replayed_probs`, the built object's map, computed on
    numbers as it runs, is at or above the exact privacy loss of its running sampler (exact pmfs,
    ``d_in`` 0, 1 and 2). It evaluates the body that runs on numbers; it proves nothing beyond
    these parameters."""
    points = replayed_probs({})

    def violation(prob: float) -> str:
        m, _ = built_at_prob(constructor, prob)
        return _privacy_violation(constructor, m, prob) if m is not None else ""
    return running_loss_goal(
        f"the running map bounds the running sampler's exact loss at {len(points)} probabilities",
        points, violation, lambda prob: {"p": Fraction(prob)},
        f"the exact loss is within the map at {len(points)} probabilities",
        _replay_privacy(constructor))


IMPORT = "from mechanisms.make_randomized_response_bool import make_randomized_response_bool"


def catalogue_entry() -> Entry:
    return Entry("make_randomized_response_bool", make_randomized_response_bool,
                 randomized_response_bool_obligations(), "randomized response on a boolean",
                 (example("make_randomized_response_bool(0.75)", IMPORT,
                          distribution=stated_distribution),
                  example("make_randomized_response_bool(0.5)", IMPORT,
                          distribution=stated_distribution)), proof=True)
