"""Obligations of ``make_select_private_candidate``: private selection from private candidates.

The privacy theorem is *cited*: Liu and Talwar 2019, Theorem 3.1 (the first release whose score
is at least the threshold, the search stopped after each failing run by an independent
``gamma``-coin: ``2 eps``) and, without a threshold, the best of a geometric number of runs
(Papernot and Steinke 2022, truncated negative binomial with ``eta = 1``, i.e. geometric:
``(2 + eta) eps = 3 eps``; Liu and Talwar 2019, Theorem 3.4). The goals check that the code
meets the theorems' premises, reading everything from the built object:

* the runs are of one pure-DP (``MaxDivergence``) measurement, the same whose map the privacy
  map multiplies (structure), on the same input domain and metric;
* the law the running ``__call__`` draws is the theorem's algorithm: computed **path by path**
  from the real code with an abstract scripted measurement in place of the runs and a forking
  random source (:class:`ForkingRng`: every ``randrange(n)`` is a uniform integer that is only
  compared, each comparison forks the path with its exact weight), and compared exactly with the
  law stated here from the mathematics (:func:`stated_selection_law`). This is an evaluation:
  paths of at most :data:`MAX_RUNS` runs, at the stop probabilities of :data:`GAMMAS` and the
  score sequences of :data:`SCORE_SEQUENCES` (``bounded``); the stopping coin alone is checked at
  :data:`COIN_PROBES` seeded probabilities and the extreme floats;
* the kernels ``accepts`` and ``improves`` are ``score >= threshold`` and ``score >= best`` for
  all real scores (Z3), the running threshold and stop probability the arguments (Z3);
* ``map(d_in) >= factor * inner.map(d_in)`` with the theorem's factor (2 with a threshold, 3
  without) for an uninterpreted inner map (Z3), and ``map_rounding`` for the float product.

A replay computes an exact loss (lower bound, the truncated mass added to the denominator) of
the real code on a real three-outcome measurement (:func:`make_scored_choice`) with the forking
random source.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Sequence

import mpmath
import z3

from mechanisms import float_model, ops
from mechanisms.core import Constructor, Map, Measurement
from mechanisms.domains import AtomDomain, OptionDomain, ProductDomain
from mechanisms.make_basic_composition import make_basic_composition
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_randomized_response import rr_privacy_map
from mechanisms.make_select_private_candidate import (SelectPrivateCandidate,
                                                      make_select_private_candidate)
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import AbsoluteDistance, DiscreteMetric
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.compatibility import compatibility_goal
from obligations.kernels import goals_on_terms, trusted_kernel_goal
from obligations.stand_ins import interval
from obligations.noise import exact_noise_goal
from obligations.reports import (Code, bound_assertion, claim_assertion, constructor_call,
                                 import_line, plain_report, reproducer, returns)
from obligations.rounding import (ROUNDING_LEMMA, Candidates, at_least, float_valued_map,
                                  map_values, random_float, real_d_in, replay_rounding)
from obligations.witnesses import excluded_goals, witness_goal
from obligations.kernel.reviewed import reviewed
from obligations.forking_paths import (ForkingRng, NotEnumerable, Truncated, enumerate_law,
                                       enumerate_law_parts)

LIU_TALWAR = ("Liu and Talwar 2019 (Private selection from private candidates, STOC), Theorem "
              "3.1: an eps-DP measurement, run until a score reaches the threshold, stopped after "
              "each failing run with probability gamma, is 2 eps-DP")
PAPERNOT_STEINKE = ("Papernot and Steinke 2022 (Hyperparameter tuning with Renyi DP, ICLR), the "
                    "truncated negative binomial with eta = 1 (geometric number of runs): the best "
                    "of the runs is (2 + eta) eps = 3 eps-DP (also Liu and Talwar 2019, Theorem "
                    "3.4)")
CHECKED_KERNELS = ("stop", "accepts", "improves")
THEOREM_FACTOR = {True: 2, False: 3}
"""The theorems' multiple of the runs' epsilon, by whether there is a threshold (stated here,
not read from the mechanism)."""

MAX_RUNS = 5
GAMMAS = (0.5, 0.25, 0.1, 0.75, 1 - 2.0 ** -53, 2.0 ** -1074)
SCORE_SEQUENCES = ((0, 0, 0, 0, 0), (2, 0, 0, 0, 0), (0, 1, 0, 3, 0), (1, 1, 1, 1, 1),
                   (-1, 0, -2, 0, 5), (0, 0, 0, 0, 1), (3, 2, 1, 0, -1))
THRESHOLDS = (None, 1, 0)
COIN_PROBES = 200
IMPORT = "from mechanisms.make_select_private_candidate import make_select_private_candidate"
HELPERS = "from obligations.make_select_private_candidate import "


# ----------------------------------------------------------------- scripted and real measurements

@dataclass(frozen=True)
class ScriptedRuns:
    """Run ``i`` of a path releases ``(scores[i], "run i")``; run ``len(scores)`` truncates the
    path. Draws nothing: the runs' own randomness is abstract here."""

    scores: tuple[Any, ...]

    def __call__(self, arg: Any, rng: Any = None) -> tuple[Any, str]:
        if not isinstance(rng, ForkingRng):
            raise TypeError("a scripted measurement runs only under enumerate_law")
        i = rng.runs
        rng.runs += 1
        if i >= len(self.scores):
            raise Truncated
        return self.scores[i], f"run {i}"


def scripted_measurement(scores: Sequence[Any]) -> Measurement:
    """A stand-in for the runs (its map is irrelevant to the law of the selection)."""
    return Measurement(AtomDomain(int), ProductDomain((AtomDomain(int), AtomDomain(str))),
                       AbsoluteDistance(), MaxDivergence(), ScriptedRuns(tuple(scores)),
                       Map(rule=rr_privacy_map, params={"epsilon": 1.0}))


def stated_selection_law(scores: Sequence[Any], stop_probability: float, threshold: Any
                         ) -> tuple[dict[Any, Fraction], Fraction]:
    """The theorems' algorithm on runs releasing ``(scores[i], "run i")``, from the mathematics:
    after run ``i`` a release with score ``>= threshold`` is the output; else (or without a
    threshold, after keeping the release if its score is ``>=`` the best's) the search stops with
    probability ``gamma``, the rational the float denotes, returning ``None`` or the best. The
    mass of continuing past the last score is returned as truncated."""
    numerator, denominator = float(stop_probability).as_integer_ratio()
    gamma = Fraction(numerator, denominator)
    law: dict[Any, Fraction] = {}
    reach, best = Fraction(1), None
    for i, score in enumerate(scores):
        release = (score, f"run {i}")
        if threshold is not None and score >= threshold:
            law[release] = law.get(release, Fraction(0)) + reach
            return law, Fraction(0)
        if threshold is None and (best is None or score >= best[0]):
            best = release
        law[best] = law.get(best, Fraction(0)) + reach * gamma
        reach *= 1 - gamma
    return law, reach


def running_law(m: Measurement, arg: Any, max_draws: int = 4 * MAX_RUNS + 8
                ) -> tuple[dict[Any, Fraction], Fraction]:
    """The law of the built selection ``m`` on ``arg``, path by path from its own ``__call__``
    (paths of more than ``max_draws`` draws truncated)."""
    return enumerate_law(lambda rng: m.function(arg, rng), max_draws=max_draws)


def whole_running_law(m: Measurement, arg: Any, max_draws: int = 4 * MAX_RUNS + 8
                      ) -> tuple[dict[Any, Fraction], Fraction]:
    """:func:`running_law` on scripted runs, computed whole: the truncated mass is only that of
    runs past the last scripted score (which the stated law truncates alike); a path cut off
    after ``max_draws`` draws raises :class:`NotEnumerable` (its law is not known there)."""
    law, ended, cut = enumerate_law_parts(lambda rng: m.function(arg, rng), max_draws=max_draws)
    if cut:
        raise NotEnumerable(f"paths of more than {max_draws} draws (mass {float(cut):.3g}) cut "
                            "off: the law is not computed whole")
    return law, ended


@dataclass(frozen=True)
class ScoredChoice:
    """``arg -> release`` drawn from ``table[arg]`` (release -> weight, integer weights): a
    uniform integer below the total compared with the cumulative weights."""

    table: tuple[tuple[Any, tuple[tuple[Any, int], ...]], ...]

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        rows = dict(self.table)[arg]
        u = rng.randrange(sum(w for _, w in rows))
        bound = 0
        for release, weight in rows:
            bound += weight
            if u < bound:
                return release
        raise AssertionError("unreachable")


SCORED_TABLE = (
    (False, (((1, "a"), 3), ((1, "b"), 20), ((0, "c"), 77))),
    (True, (((1, "a"), 1), ((1, "b"), 60), ((0, "c"), 39))),
)
"""Pure DP with eps = ln 3 between False and True (ratios 3, 3 and 77/39)."""


def make_scored_choice(table: Any = SCORED_TABLE) -> Measurement:
    """A real pure-DP measurement releasing ``(score, candidate)`` with an exact law: bool input,
    discrete metric, map ``ln`` of the largest ratio (rounded up) at ``d_in >= 1``."""
    laws = {arg: {release: Fraction(w, sum(x for _, x in rows)) for release, w in rows}
            for arg, rows in table}
    ratio = MaxDivergence().max_ratio(laws[False], laws[True])
    return Measurement(AtomDomain(bool), ProductDomain((AtomDomain(int), AtomDomain(str))),
                       DiscreteMetric(), MaxDivergence(), ScoredChoice(table),
                       Map(rule=rr_privacy_map, params={"epsilon": ops.ln_up(ratio)}))


def selection_loss(m: Measurement) -> tuple[Any, Any]:
    """A certified lower bound of ``max_y |ln(Pr[m(False) = y] / Pr[m(True) = y])|`` of the
    running selection ``m`` (path by path, truncated mass added to the denominator), and ``y``."""
    worst, where, _ = selection_loss_whole(m)
    return worst, where


def selection_loss_whole(m: Measurement) -> tuple[Any, Any, bool]:
    """:func:`selection_loss`, and whether both laws were computed whole (no truncated mass).
    A bound from cut-off paths is never a confirmed refutation: the project's rule (a cut-off
    path enumeration is evidence, and its verdict unknown)."""
    laws: dict[bool, Any] = {}
    depths = (4 * MAX_RUNS + 8, 12) if m.function.threshold is not None else (12,)
    for depth in depths:  # the deeper one unless the paths branch too much
        try:
            laws = {x: running_law(m, x, depth) for x in (False, True)}
            break
        except NotEnumerable:
            if depth == 12:
                raise
    worst, where = mpmath.mpf("-inf"), None
    with mpmath.workdps(50):
        for x, other in ((False, True), (True, False)):
            law, _ = laws[x]
            law_other, tail = laws[other]
            for y, p in law.items():
                q = law_other.get(y, Fraction(0)) + tail
                ratio = p / q if q else None
                loss = mpmath.inf if ratio is None else \
                    mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
                if loss > worst:
                    worst, where = loss, y
    return worst, where, not any(tail for _, tail in laws.values())


@dataclass(frozen=True)
class TextScored:
    """``arg -> ("high", 0)``: a constant release whose score is text; draws nothing."""

    def __call__(self, arg: Any, rng: Any = None) -> tuple[str, int]:
        return "high", 0


def make_text_scored() -> Measurement:
    """A real pure-DP measurement whose release ``("high", 0)`` has a text score: constant, so
    0-DP (map 0). Used only where the selection must refuse it: with a numeric threshold every
    comparison of its score raises."""
    return Measurement(AtomDomain(int), ProductDomain((AtomDomain(str), AtomDomain(int))),
                       AbsoluteDistance(), MaxDivergence(), TextScored(),
                       Map(rule=rr_privacy_map, params={"epsilon": 0.0}))


REAL_INNER = "make_basic_composition([make_discrete_laplace(2.0), make_discrete_laplace(1.0)])"
REAL_IMPORTS = ("from mechanisms.make_basic_composition import make_basic_composition",
                "from mechanisms.make_discrete_laplace import make_discrete_laplace")


def real_inner() -> Measurement:
    """A catalogue measurement releasing pairs: (noisy score, noisy candidate), eps = 1.5 d_in."""
    return make_basic_composition([make_discrete_laplace(2.0), make_discrete_laplace(1.0)])


def _real(threshold: Any = 1, stop_probability: float = 0.25) -> dict[str, Any]:
    return {"measurement": real_inner(), "stop_probability": stop_probability,
            "threshold": threshold}


def _shown(arguments: dict[str, Any], text: str = REAL_INNER,
           imports: Sequence[str] = REAL_IMPORTS) -> dict[str, Any]:
    return {**arguments, "measurement": Code(text, *imports)}


# ------------------------------------------------------------------------------ symbolic builds

def stand_in(floats: bool = False) -> Measurement:
    """The runs, abstract: input interval ``X``, absolute distance, pure DP, releases pairs of a
    float score and an int candidate, function and map uninterpreted (the map a float term under
    the rounding model)."""
    g = z3.Function("g", z3.RealSort(), z3.RealSort(), z3.RealSort())
    return Measurement(interval("X"), ProductDomain((AtomDomain(float), AtomDomain(int))),
                       AbsoluteDistance(), MaxDivergence(), g, float_valued_map("m"))


def _symbolic(constructor: Constructor, thresholded: bool = True
              ) -> tuple[Measurement, dict[str, Any], list[Any]]:
    params = {"measurement": stand_in(), "stop_probability": z3.Real("gamma"),
              "threshold": z3.Real("threshold") if thresholded else None}
    names = {"gamma": params["stop_probability"]}
    if thresholded:
        names["threshold"] = params["threshold"]
    return constructor.build(**params), names, constructor.assumptions(**params)


def _float_symbolic(constructor: Constructor, thresholded: bool) -> Callable[[], Any]:
    def symbolic() -> tuple[Any, dict[str, Any], list[Any]]:
        gamma = float_model.float_parameter("gamma")
        threshold = float_model.float_parameter("threshold") if thresholded else None
        params = {"measurement": stand_in(), "stop_probability": gamma, "threshold": threshold}
        return (constructor.build(**params), {"gamma": float_model.plain(gamma)},
                constructor.assumptions(**params))
    return symbolic


# ------------------------------------------------------------------------------------- replays

def _law_cases(constructor: Constructor) -> list[tuple[float, Any, tuple]]:
    return [(g, t, s) for g in GAMMAS for t in THRESHOLDS for s in SCORE_SEQUENCES]


def law_violation(constructor: Constructor, gamma: float, threshold: Any,
                  scores: tuple) -> str | None:
    """The running law against the stated one on scripted runs, or None when they agree."""
    try:
        m = constructor(scripted_measurement(scores), gamma, threshold)
    except ValueError:
        return None  # refused: nothing runs
    code, truncated = whole_running_law(m, 0)
    stated, stated_truncated = stated_selection_law(scores, gamma, threshold)
    code = {y: p for y, p in code.items() if p}
    stated = {y: p for y, p in stated.items() if p}
    if code == stated and truncated == stated_truncated:
        return None
    gaps = {repr(y): f"code {code.get(y, 0)}, stated {stated.get(y, 0)}"
            for y in code.keys() | stated.keys() if code.get(y, 0) != stated.get(y, 0)}
    return f"scores {scores}, gamma {gamma!r}, threshold {threshold!r}: " + \
        (f"{gaps}" if gaps else f"truncated mass {truncated} vs {stated_truncated}")


def _law_report(constructor: Constructor, gamma: float, threshold: Any, scores: tuple,
                what: str) -> Replay:
    call = constructor_call(constructor, measurement=Code(f"scripted_measurement({scores!r})"),
                            stop_probability=gamma, threshold=threshold)
    return plain_report(
        True, f"{call}: the running law is not the stated one", what,
        *reproducer(import_line(constructor),
                    HELPERS + "whole_running_law, scripted_measurement, stated_selection_law",
                    f"m = {call}", "code, truncated = whole_running_law(m, 0)",
                    f"stated, tail = stated_selection_law({scores!r}, {gamma!r}, {threshold!r})",
                    "code = {y: p for y, p in code.items() if p}",
                    "stated = {y: p for y, p in stated.items() if p}",
                    claim_assertion("code == stated and truncated == tail",
                                    "the code draws {code} (truncated {truncated}), the stated "
                                    "law is {stated} (truncated {tail})")))


def _replay_law(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        for gamma, threshold, scores in _law_cases(constructor):
            try:
                what = law_violation(constructor, gamma, threshold, scores)
            except Exception:  # noqa: BLE001 - reported by the runtime obligation
                continue
            if what:
                return _law_report(constructor, gamma, threshold, scores, what)
        return plain_report(False, f"the running law is the stated one on "
                                   f"{len(_law_cases(constructor))} cases")
    return replay


PRIVACY_PROBES = ((1, 0.25), (1, 0.5), (1, 0.125), (None, 0.5))
"""``(threshold, gamma)`` of the selections on :func:`make_scored_choice` whose loss is bounded."""


def _privacy_probe(constructor: Constructor) -> tuple[int, tuple[Any, ...] | None]:
    """The loss of the real code on the real three-outcome measurement against ``map(1)`` at
    :data:`PRIVACY_PROBES`: ``(probes the constructor built, the first above the map)``, the
    latter ``(threshold, gamma, claimed, loss, y, whole)``."""
    inner, ran = make_scored_choice(), 0
    for threshold, gamma in PRIVACY_PROBES:
        try:
            m = constructor(inner, gamma, threshold)
        except ValueError:
            continue
        ran += 1
        claimed = m.map(1)
        loss, y, whole = selection_loss_whole(m)
        if loss > mpmath.mpf(claimed):
            return ran, (threshold, gamma, claimed, loss, y, whole)
    return ran, None


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """The certified loss of the real code on the real three-outcome measurement against
    ``map(1)``, with and without a threshold, at a few stop probabilities; confirmed only when
    both laws are computed whole (never with a geometric number of runs: then not confirmed)."""
    def replay(_: dict) -> Replay:
        ran, found = _privacy_probe(constructor)
        if found is not None:
            threshold, gamma, claimed, loss, y, whole = found
            call = constructor_call(constructor, measurement=Code("make_scored_choice()"),
                                    stop_probability=gamma, threshold=threshold)
            if not whole:
                return plain_report(
                    False, f"{call}: a lower bound {mpmath.nstr(loss, 17)} of the loss at "
                    f"y = {y!r} is above map(1) = {claimed!r}, but from paths cut off (the "
                    "law is not computed whole): not confirmed")
            return plain_report(
                True, call, "inputs x = False, x' = True (discrete distance d_in = 1)",
                f"claimed  map(d_in) = {claimed!r}",
                f"observed ln(Pr[M(x) = y] / Pr[M(x') = y]) >= {mpmath.nstr(loss, 17)} "
                f"at y = {y!r}  > claimed",
                *reproducer(import_line(constructor),
                            HELPERS + "make_scored_choice, selection_loss",
                            f"m = {call}", "claimed = m.map(1)",
                            "observed = selection_loss(m)[0]",
                            bound_assertion("max_y ln(Pr[M(x)=y] / Pr[M(x')=y]) >=",
                                            "map(1)")))
        if not ran:
            return plain_report(False, "the constructor refused every probe: nothing ran")
        return plain_report(False, "no loss above the map on the scored three-outcome runs")
    return replay


def _replay_errors(constructor: Constructor) -> Callable[[dict], Replay]:
    """Run the real selection at the model's stop probability (and a few) on a witness input."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        model = counterexample.get("gamma", 0.25)
        try:
            model = float(Fraction(model))
        except (TypeError, ValueError):
            model = 0.25
        for gamma in dict.fromkeys([model, -0.5, 0.25, 1.0, 1.5]):
            if gamma == 0:
                continue  # never stops without a threshold: not a raise, and not replayed
            for threshold in (1, None):
                try:
                    m = constructor(**_real(threshold, gamma))
                except ValueError:
                    continue
                call = constructor_call(constructor, **_shown(_real(threshold, gamma)))
                for seed in range(5):
                    try:
                        m(0, random.Random(seed))
                    except (ValueError, ArithmeticError, TypeError) as error:
                        return plain_report(
                            True, f"{call} on 0", f"raised {type(error).__name__}: {error}",
                            *reproducer(import_line(constructor), *REAL_IMPORTS, "import random",
                                        f"m = {call}",
                                        *returns(f"m(0, random.Random({seed}))",
                                                 "the function on 0")))
        return plain_report(False, "the function returned on every replayed run")
    return replay


def _replay_map_factor(constructor: Constructor) -> Callable[[dict], Replay]:
    """The map against the theorem's factor times the runs' map, on real runs, then the loss."""
    privacy = _replay_privacy(constructor)

    def replay(counterexample: dict[str, Any]) -> Replay:
        loss = privacy(counterexample)
        if loss.confirmed:
            return loss
        for threshold in (1, None):
            arguments = _real(threshold)
            m = constructor(**arguments)
            runs = m.function.measurement
            bound = THEOREM_FACTOR[threshold is not None] * Fraction(runs.map(1))
            if Fraction(m.map(1)) < bound:
                call = constructor_call(constructor, **_shown(arguments))
                factor = THEOREM_FACTOR[threshold is not None]
                return plain_report(
                    True, f"{call}: the map is below the theorem's bound",
                    f"map(1) = {m.map(1)!r} < {factor} * runs.map(1) = {float(bound)!r}",
                    *reproducer(import_line(constructor), *REAL_IMPORTS, f"m = {call}",
                                "runs = m.function.measurement",
                                claim_assertion(f"Fraction(m.map(1)) >= {factor} * "
                                                "Fraction(runs.map(1))",
                                                f"map(1) = {{m.map(1)!r}} is below {factor} * "
                                                "{runs.map(1)!r}, the cited theorem's bound")))
        return loss
    return replay


def _rounding_candidates() -> Candidates:
    def arguments(counterexample: dict[str, Any], rng: random.Random):
        while True:
            part = make_discrete_laplace(random_float(rng))
            yield ({"measurement": make_basic_composition([part, part]), "stop_probability": 0.25,
                    "threshold": None}, rng.randint(1, 1000))
    return Candidates(arguments, lambda a: a, _rounding_shown)


def _rounding_shown(arguments: dict[str, Any]) -> dict[str, Any]:
    scale = arguments["measurement"].function.functions[0].scale
    part = f"make_discrete_laplace({scale!r})"
    return {**arguments, "measurement": Code(f"make_basic_composition([{part}, {part}])",
                                             *REAL_IMPORTS)}


# ------------------------------------------------------------------------------------ goals

def _guarded(decide: Callable[[], Decision]) -> Callable[[], Decision]:
    """A decision that reads a member the running function lacks (code that is not a
    ``SelectPrivateCandidate``) is *unknown (unsupported)*, not an error."""
    def guarded() -> Decision:
        try:
            return decide()
        except AttributeError as missing:
            return Decision(False, {"missing": str(missing)}, "the running function is outside "
                            f"the proof method ({missing})", unsupported=True)
    return guarded


def _computed(name: str, solver: str, decide: Callable[[], Decision],
              replay: Callable[[dict], Replay] | None = None) -> ComputedGoal:
    return ComputedGoal(name, solver, _guarded(decide), replay)

@reviewed
def select_private_candidate_obligations(
        constructor: Constructor = make_select_private_candidate,
        prefix: str = "select_private_candidate") -> tuple[Obligation, ...]:

    def kernel() -> ComputedGoal:
        return trusted_kernel_goal("the selection's function",
                                   lambda: constructor(**_real()).function,
                                   SelectPrivateCandidate, checked=CHECKED_KERNELS)

    def on_terms(goals: Callable[[], list[Any]]) -> Callable[[], list[Any]]:
        """Goals that read the running function's members: on code that is not a
        ``SelectPrivateCandidate`` and cannot run them, only the kernel goal (unknown)."""
        return lambda: goals_on_terms(lambda: constructor(**_real()).function,
                                      SelectPrivateCandidate, goals, CHECKED_KERNELS) or [kernel()]

    valid = [_real(1), _real(None), _real(0.5, 0.5)]
    builds = [witness_goal(constructor, a, _shown(a), inputs=[0, 3, -7], draws=4) for a in valid]
    refused = excluded_goals(constructor, [
        (_real(1, 0.0), "stop_probability 0 (the search may never stop)",
         _shown(_real(1, 0.0))),
        (_real(1, 1.0), "stop_probability 1", _shown(_real(1, 1.0))),
        (_real(math.inf), "an infinite threshold", _shown(_real(math.inf))),
        ({"measurement": make_discrete_laplace(1.0), "stop_probability": 0.25, "threshold": 1},
         "runs whose releases are not (score, candidate) pairs",
         {"measurement": Code("make_discrete_laplace(1.0)", REAL_IMPORTS[1]),
          "stop_probability": 0.25, "threshold": 1}),
        ({"measurement": make_text_scored(), "stop_probability": 0.25, "threshold": 1},
         "runs whose scores are text, not int or float (every comparison with the threshold "
         "raises)", {"measurement": Code("make_text_scored()", HELPERS + "make_text_scored"),
                     "stop_probability": 0.25, "threshold": 1}),
    ], inputs=[0, 3], draws=3)

    def paths_goal(what: str, check: Callable[[Any, Any, tuple, dict], str | None],
                   replay: Callable[[dict], Replay]) -> ComputedGoal:
        """Evaluated on every enumerated path of the scripted cases."""
        def decide() -> Decision:
            cases, ran = _law_cases(constructor), 0
            for gamma, threshold, scores in cases:
                try:
                    m = constructor(scripted_measurement(scores), gamma, threshold)
                except ValueError:
                    continue
                ran += 1
                try:
                    law, _ = whole_running_law(m, 0)
                except NotEnumerable as outside:
                    return Decision(False, {"case": f"{gamma}, {threshold}, {scores}"},
                                    f"the running call is outside the path method: {outside}",
                                    unsupported=True)
                except Exception as error:  # noqa: BLE001 - a raise on a path is a violation
                    return Decision(False, {"gamma": gamma, "threshold": threshold,
                                            "scores": str(scores)},
                                    f"a path raised {type(error).__name__}: {error}")
                wrong = check(gamma, threshold, scores, law)
                if wrong:
                    return Decision(False, {"gamma": gamma, "threshold": threshold,
                                            "scores": str(scores)}, wrong)
            if not ran:  # a bounded check counts only the cases that ran
                return Decision(False, {"cases": len(cases)}, f"the constructor refused all "
                                f"{len(cases)} scripted cases: nothing was checked",
                                unsupported=True)
            return Decision(True, detail=f"{ran} of {len(cases)} cases ran (the others refused "
                            f"by the constructor), every path of at most {MAX_RUNS} runs"
                            if ran < len(cases) else f"{ran} cases, every path of at most "
                            f"{MAX_RUNS} runs")
        return _computed(what, "exact", decide, replay)

    def outputs_are_releases(gamma: Any, threshold: Any, scores: tuple, law: dict) -> str | None:
        releases = {(s, f"run {i}") for i, s in enumerate(scores)}
        for y in law:
            if y is None and threshold is not None:
                continue
            if y not in releases:
                return f"output {y!r} is neither None (with a threshold) nor a release of a run"
            if threshold is not None and not y[0] >= threshold:
                return f"output {y!r} has a score below the threshold {threshold!r}"
        return None

    def output_domain_goals() -> list[Any]:
        replay = _replay_law(constructor)

        def option() -> Decision:
            m = constructor(**_real())
            runs = m.function.measurement
            if m.output_domain == OptionDomain(runs.output_domain):
                return Decision(True, detail=f"{m.output_domain}")
            return Decision(False, {"output domain": str(m.output_domain)},
                            f"the output domain is not OptionDomain({runs.output_domain})")
        return [kernel(), *builds, *refused,
                _computed("the output domain is OptionDomain(the runs' output domain), the "
                             "runs read from the running function", "structure", option),
                paths_goal("every path's output is None (with a threshold only) or a release of "
                           "one of its runs, at or above the threshold when there is one",
                           outputs_are_releases, replay)]

    def runtime_goals() -> list[Any]:
        replay = _replay_errors(constructor)
        goals: list[Any] = [kernel(), *builds]
        for thresholded in (True, False):
            m, names, assumptions = _symbolic(constructor, thresholded)
            p = m.function.stop_probability
            goals.append(Z3Goal(
                "the running stop probability lies in (0, 1): the exact coin never raises and "
                "the search stops with probability 1 (Pr[more than k runs] = (1 - gamma)^k)"
                + ("" if thresholded else ", without a threshold"),
                z3.And(0 < ops.exact(p), ops.exact(p) < 1), assumptions,
                {**names, "running gamma": p}, replay))
        goals.append(paths_goal("no path raises (the comparisons are on int or non-NaN float "
                                "scores; the coin's probability is in [0, 1])",
                                lambda *_: None, replay))
        return goals

    def distribution_goals() -> list[Any]:
        replay = _replay_law(constructor)
        goals: list[Any] = [kernel(), exact_noise_goal(lambda: constructor(**_real()))]
        m, names, assumptions = _symbolic(constructor, True)
        f = m.function
        s, t = z3.Reals("s t")
        goals += [
            Z3Goal("the running stop probability is the argument gamma",
                   ops.exact(f.stop_probability) == names["gamma"], assumptions,
                   {**names, "running gamma": f.stop_probability}, replay),
            Z3Goal("the running threshold is the argument", f.threshold == names["threshold"],
                   assumptions, names, replay),
            Z3Goal("accepts(s, T) is s >= T for every real score s and threshold T",
                   z3.ForAll([s, t], ops.to_bool(f.accepts(s, t)) == (s >= t)), assumptions,
                   names, replay),
            Z3Goal("improves(s, b) is s >= b (the best so far is replaced on ties) for every "
                   "real s, b", z3.ForAll([s, t], ops.to_bool(f.improves(s, t)) == (s >= t)),
                   assumptions, names, replay)]

        def no_threshold() -> Decision:
            running = constructor(**_real(None)).function.threshold
            return Decision(running is None, {"running threshold": repr(running)},
                            f"threshold=None runs with threshold {running!r}")
        goals.append(_computed("threshold=None runs without a threshold (best of the runs)",
                                  "structure", no_threshold, replay))

        def coin() -> Decision:
            rng = random.Random(0)
            probes = [2.0 ** -1074, 1 - 2.0 ** -53, 0.5, 0.1, *[rng.random() or 0.5
                                                                  for _ in range(COIN_PROBES)]]
            running = constructor(**_real()).function
            for gamma in probes:
                law, _ = enumerate_law(lambda r: running.stop(gamma, r))
                numerator, denominator = gamma.as_integer_ratio()
                if law.get(True, 0) != Fraction(numerator, denominator):
                    return Decision(False, {"gamma": gamma},
                                    f"the stopping coin at {gamma!r} is True with probability "
                                    f"{law.get(True, 0)}, not {numerator}/{denominator}")
            return Decision(True, detail=f"{len(probes)} probabilities")
        goals.append(_computed(f"the running stopping coin is exact: True with probability "
                                  f"the rational the float gamma denotes ({COIN_PROBES + 4} "
                                  "probabilities, the extremes included)", "exact", coin, replay))
        goals.append(paths_goal(f"the running law is the stated one: every path of at most "
                                f"{MAX_RUNS} runs, exactly (number of runs geometric; first "
                                "release at or above the threshold, or the best, ties to the "
                                "latest)",
                                lambda g, t, sc, law: law_violation(constructor, g, t, sc),
                                replay))
        return goals

    def privacy_goals() -> list[Any]:
        replay = _replay_map_factor(constructor)
        goals: list[Any] = [kernel(), exact_noise_goal(lambda: constructor(**_real()))]

        def premises() -> Decision:
            for arguments in (_real(1), _real(None)):
                m = constructor(**arguments)
                runs = m.function.measurement
                problems = []
                if not isinstance(runs.output_measure, MaxDivergence):
                    problems.append(f"the runs' measure is {runs.output_measure}")
                if m.output_measure != MaxDivergence():
                    problems.append(f"the output measure is {m.output_measure}")
                if m.input_domain != runs.input_domain or m.input_metric != runs.input_metric:
                    problems.append("the input domain or metric is not the runs'")
                if problems:
                    return Decision(False, {"problems": "; ".join(problems)}, "; ".join(problems))
            return Decision(True, detail="pure-DP runs on the selection's own input space")
        goals.append(_computed("the runs (read from the running function) are pure DP on the "
                                  "selection's input domain and metric; the output measure is "
                                  "MaxDivergence", "structure", premises, replay))
        d_in = z3.Real("d_in")
        for thresholded in (True, False):
            with float_model.exact_model():
                m, names, assumptions = _symbolic(constructor, thresholded)
                runs = m.function.measurement
                factor = THEOREM_FACTOR[m.function.threshold is not None]
                runs_map = runs.map(d_in)
                claim = float_model.plain(m.map(d_in)) >= factor * float_model.plain(runs_map)
            goals.append(Z3Goal(
                f"map(d_in) >= {factor} * runs.map(d_in) for any runs' map (uninterpreted, >= 0: "
                "the runs' guarantee on x against itself forces it), the theorem's bound "
                f"{'with' if thresholded else 'without'} a threshold",
                claim, [*assumptions, d_in >= 0,
                        float_model.plain(runs_map) >= 0],  # a valid map is never negative
                {**names, "d_in": d_in}, replay))

        def measured() -> Decision:
            ran, found = _privacy_probe(constructor)
            if not ran:  # a bounded check counts only the cases that ran
                return Decision(False, {"probes": len(PRIVACY_PROBES)}, "the constructor "
                                f"refused all {len(PRIVACY_PROBES)} probes: nothing was checked",
                                unsupported=True)
            if found is None:
                return Decision(True, detail=f"{ran} of {len(PRIVACY_PROBES)} probes ran: the "
                                "loss of the real code within the map on the scored runs")
            threshold, gamma, claimed, loss, y, whole = found
            what = (f"threshold {threshold!r}, gamma {gamma!r}: a lower bound "
                    f"{mpmath.nstr(loss, 17)} of the loss at y = {y!r} is above map(1) = "
                    f"{claimed!r}")
            where = {"threshold": repr(threshold), "gamma": gamma}
            if whole:
                return Decision(False, where, what)
            return Decision(False, where, what + ", on paths cut off (the law is not computed "
                            "whole): not a refutation", unsupported=True)
        goals.append(_computed("evaluated: the exact loss of the real code on a real "
                                  "three-outcome measurement (ln 3-DP) is within the map",
                                  "exact", measured, _replay_privacy(constructor)))
        return goals

    def rounding_goals() -> list[Any]:
        replay = replay_rounding(constructor, _rounding_candidates())
        goals = []
        for thresholded in (True, False):
            rounded, exact, names, assumptions = map_values(_float_symbolic(constructor,
                                                                            thresholded),
                                                            real_d_in)
            goals.append(Z3Goal(f"the map computed in binary64 is >= factor * runs.map(d_in) "
                                f"exactly ({'with' if thresholded else 'without'} a threshold)",
                                at_least(rounded, exact), assumptions, names, replay))
        return goals

    bound = (f"paths of at most {MAX_RUNS} runs at {len(GAMMAS)} stop probabilities, "
             f"{len(THRESHOLDS)} thresholds and {len(SCORE_SEQUENCES)} score sequences, "
             "evaluated")
    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "The output is None (with a threshold) or a release of one of the runs, so in "
                   "OptionDomain(the runs' output domain) when the runs release in theirs.",
                   r"\mathtt{function}(x) \in \{\mathtt{None}\} \cup \mathcal{Y}_{runs}",
                   on_terms(output_domain_goals), bound=bound),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "The input metric is the runs' one, which fits their input domain.",
                   r"d_{\mathcal{X}} \sim \mathcal{X}",
                   lambda: [*builds, compatibility_goal(
                       constructor, lambda: [_symbolic(constructor, t)[0] for t in (True, False)],
                       _real(), _shown(_real()))]),
        Obligation(f"{prefix}.runtime_errors", Kind.RUNTIME_ERRORS,
                   "function(x) raises only where the runs raise: the exact coin's probability is "
                   "in (0, 1), the comparisons are on numbers, and the search stops with "
                   "probability 1.",
                   r"0 < \gamma < 1", on_terms(runtime_goals), bound=bound),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "The running function is the theorems' algorithm: after each run, a release "
                   "with score >= threshold is returned; otherwise (without a threshold: after "
                   "keeping the release if its score is >= the best's) an exact gamma-coin stops "
                   "the search, returning None or the best; the number of runs is geometric.",
                   r"\Pr[K = k] = (1-\gamma)^{k-1}\gamma,\ M(x) = \text{first } y_k: s_k \ge \tau"
                   r"\ \text{or}\ \arg\max_{i \le K} s_i",
                   on_terms(distribution_goals), bound=bound),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "If the runs are eps-DP at d_in (eps = runs.map(d_in)), the selection is "
                   "2 eps-DP with a threshold (Liu and Talwar 2019, Thm 3.1) and 3 eps-DP without "
                   "(Papernot and Steinke 2022, geometric); map(d_in) >= that bound.",
                   r"d(x, x') \le d_{in} \implies \Pr[M(x) = y] \le e^{\mathtt{map}(d_{in})}"
                   r"\Pr[M(x') = y],\ \mathtt{map}(d_{in}) \ge c\,\varepsilon_{runs}(d_{in})",
                   on_terms(privacy_goals), cites=(LIU_TALWAR, PAPERNOT_STEINKE), bound=bound,
                   uses=(f"{prefix}.distribution", f"{prefix}.map_rounding")),
        Obligation(f"{prefix}.map_rounding", Kind.ROUNDING,
                   "For every runs' map value and d_in >= 0, the map the code computes in "
                   "floating point (factor * runs.map(d_in), rounded up) is never below its exact "
                   f"value ({ROUNDING_LEMMA}).",
                   r"\widehat{\mathrm{map}}(d_{in}) \ge c \cdot \mathrm{map}_{runs}(d_{in})",
                   rounding_goals, uses=(ROUNDING_LEMMA,)),
    )


def catalogue_entry() -> Entry:
    return Entry("make_select_private_candidate", make_select_private_candidate,
                 select_private_candidate_obligations(),
                 "private selection from private candidates: repeat a (score, candidate) "
                 "measurement with an exact geometric stopping rule",
                 (example(f"make_select_private_candidate({REAL_INNER}, 0.25, 1)", IMPORT,
                          *REAL_IMPORTS),
                  example(f"make_select_private_candidate({REAL_INNER}, 0.25, None)", IMPORT,
                          *REAL_IMPORTS)),
                 proof=True)
