"""Obligations of ``make_noisy_top_k``, for every ``k >= 1``, every ``scale > 0``, both
orientations and both output measures.

The law the function samples is computed from the running code: its ``__call__`` is run on every
path of positions, with a scripted selector in place of the round sampler that records the scores
each round is given; the probability of a path is the product of the real round sampler's law on
those scores, read from its own acceptance exponents ``gamma`` (report-noisy-max's rejection
sampler: ``Pr[i] = exp(-gamma_i) / sum_j exp(-gamma_j)``, proved again here for the running
kernels: the selector's goals are report-noisy-max's, on its own scale and orientation). That
computation covers the score vectors of ``n <= 5`` candidates that the input domain admits, for
every ``k <= 5`` (the domain admits ``n >= k`` only, which Z3 proves on its own length condition
for every ``k``), and the verdicts say so; the round law, the per-round privacy, the sub-vector
lemma and the composition over rounds are proved for every ``k`` and every number of
candidates.

Pure DP: each round is the exponential mechanism on the remaining scores, which stay
``d_in``-close, so it is ``(2 d_in / scale)``-DP (termwise bound, induction over the candidates);
``k`` rounds multiply (induction over the rounds). zCDP: each round is ``eta``-bounded-range,
``eta = 2 d_in / scale`` (proved on the stated law), hence ``eta^2 / 8``-zCDP (**cited**: Cesar
and Rogers 2021), and ``k`` adaptively composed rounds are ``k eta^2 / 8``-zCDP (**cited**: Bun
and Steinke 2016, Lemma 2.3). The specification (the stated law, its orientation, the losses) is
written here from the mathematics, from the constructor's arguments, never from the mechanism's
constants or helpers.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import math
import random
from fractions import Fraction
from typing import Any, Callable, Iterable

import mpmath
import sympy
import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.make_noisy_top_k import NoisyTopK, make_noisy_top_k
from mechanisms.make_report_noisy_max import NoisyMax
from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence
from mechanisms.metrics import LInfDistance, MonotonicLInfDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.compatibility import compatibility_goal
from obligations.kernels import trusted_kernel_goal
from obligations.exponential import EXP, exp_facts, exp_monotone, exp_product
from obligations.noisy_max import (BERNOULLI_EXP, CHECKED_KERNELS, ScriptedRng,
                                   admitted_lengths_goal, quotients_defined, replay_short_input)
from obligations.noise import exact_noise_goal
from obligations.reports import claim_assertion, import_line, plain_report, reproducer, returns
from obligations.rounding import (map_rounding_obligation, parameter_candidates, real_d_in,
                                  replay_rounding, symbolic_build)
from obligations.witnesses import witness_goal
from obligations.kernel.reviewed import reviewed

CESAR_ROGERS = ("Cesar and Rogers 2021, 'Bounding, Concentrating, and Truncating: Unifying "
                "Privacy Loss Composition for Data Analytics' (ALT): an eta-bounded-range "
                "mechanism is (eta^2/8)-zCDP")
BUN_STEINKE = "Bun and Steinke 2016, Lemma 2.3 (adaptive composition of zCDP)"
STATED_ORIENTATION = {"max": 1, "min": -1}
"""The specification: ``optimize="max"`` favours the largest scores, ``"min"`` the smallest."""
MEASURES = {"pure": MaxDivergence(), "zCDP": ZeroConcentratedDivergence()}
PEEL_BOUND = 5
"""The peeling (the running ``__call__``) is run on every path for up to this many candidates and
rounds."""
PEEL_SCORES = ([0.0], [1.0, -0.5], [0.5, 2.0, -1.0], [0.0, 1.0, 3.0, -2.0],
               [1.0, 0.25, -0.5, 2.0, 0.25], [])
"""Score vectors of 0 to :data:`PEEL_BOUND` candidates (distinct values, and one tie); each is
run with every ``k <= PEEL_BOUND`` whose built input domain admits it (``n >= k`` only, for the
catalogue's)."""
DIGITS = 50
BOUNDED = (f"the peeling (the running __call__) is run on every path for every k <= {PEEL_BOUND} "
           f"and every score vector of n <= {PEEL_BOUND} candidates the input domain admits")

LAW_BOUNDED = ("from the stated law, for every k and n; that the running code samples it rests "
               f"on the distribution, where {BOUNDED}")


# --- the law of the running code -------------------------------------------------------------

class NeedDraw(Exception):
    """The running function asked its selector for a round the script does not cover."""

    def __init__(self, scores: list[Any]) -> None:
        super().__init__(f"unscripted round on {scores!r}")
        self.scores = scores


class UnscriptedRandomness(Exception):
    """The running function drew from its rng outside the selector: its law is not the
    selector's."""


class PathLimit(Exception):
    """The running function has more paths than the enumeration explores."""


class NoRng:
    """An rng that refuses every draw: the peeling draws only through its selector."""

    def __getattr__(self, name: str) -> Any:
        raise UnscriptedRandomness(f"the function called rng.{name} outside its selector")


class ScriptedSelector:
    """Stands in for the round sampler: returns the scripted positions in turn and records the
    scores each round is given; a round past the script raises :class:`NeedDraw`."""

    def __init__(self, positions: Iterable[int]) -> None:
        self.positions = list(positions)
        self.seen: list[list[Any]] = []

    def __call__(self, scores: Any, rng: Any = None) -> int:
        if len(self.seen) == len(self.positions):
            raise NeedDraw(list(scores))
        self.seen.append(list(scores))
        return self.positions[len(self.seen) - 1]


def with_selector(function: Any, selector: Any) -> Any:
    """A copy of the running function with ``selector`` in its round sampler's place."""
    if dataclasses.is_dataclass(function):
        return dataclasses.replace(function, selector=selector)
    clone = copy.copy(function)
    object.__setattr__(clone, "selector", selector)
    return clone


def code_paths(function: Any, scores: list[Any], limit: int = 5000
               ) -> list[tuple[tuple[int, ...], list[list[Any]], Any]]:
    """Every path of the running ``function`` on ``scores``: ``(positions, the scores each round
    was given, output)``, by running its ``__call__`` with scripted selectors; each round
    branches on every position of the scores it is given."""
    pending: list[tuple[int, ...]] = [()]
    paths = []
    while pending:
        prefix = pending.pop()
        selector = ScriptedSelector(prefix)
        try:
            output = with_selector(function, selector)(scores, NoRng())
        except NeedDraw as need:
            pending.extend(prefix + (p,) for p in range(len(need.scores)))
            continue
        paths.append((prefix, selector.seen, output))
        if len(paths) > limit:
            raise PathLimit(f"more than {limit} paths")
    return paths


def round_law(selector: Any, scores: list[Any]) -> list[Any]:
    """The real round sampler's law on ``scores``: ``exp(-gamma_i) / sum_j exp(-gamma_j)`` with
    its own exponents (report-noisy-max's rejection loop), at :data:`DIGITS` digits."""
    with mpmath.workdps(DIGITS):
        weights = [mpmath.exp(-mpmath.mpf(g.numerator) / g.denominator)
                   for g in map(Fraction, selector.gammas(scores))]
        total = mpmath.fsum(weights)
        return [w / total for w in weights]


def output_key(output: Any) -> Any:
    return tuple(output) if isinstance(output, (list, tuple)) else output


def code_top_k_distribution(m: Measurement, scores: list[Any]) -> dict[Any, Any]:
    """The law of ``m``'s running function on ``scores``: the sum over its paths of the product of
    the real selector's round laws at the scripted positions."""
    function = m.function
    law: dict[Any, Any] = {}
    cache: dict[tuple, list[Any]] = {}
    with mpmath.workdps(DIGITS):
        for positions, seen, output in code_paths(function, scores):
            probability = mpmath.mpf(1)
            for position, round_scores in zip(positions, seen):
                key = tuple(round_scores)
                if key not in cache:
                    cache[key] = round_law(function.selector, round_scores)
                law_r = cache[key]
                probability *= law_r[position] if 0 <= position < len(law_r) else 0
            key = output_key(output)
            law[key] = law.get(key, 0) + probability
    return law


class NoLaw(Exception):
    """The running code's paths on some scores carry a total probability other than 1 (a round
    stops without an output): it has no law there to compare."""


def admitted_law(m: Measurement, scores: list[Any]) -> dict[Any, Any]:
    """:func:`code_top_k_distribution`, required to be a law (total probability 1 within
    ``1e-40``); :class:`NoLaw` otherwise."""
    code = code_top_k_distribution(m, scores)
    with mpmath.workdps(DIGITS):
        total = mpmath.fsum(code.values())
        if abs(total - 1) > mpmath.mpf(10) ** -40:
            raise NoLaw(f"the paths of the running code on {scores!r} carry total probability "
                        f"{mpmath.nstr(total, 12)}, not 1")
    return code


def stated_top_k_distribution(k: int, scale: Any, optimize: str, scores: list[Any]
                              ) -> dict[Any, Any]:
    """The specification of ``make_noisy_top_k(k, scale, optimize)``: the ordered ``k``-tuple
    ``(i_1, ..., i_k)`` of distinct indices has probability ``prod_r exp(t_{i_r}) / sum_{j not in
    {i_1..i_{r-1}}} exp(t_j)``, ``t_j = o s_j / scale`` with ``o`` the stated orientation (the
    exponential mechanism peeled ``k`` times), from the arguments alone."""
    with mpmath.workdps(DIGITS):
        sigma = mpmath.mpf(Fraction(scale).numerator) / Fraction(scale).denominator
        oriented = [STATED_ORIENTATION[optimize] * Fraction(s) for s in scores]
        top = max(oriented, default=0)
        weights = [mpmath.exp((mpmath.mpf((s - top).numerator) / (s - top).denominator) / sigma)
                   for s in oriented]
        law = {}
        for chosen in itertools.permutations(range(len(scores)), k):
            probability, left = mpmath.mpf(1), set(range(len(scores)))
            for i in chosen:
                probability *= weights[i] / mpmath.fsum(weights[j] for j in sorted(left))
                left.discard(i)
            law[chosen] = probability
    return law


def law_gap(code: dict[Any, Any], stated: dict[Any, Any]) -> Any:
    """The largest difference of probability between two laws (an output of one only counts in
    full)."""
    with mpmath.workdps(DIGITS):
        return max((abs(code.get(y, 0) - stated.get(y, 0)) for y in {*code, *stated}),
                   default=mpmath.mpf(0))


def pure_loss(p: dict[Any, Any], q: dict[Any, Any]) -> Any:
    """``max_y ln(p(y) / q(y))`` (``inf`` where ``q(y) = 0 < p(y)``)."""
    with mpmath.workdps(DIGITS):
        worst = mpmath.mpf(0)
        for y, a in p.items():
            b = q.get(y, 0)
            if a > 0:
                worst = max(worst, mpmath.inf if b == 0 else mpmath.log(a / b))
        return worst


def renyi(p: dict[Any, Any], q: dict[Any, Any], alpha: Any) -> Any:
    """``D_alpha(p || q) = ln(sum_y p(y)^alpha q(y)^(1-alpha)) / (alpha - 1)``."""
    with mpmath.workdps(DIGITS):
        alpha = mpmath.mpf(alpha)
        total = mpmath.fsum(a ** alpha * q.get(y, 0) ** (1 - alpha) for y, a in p.items() if a > 0)
        return mpmath.log(total) / (alpha - 1)


ALPHAS = ("1.000001", "1.5", "2", "4", "16")
"""The Renyi orders the zCDP replay tries (1.000001 stands for the KL divergence)."""


def zcdp_excess(p: dict[Any, Any], q: dict[Any, Any], rho: Any) -> tuple[Any, str]:
    """The largest ``D_alpha(p || q) - rho alpha`` over :data:`ALPHAS`, and its order."""
    with mpmath.workdps(DIGITS):
        return max(((renyi(p, q, a) - mpmath.mpf(rho) * mpmath.mpf(a), a) for a in ALPHAS),
                   key=lambda pair: pair[0])


# --- building ---------------------------------------------------------------------------------

def _symbolic(constructor: Constructor, optimize: str = "max", measure: Any = MaxDivergence(),
              monotonic: bool = False) -> tuple[Measurement, dict, list]:
    k, scale = z3.Int("k"), z3.Real("scale")
    arguments = {"k": k, "scale": scale, "optimize": optimize, "measure": measure,
                 "monotonic": monotonic, "T": float}
    return constructor.build(**arguments), {"k": k, "scale": scale}, \
        constructor.assumptions(**arguments)


def _scales(counterexample: dict[str, Any]) -> list[float]:
    model = float(Fraction(counterexample.get("scale", 1)))
    return list(dict.fromkeys([model if math.isfinite(model) and model > 0 else 1.0,
                               1.0, 0.5, 2.0]))


def _ks(counterexample: dict[str, Any]) -> list[int]:
    model = int(counterexample.get("k", 2))
    return list(dict.fromkeys([model if 1 <= model <= 3 else 2, 1, 2, 3]))


def _build(constructor: Constructor, **arguments: Any) -> Measurement | None:
    try:
        return constructor(**arguments)
    except (ValueError, TypeError, ArithmeticError):  # refused: nothing runs
        return None


def _scripted(positions: Iterable[int]) -> str:
    """``ScriptedRng`` arguments that make equal scores peel at ``positions``: each round's
    proposal, then the 0 its acceptance coin Bernoulli(exp(-0)) draws."""
    return ", ".join(f"{p}, 0" for p in positions)


# --- goals ------------------------------------------------------------------------------------

def _kernel_goals(constructor: Constructor) -> list[Any]:
    build = lambda: constructor(k=1, scale=1.0)  # noqa: E731
    return [trusted_kernel_goal("the noisy top-k function", lambda: build().function, NoisyTopK),
            trusted_kernel_goal("its round sampler (selector)", lambda: build().function.selector,
                                NoisyMax, checked=CHECKED_KERNELS)]


def _peel_cases() -> Iterable[tuple[dict[str, Any], list[float]]]:
    """Arguments and scores, for every ``k <= PEEL_BOUND``; the callers keep the scores that the
    built input domain admits."""
    for index, scores in enumerate(PEEL_SCORES):
        for k in range(1, PEEL_BOUND + 1):
            for optimize in STATED_ORIENTATION:
                for name, measure in MEASURES.items():
                    scale = (1.0, 0.75)[(index + k) % 2]
                    yield {"k": k, "scale": scale, "optimize": optimize, "measure": measure,
                           "monotonic": index % 2 == 1}, scores


def _show(arguments: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" if k == "measure" else f"{k}={v!r}" for k, v in arguments.items())


def _call(constructor: Constructor, arguments: dict[str, Any]) -> str:
    return f"{constructor.name}({_show(arguments)})"


def _imports(constructor: Constructor) -> list[str]:
    return [import_line(constructor),
            "from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence"]


def _bad_output(output: Any, n: int, k: int, m: Measurement) -> str | None:
    if not (isinstance(output, list) and len(output) == k and all(type(i) is int for i in output)
            and all(0 <= i < n for i in output) and len(set(output)) == k):
        return f"{output!r} is not a list of {k} distinct int indices in [0, {n})"
    if not m.output_domain.member(output):
        return f"{output!r} is not in the output domain {m.output_domain}"
    return None


def _peel_replay(constructor: Constructor, outputs: bool = True) -> Callable[[dict], Replay]:
    """Runs the REAL measurement (its own selector) on equal scores of the lengths its input
    domain admits, the rng scripted to propose each path's positions (every proposal is
    accepted: all gammas are 0); confirmed when an output is not ``k`` distinct indices in
    ``[0, n)`` or the run raises on an admitted input."""
    def replay(_: dict[str, Any]) -> Replay:
        for arguments, scores in _peel_cases():
            k, n = arguments["k"], len(scores)
            m = _build(constructor, **arguments)
            equal = [0.0] * n
            if m is None or not (m.input_domain.member(scores) and m.input_domain.member(equal)):
                continue
            try:
                paths = code_paths(m.function, scores)
            except (UnscriptedRandomness, PathLimit):
                paths = []
            except Exception:  # noqa: BLE001 - the code raises while peeling: find the path
                paths = [(p, [], None)
                         for p in itertools.product(*[range(max(n - r, 1)) for r in range(k)])]
            for positions, _seen, _output in paths:
                call = _call(constructor, arguments)
                run = f"m({equal!r}, ScriptedRng({_scripted(positions)}))"
                lines = [*_imports(constructor),
                         "from obligations.make_report_noisy_max import ScriptedRng",
                         f"m = {call}"]
                try:
                    output = m(equal, ScriptedRng(*[x for p in positions for x in (p, 0)]))
                except Exception as error:  # noqa: BLE001 - a raise on an admitted input
                    if isinstance(error, ValueError) and str(error).startswith("scripted draw"):
                        continue  # the script, not the code, went out of range
                    return plain_report(True, f"{call} on {equal!r} (n = {n}, k = {k}, in the "
                                        f"input domain), positions {list(positions)}",
                                        f"raises {type(error).__name__}: {error}",
                                        *reproducer(*lines, *returns(f"output = {run}", run)))
                problem = _bad_output(output, n, k, m) if outputs else None
                if problem:
                    return plain_report(
                        True, f"{call} on {equal!r}, positions {list(positions)}", problem,
                        *reproducer(*lines, f"output = {run}",
                                    claim_assertion(
                                        f"len(set(output)) == len(output) == {k} and all(0 <= i "
                                        f"< {n} for i in output) and m.output_domain.member("
                                        "output)", f"output {{output!r}} is not {k} distinct "
                                        f"indices in [0, {n}) of the output domain")))
        return plain_report(False, "every scripted path returns k distinct indices in [0, n)")
    return replay


def peel_goal(constructor: Constructor, what: str, outputs: bool = True) -> ComputedGoal:
    """Bounded: on every path of the running ``__call__`` (scripted selector), for every
    ``k <= PEEL_BOUND`` and every score vector of ``n <= PEEL_BOUND`` candidates the built input
    domain admits, both orientations and measures: no raise, and every output is ``k`` distinct
    int indices in ``[0, n)`` in the output domain (when ``outputs``)."""
    def decide() -> Decision:
        count = 0
        for arguments, scores in _peel_cases():
            m = _build(constructor, **arguments)
            if m is None:
                return Decision(False, {"arguments": _show(arguments)},
                                "the constructor refuses admitted arguments", unsupported=True)
            if not m.input_domain.member(scores):
                continue
            try:
                paths = code_paths(m.function, scores)
            except (UnscriptedRandomness, PathLimit) as error:
                return Decision(False, {"arguments": _show(arguments)},
                                f"the function does not peel through its selector ({error})",
                                unsupported=True)
            except Exception as error:  # noqa: BLE001 - the running code raises
                return Decision(False, {"arguments": _show(arguments), "scores": repr(scores),
                                        "raised": f"{type(error).__name__}: {error}"},
                                "the function raises on an input in the input domain")
            for positions, _seen, output in paths:
                problem = _bad_output(output, len(scores), arguments["k"], m) if outputs else None
                if problem:
                    return Decision(False, {"arguments": _show(arguments),
                                            "positions": str(list(positions))}, problem)
            count += len(paths)
        if not count:
            return Decision(False, {}, "the input domain admits none of the score vectors: "
                            "nothing was run", unsupported=True)
        return Decision(True, detail=f"{count} paths, none raises" + (
            ", every output k distinct indices in [0, n) of the output domain" if outputs else ""))
    return ComputedGoal(f"{what}: on every path of the running __call__ (every k <= "
                        f"{PEEL_BOUND}, every score vector of n <= {PEEL_BOUND} candidates the "
                        "input domain admits, both orientations and measures)", "evaluation",
                        decide, _peel_replay(constructor, outputs))


def _replay_distribution(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(counterexample: dict[str, Any]) -> Replay:
        zero = [0.0] if _model_float(counterexample.get("scale")) == 0 else []
        for scale in zero + _scales(counterexample):
            for arguments, scores in _peel_cases():
                arguments = {**arguments, "scale": scale}
                if arguments["k"] > 3:
                    continue
                m = _build(constructor, **arguments)
                if m is None or not m.input_domain.member(scores):
                    continue
                try:
                    code = admitted_law(m, scores)
                except Exception:  # noqa: BLE001 - not a law; confirmed if the code itself raises
                    raised = _raises(m, scores)
                    if raised is None or not m.input_domain.member(scores):
                        continue
                    call, run = _call(constructor, arguments), f"m({_literal(scores)}, " \
                        "random.Random(0))"
                    return plain_report(
                        True, f"{call} on {_literal(scores)} (n = {len(scores)}, k = "
                        f"{arguments['k']}, an admitted input)",
                        f"the running code raises {raised}; the stated law gives its outputs "
                        "total probability 1",
                        *reproducer(*_imports(constructor), "import random", f"m = {call}",
                                    *returns(run, run)))
                stated = stated_top_k_distribution(arguments["k"], scale, arguments["optimize"],
                                                   scores)
                gap = law_gap(code, stated)
                if gap > mpmath.mpf(10) ** -40:
                    call = _call(constructor, arguments)
                    worst = max({*code, *stated}, key=lambda y: abs(code.get(y, 0)
                                                                    - stated.get(y, 0)))
                    return plain_report(
                        True, f"{call} on {scores!r}",
                        f"output {worst}: the running code draws it with probability "
                        f"{mpmath.nstr(code.get(worst, 0), 12)}, the stated peeled exponential "
                        f"mechanism with {mpmath.nstr(stated.get(worst, 0), 12)}",
                        *reproducer(*_imports(constructor), "import mpmath",
                                    "from obligations.make_noisy_top_k import (code_top_k_"
                                    "distribution, law_gap, stated_top_k_distribution)",
                                    f"code = code_top_k_distribution({call}, {scores!r})",
                                    f"stated = stated_top_k_distribution({arguments['k']}, "
                                    f"{scale!r}, {arguments['optimize']!r}, {scores!r})",
                                    claim_assertion("law_gap(code, stated) <= mpmath.mpf(10) ** "
                                                    "-40", "the running code draws {code}, "
                                                    "the stated law is {stated}")))
        return plain_report(False, "the running code's law is the stated one on the probes")
    return replay


PAIRS_N = (2, 3, 4)


def _pairs(d: float) -> Iterable[tuple[list[float], list[float]]]:
    """Every pair of distinct score vectors in ``{0, d}^n``, ``n`` in :data:`PAIRS_N`: LInf
    distance ``d``."""
    for n in PAIRS_N:
        vectors = [list(v) for v in itertools.product((0.0, d), repeat=n)]
        for s, s2 in itertools.product(vectors, repeat=2):
            if s != s2:
                yield s, s2


def _replay_privacy(constructor: Constructor, measure_name: str) -> Callable[[dict], Replay]:
    """The running code's laws on every pair of :func:`_pairs` within ``d`` under the built input
    metric (both metrics), against the built map: pure, the exact ``max_y ln(p/q)`` above
    ``map(d)``; zCDP, some ``D_alpha(p || q) > map(d) alpha``."""
    measure = MEASURES[measure_name]

    def replay(counterexample: dict[str, Any]) -> Replay:
        d_model = float(Fraction(counterexample.get("d_in", 1)))
        d_model = d_model if 0 < d_model < 1e6 else 1.0
        for scale in _scales(counterexample):
            for k in _ks(counterexample):
                for d, optimize, monotonic in itertools.product(
                        dict.fromkeys([d_model, 1.0, 2.0]), STATED_ORIENTATION, MONOTONIC):
                    arguments = {"k": k, "scale": scale, "optimize": optimize,
                                 "measure": measure, "monotonic": monotonic}
                    m = _build(constructor, **arguments)
                    if m is None:
                        continue
                    claimed = m.map(d)
                    laws: dict[tuple, Any] = {}
                    for s, s2 in _pairs(d):
                        if not (m.input_domain.member(s) and m.input_domain.member(s2)) \
                                or not m.input_metric.distance(s, s2) <= d:
                            continue
                        for v in (s, s2):
                            if tuple(v) not in laws:
                                laws[tuple(v)] = code_top_k_distribution(m, v)
                        p, q = laws[tuple(s)], laws[tuple(s2)]
                        report = _privacy_violation(constructor, arguments, measure_name,
                                                    s, s2, d, claimed, p, q)
                        if report is not None:
                            return report
        return plain_report(False, "no pair in {0, d}^n (n = 2, 3, 4) exceeds the map")
    return replay


def _privacy_violation(constructor: Constructor, arguments: dict[str, Any], measure_name: str,
                       s: list[float], s2: list[float], d: float, claimed: Any,
                       p: dict, q: dict) -> Replay | None:
    call = _call(constructor, arguments)
    setup = [*_imports(constructor), "import mpmath", f"m = {call}", f"claimed = m.map({d!r})"]
    head = [call, f"inputs s = {s!r}, s' = {s2!r} (LInf distance d_in = {d!r})",
            f"claimed  map(d_in) = {claimed!r}"]
    if measure_name == "pure":
        observed = pure_loss(p, q)
        if observed > mpmath.mpf(claimed) * (1 + mpmath.mpf(10) ** -30):
            return plain_report(
                True, *head,
                f"observed max_y ln(Pr[M(s)=y] / Pr[M(s')=y]) = {mpmath.nstr(observed, 17)}"
                "  > claimed",
                *reproducer(*setup, "from obligations.make_noisy_top_k import "
                            "code_top_k_distribution, pure_loss",
                            f"observed = pure_loss(code_top_k_distribution(m, {s!r}), "
                            f"code_top_k_distribution(m, {s2!r}))",
                            claim_assertion("observed <= mpmath.mpf(claimed) * (1 + "
                                            "mpmath.mpf(10) ** -30)",
                                            "max_y ln(Pr[M(s)=y] / Pr[M(s')=y]) = {observed} > "
                                            f"map({d!r}) = {{claimed!r}}")))
        return None
    excess, alpha = zcdp_excess(p, q, claimed)
    if excess > mpmath.mpf(10) ** -30:
        return plain_report(
            True, *head,
            f"observed D_alpha(M(s) || M(s')) - map(d_in) alpha = {mpmath.nstr(excess, 17)} > 0 "
            f"at alpha = {alpha}: not map(d_in)-zCDP",
            *reproducer(*setup, "from obligations.make_noisy_top_k import "
                        "code_top_k_distribution, zcdp_excess",
                        f"excess, alpha = zcdp_excess(code_top_k_distribution(m, {s!r}), "
                        f"code_top_k_distribution(m, {s2!r}), claimed)",
                        claim_assertion("excess <= mpmath.mpf(10) ** -30",
                                        "D_alpha(M(s) || M(s')) exceeds map(d_in) * alpha by "
                                        "{excess} at alpha = {alpha}")))
    return None


def _model_float(value: Any) -> float | None:
    """A model's value as a float (a rational, a float, a Z3 float numeral such as ``+oo``);
    ``None`` when absent or unreadable."""
    if value is None:
        return None
    try:
        return float(Fraction(value))
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        pass
    text = str(value).strip().lower().replace("+", "")
    named = {"oo": math.inf, "inf": math.inf, "-oo": -math.inf, "-inf": -math.inf,
             "nan": math.nan}
    if text in named:
        return named[text]
    try:
        return float(text)
    except ValueError:
        return None


def _literal(scores: list[float]) -> str:
    """Python source of a score list (``float('inf')`` for infinities)."""
    return "[" + ", ".join(repr(v) if math.isfinite(v) else f"float('{v}')" for v in scores) + "]"


def _raises(m: Measurement, scores: list[Any]) -> str | None:
    """``"<Exception>: <message>"`` if the real function raises on ``scores``, else ``None``."""
    try:
        m(list(scores), random.Random(0))
    except Exception as error:  # noqa: BLE001 - the code's own raise
        return f"{type(error).__name__}: {error}"
    return None


def _replay_negative_map(constructor: Constructor, measure_name: str
                         ) -> Callable[[dict], Replay]:
    """A map below 0 at some admitted ``k`` and scale: the real measurement releases some ``y`` on
    ``s = [0.0, 1.0]`` (so ``Pr[M(s) = y] > 0``), and ``s`` is within any ``d_in >= 0`` of itself,
    where ``Pr[M(s) = y] <= exp(map(d_in)) Pr[M(s) = y]`` (pure) fails as ``exp(map) < 1``, and
    ``D_alpha(M(s) || M(s)) = 0 <= map(d_in) alpha`` (zCDP) fails for every ``alpha > 1``."""
    measure = MEASURES[measure_name]

    def replay(counterexample: dict[str, Any]) -> Replay:
        model_k = counterexample.get("k")
        ks = list(dict.fromkeys(([int(model_k)] if model_k is not None else []) + [-1, 0]))
        d_model = _model_float(counterexample.get("d_in"))
        d = d_model if d_model is not None and 0 < d_model < 1e6 else 1.0
        scores = [0.0, 1.0]
        for scale in _scales(counterexample):
            for k in ks:
                arguments = {"k": k, "scale": scale, "measure": measure}
                m = _build(constructor, **arguments)
                if m is None or not m.input_domain.member(scores):
                    continue
                claimed = m.map(d)
                if not claimed < 0 or not m.input_metric.distance(scores, scores) <= d:
                    continue
                try:
                    y = m(list(scores), random.Random(0))
                except Exception:  # noqa: BLE001 - the runtime obligation's to judge
                    continue
                call = _call(constructor, arguments)
                inequality = ("Pr[M(s) = y] <= exp(map(d_in)) Pr[M(s) = y] fails: exp(map) < 1"
                              if measure_name == "pure" else
                              "D_alpha(M(s) || M(s)) = 0 <= map(d_in) alpha fails for alpha > 1")
                return plain_report(
                    True, f"{call}: map({d!r}) = {claimed!r} < 0",
                    f"on s = s' = {scores} (distance 0 <= d_in) the release {y!r} was drawn, so "
                    f"it has probability > 0; {inequality}",
                    *reproducer(*_imports(constructor), "import random", f"m = {call}",
                                f"y = m({scores!r}, random.Random(0))",
                                claim_assertion(f"m.map({d!r}) >= 0", "map = {m.map(" + repr(d)
                                                + ")!r} < 0: no mechanism has a negative "
                                                "divergence")))
        return plain_report(False, "no admitted k and scale with a negative map found")
    return replay


def _replay_runtime(constructor: Constructor) -> Callable[[dict], Replay]:
    """Runs the real measurement on seeded score vectors of ``n = 0 .. k + 2`` candidates that its
    input domain admits, at the model's scale and small ones: confirmed when a run raises."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        model_scale = _model_float(counterexample.get("scale"))
        model_score = _model_float(counterexample.get("score"))
        scales = ([0.0] if model_scale == 0 else []) + _scales(counterexample)
        for scale in scales:
            for k in _ks(counterexample):
                for optimize in STATED_ORIENTATION:
                    arguments = {"k": k, "scale": scale, "optimize": optimize}
                    m = _build(constructor, **arguments)
                    if m is None:
                        continue
                    for n in range(0, k + 3):
                        scores = [float(v) for v in random.Random(n).sample(range(-5, 6), n)]
                        if model_score is not None and n:  # the model's score first
                            scores[0] = model_score
                        if not m.input_domain.member(scores):
                            continue
                        try:
                            m(scores, random.Random(0))
                        except Exception as error:  # noqa: BLE001 - a raise on an admitted input
                            call = _call(constructor, arguments)
                            run = f"m({_literal(scores)}, random.Random(0))"
                            return plain_report(
                                True, f"{call} on {_literal(scores)} (n = {n}, k = {k}, in the "
                                "input domain)",
                                f"raises {type(error).__name__}: {error}",
                                *reproducer(*_imports(constructor), "import random",
                                            f"m = {call}", *returns(run, run)))
        return plain_report(False, "no raise on the probes")
    return replay


def selector_goals(constructor: Constructor, replay: Callable[[dict], Replay]) -> list[Any]:
    """On the running selector's own scale and kernels, both orientations: the scale is the
    argument's, > 0; the running maximum step is at least both and one of them; every
    ``gamma = rejection_gamma(o, m, scale)`` with ``o <= m`` is a defined rational ``>= 0`` (so
    the exact Bernoulli never raises); two candidates' exponents differ as the stated law's,
    ``gamma(x) - gamma(y) = t(y) - t(x)``, ``t(s) = o s / scale`` for the ARGUMENT scale and
    orientation; ``a = exp(-gamma)`` lies in ``(0, 1]``; and the built function peels ``k``
    rounds, ``k`` the argument."""
    goals: list[Any] = []
    for optimize, orientation in STATED_ORIENTATION.items():
        m, params, assumptions = _symbolic(constructor, optimize)
        f, g = m.function, m.function.selector
        scale = params["scale"]
        x, y, s, best = z3.Reals("x y s best")
        names = {**params, "running scale": g.scale, "x": x, "y": y, "s": s, "best": best}

        def gamma(score: Any) -> Any:
            return g.rejection_gamma(g.oriented(score, g.sign), best, g.scale)

        def stated(score: Any) -> Any:
            return orientation * score / scale

        step = g.best_step(best, g.oriented(x, g.sign))
        raw = g.rejection_gamma(s, best, g.scale)
        goals += [
            Z3Goal(f"({optimize}) the function peels k rounds, k the argument",
                   ops.exact(f.k) == params["k"], assumptions, names, replay),
            Z3Goal(f"({optimize}) the running selector's scale is > 0", ops.exact(g.scale) > 0,
                   assumptions, names, replay),
            Z3Goal(f"({optimize}) best_step(m, o) >= m, >= o, and is m or o",
                   z3.And(step >= best, step >= g.oriented(x, g.sign),
                          z3.Or(step == best, step == g.oriented(x, g.sign))),
                   assumptions, names, replay),
            Z3Goal(f"({optimize}) for o <= m every quotient of gamma = rejection_gamma(o, m, "
                   "scale) is defined and gamma >= 0",
                   z3.And(raw >= 0, *quotients_defined(raw)), [*assumptions, s <= best],
                   names, replay),
            Z3Goal(f"({optimize}) the exponents of two candidates differ as the stated law's: "
                   "gamma(x) - gamma(y) = t(y) - t(x), t(s) = o s / scale (argument scale and "
                   "orientation)", gamma(x) - gamma(y) == stated(y) - stated(x),
                   [*assumptions, g.oriented(x, g.sign) <= best, g.oriented(y, g.sign) <= best],
                   names, replay),
            Z3Goal(f"({optimize}) a = exp(-gamma) lies in (0, 1] for gamma >= 0 (exp facts)",
                   z3.And(0 < EXP(-raw), EXP(-raw) <= 1),
                   [*assumptions, s <= best, *exp_facts(-raw), exp_monotone(-raw, 0)],
                   names, replay),
        ]
    return goals


def round_law_goals(replay: Callable[[dict], Replay]) -> list[Any]:
    """Report-noisy-max's rejection loop, for any exponents meeting :func:`selector_goals`:
    ``a_x = K exp(t_x)`` with one ``K > 0``; the sum ``S`` of the ``a_j`` over the ``n``
    remaining candidates is ``K T`` with ``0 < S <= n`` (induction over the candidates); each
    round of the loop returns ``i`` with ``a_i / n`` and repeats with ``r = 1 - S/n < 1``, so
    ``P = a_i / n + r P`` only for ``P = a_i / S = exp(t_i) / T``."""
    def geometric() -> Decision:
        ratio, step, rounds = sympy.symbols("r j N", nonnegative=True)
        partial = sympy.summation(ratio ** step, (step, 0, rounds - 1))
        general = [expr for expr, condition in partial.args if condition == sympy.true] \
            if isinstance(partial, sympy.Piecewise) else [partial]
        if general and sympy.cancel(general[0] - (1 - ratio ** rounds) / (1 - ratio)) == 0:
            return Decision(True, detail=f"sum_(j<N) r^j = {general[0]} for r != 1, which tends "
                                         "to 1/(1-r) for 0 <= r < 1")
        return Decision(False, {"sum": str(partial)}, "sum_(j<N) r^j is not (1-r^N)/(1-r)")

    a, e, total, weights, n, common = z3.Reals("a e S T n K")
    g_x, g_y, t_x, t_y, p_round, p_return = z3.Reals("gamma_x gamma_y t_x t_y r P")
    offset = -(g_y + t_y)
    invariant = lambda total, weights, n: z3.And(  # noqa: E731
        0 <= total, total <= n, total == common * weights, 0 <= weights,
        z3.Implies(n >= 1, z3.And(total > 0, weights > 0)))
    return [
        Z3Goal("termwise: gamma_x - gamma_y = t_y - t_x gives a_x = exp(-gamma_x) = K exp(t_x), "
               "K = exp(-(gamma_y + t_y)) > 0 the same for every x",
               z3.And(EXP(-g_x) == EXP(offset) * EXP(t_x), EXP(offset) > 0),
               [g_x - g_y == t_y - t_x, exp_product(offset, t_x), *exp_facts(offset)],
               {"gamma_x": g_x, "gamma_y": g_y, "t_x": t_x, "t_y": t_y}, replay),
        Z3Goal("induction over the remaining candidates, base: S_0 = T_0 = 0",
               invariant(z3.RealVal(0), z3.RealVal(0), z3.RealVal(0)), [common > 0],
               {"K": common}, replay),
        Z3Goal("step: adding a_j = K exp(t_j) in (0, 1] keeps 0 <= S <= n, S = K T, and S, T > 0 "
               "once n >= 1",
               invariant(total + a, weights + e, n + 1),
               [invariant(total, weights, n), n >= 0, common > 0, 0 < a, a <= 1,
                a == common * e, e > 0],
               {"S": total, "T": weights, "n": n, "a": a, "e": e, "K": common}, replay),
        Z3Goal("one round returns i with a_i/n and repeats with r = 1 - S/n in [0, 1): "
               "P = a_i/n + r P only as P = a_i/S = exp(t_i)/T, the exponential mechanism",
               z3.And(0 <= p_round, p_round < 1, p_return == a / total, p_return == e / weights),
               [n >= 1, 0 < total, total <= n, 0 < a, a <= 1, common > 0, a == common * e,
                total == common * weights, p_round == 1 - total / n,
                p_return == a / n + p_round * p_return],
               {"n": n, "S": total, "a": a, "r": p_round, "P": p_return}, replay),
        ComputedGoal("the first N rounds return i with probability a_i/n (1 - r^N)/(1 - r), "
                     "tending to (a_i/n)/(1 - r): the loop returns with probability 1 (SymPy)",
                     "sympy", geometric),
    ]


def distribution_goals(constructor: Constructor) -> list[Any]:
    replay = _replay_distribution(constructor)

    def peeled_law() -> Decision:
        count = 0
        for arguments, scores in _peel_cases():
            m = _build(constructor, **arguments)
            if m is None:
                return Decision(False, {"arguments": _show(arguments)},
                                "the constructor refuses admitted arguments", unsupported=True)
            if not m.input_domain.member(scores):
                continue
            try:
                code = admitted_law(m, scores)
            except (UnscriptedRandomness, PathLimit) as error:
                return Decision(False, {"arguments": _show(arguments)},
                                f"the function does not peel through its selector ({error})",
                                unsupported=True)
            except Exception as error:  # noqa: BLE001 - the running code raises
                return Decision(False, {"arguments": _show(arguments), "scores": repr(scores),
                                        "raised": f"{type(error).__name__}: {error}"},
                                "the function raises (or a path stops without an output) on an "
                                "input in the input domain, so it has no law there (a runtime "
                                "error: see runtime_errors)", unsupported=True)
            stated = stated_top_k_distribution(arguments["k"], arguments["scale"],
                                               arguments["optimize"], scores)
            gap = law_gap(code, stated)
            if gap > mpmath.mpf(10) ** -40:
                return Decision(False, {"arguments": _show(arguments), "scores": repr(scores),
                                        "gap": mpmath.nstr(gap, 12)},
                                "the running code's law is not the stated peeled exponential "
                                "mechanism")
            count += 1
        if not count:
            return Decision(False, {}, "the input domain admits none of the score vectors: "
                            "nothing was compared", unsupported=True)
        return Decision(True, detail=f"{count} cases: the law computed from the running code "
                                     "equals the stated one within 1e-40")

    return [*_kernel_goals(constructor), *selector_goals(constructor, replay),
            *round_law_goals(replay),
            ComputedGoal(f"the peeled law: the running __call__ on every path, with the real "
                         f"selector's law per round, is the stated product law (every k <= "
                         f"{PEEL_BOUND}, every score vector of n <= {PEEL_BOUND} candidates the "
                         "input domain admits, both orientations and measures; 1e-40)",
                         "evaluation", peeled_law, replay)]


STATED_WIDTH = {LInfDistance: 2, MonotonicLInfDistance: 1}
"""The specification of each input metric's changes: between two candidates, the scores' changes
differ by at most ``w d_in`` (``|s_j - s'_j| <= d_in`` each way: ``w = 2``; all moving the same
way by at most ``d_in``: ``w = 1``)."""
MONOTONIC = (False, True)


def metric_goal(constructor: Constructor) -> ComputedGoal:
    """The built input metric is the one asked for (``monotonic``), and one whose changes the
    specification states (:data:`STATED_WIDTH`); another metric is outside the proof method."""
    asked = {False: LInfDistance, True: MonotonicLInfDistance}

    def decide() -> Decision:
        for monotonic in MONOTONIC:
            metric = constructor(k=1, scale=1.0, monotonic=monotonic).input_metric
            if type(metric) not in STATED_WIDTH:
                return Decision(False, {"metric": str(metric)}, "the proof is for the LInf "
                                "metrics (both ways or monotonic)", unsupported=True)
            if type(metric) is not asked[monotonic]:
                return Decision(False, {"monotonic": str(monotonic), "metric": str(metric)},
                                "the built input metric is not the one asked for")
        return Decision(True, detail="monotonic=False: LInfDistance(); monotonic=True: "
                                     "MonotonicLInfDistance()")
    return ComputedGoal("the built input metric is the one asked for, an LInf metric whose "
                        "changes are stated", "structure", decide)


def interval_goals(replay: Callable[[dict], Replay]) -> list[Z3Goal]:
    """What each metric gives one pair of inputs: every stated exponent's change
    ``u_j = t_j - t'_j = o (s_j - s'_j) / scale`` lies in one interval ``[lo, hi]``, the same for
    every candidate, of width ``hi - lo = w d_in / scale``."""
    x, x2, d, scale, o, direction = z3.Reals("s s2 d_in scale o dir")
    u = o * (x - x2) / scale
    names = {"scale": scale, "d_in": d, "s": x, "s2": x2, "o": o}
    base = [scale > 0, d >= 0, z3.Or(o == 1, o == -1)]
    lo, hi = -d / scale, d / scale
    m_lo, m_hi = (o * direction - 1) / 2 * d / scale, (o * direction + 1) / 2 * d / scale
    return [
        Z3Goal("LInfDistance: |s_j - s'_j| <= d_in gives u_j in [-d_in/scale, d_in/scale], width "
               "2 d_in/scale", z3.And(lo <= u, u <= hi, hi - lo == STATED_WIDTH[LInfDistance]
                                      * d / scale),
               [*base, ops.absolute(x - x2) <= d], names, replay),
        Z3Goal("MonotonicLInfDistance: 0 <= dir (s_j - s'_j) <= d_in for every j, one direction "
               "dir = +-1, gives u_j in [lo, hi] = [(o dir - 1)/2, (o dir + 1)/2] d_in/scale "
               "(the same for every j), width d_in/scale",
               z3.And(m_lo <= u, u <= m_hi,
                      m_hi - m_lo == STATED_WIDTH[MonotonicLInfDistance] * d / scale),
               [*base, z3.Or(direction == 1, direction == -1), 0 <= direction * (x - x2),
                direction * (x - x2) <= d], {**names, "dir": direction}, replay),
    ]


INFINITE_PROBES = tuple(itertools.product((0, 1, 2), (1.0, 0.5), MONOTONIC))
"""``(k, scale, monotonic)`` at which the built map is evaluated at ``d_in = +inf``, ``k = 0``
included: the constructor must refuse what it cannot bound there."""


def _infinite_distance_problem(constructor: Constructor, measure_name: str
                               ) -> tuple[int, tuple[dict[str, Any], str] | None]:
    """``(builds that ran, the first whose map at +inf raises or is NaN or below 0)``."""
    ran = 0
    for k, scale, monotonic in INFINITE_PROBES:
        arguments = {"k": k, "scale": scale, "measure": MEASURES[measure_name],
                     "monotonic": monotonic}
        m = _build(constructor, **arguments)
        if m is None:
            continue
        ran += 1
        try:
            value = m.map(math.inf)
        except Exception as error:  # noqa: BLE001 - a map that raises claims nothing
            return ran, (arguments, f"raises {type(error).__name__}: {error}")
        if not isinstance(value, (int, float)) or value != value or value < 0:
            return ran, (arguments, f"= {value!r}, not a bound")
    return ran, None


def _replay_infinite_distance(constructor: Constructor, measure_name: str
                              ) -> Callable[[dict], Replay]:
    def replay(_: dict[str, Any]) -> Replay:
        _, found = _infinite_distance_problem(constructor, measure_name)
        if found is None:
            return plain_report(False, "the map is a bound at d_in = +inf on every build")
        arguments, what = found
        call = _call(constructor, arguments)
        return plain_report(
            True, f"{call}: map(+inf) {what}",
            "inputs at LInf distance +inf (a score changed by any amount): no finite or NaN "
            "value bounds every loss, and a NaN bounds none",
            *reproducer(*_imports(constructor), "import math", f"m = {call}", "try:",
                        "    value = m.map(math.inf)", "except Exception as error:",
                        "    value = error",
                        claim_assertion("isinstance(value, float) and value == math.inf",
                                        "map(+inf) = {value!r}, not +inf")))
    return replay


def infinite_distance_goal(constructor: Constructor, measure_name: str) -> ComputedGoal:
    """Evaluated: at ``d_in = +inf`` the built map returns a number ``>= 0`` (not NaN, no raise)
    on :data:`INFINITE_PROBES`; the solver goals take ``d_in`` real (finite)."""
    def decide() -> Decision:
        ran, found = _infinite_distance_problem(constructor, measure_name)
        if not ran:  # a bounded check counts only the cases that ran
            return Decision(False, {"probes": len(INFINITE_PROBES)}, "the constructor refused "
                            "every probe: nothing was checked", unsupported=True)
        if found is None:
            return Decision(True, detail=f"{ran} of {len(INFINITE_PROBES)} builds (k = 0 "
                            "refused)" if ran < len(INFINITE_PROBES) else f"{ran} builds")
        arguments, what = found
        return Decision(False, {"arguments": _show(arguments)}, f"map(+inf) {what}")
    return ComputedGoal(f"evaluated ({measure_name}): map(+inf) is a bound (a number >= 0, not "
                        "NaN, no raise) on builds of k in {0, 1, 2} that the constructor admits",
                        "evaluation", decide, _replay_infinite_distance(constructor,
                                                                        measure_name))


def pure_privacy_goals(constructor: Constructor) -> list[Any]:
    replay = _replay_privacy(constructor, "pure")
    build = lambda: constructor(k=2, scale=1.0, measure=MaxDivergence())  # noqa: E731
    t, t2, lo, hi = z3.Reals("t t2 lo hi")
    a, a2, total, total2, big = z3.Reals("a a2 S S2 K")
    p, p2, q, q2, eps, r = z3.Reals("P P2 Q Q2 eps r")
    goals: list[Any] = [
        metric_goal(constructor), exact_noise_goal(build), *_kernel_goals(constructor),
        *interval_goals(replay), infinite_distance_goal(constructor, "pure"),
        Z3Goal("termwise, on the stated law: lo <= t - t' <= hi gives exp(t) <= exp(hi) exp(t') "
               "and exp(t') <= exp(-lo) exp(t)",
               z3.And(EXP(t) <= EXP(hi) * EXP(t2), EXP(t2) <= EXP(-lo) * EXP(t)),
               [lo <= t - t2, t - t2 <= hi, exp_product(t - t2, t2), exp_product(t2 - t, t),
                exp_monotone(t - t2, hi), exp_monotone(t2 - t, -lo), *exp_facts(t, t2, hi, -lo)],
               {"t": t, "t2": t2, "lo": lo, "hi": hi}, replay),
        Z3Goal("induction over the remaining candidates: S <= K S' survives adding a_j <= K a'_j "
               "(base 0 <= K 0)",
               z3.And(0 <= big * 0, total + a <= big * (total2 + a2)),
               [big > 0, total <= big * total2, a <= big * a2],
               {"S": total, "S2": total2, "K": big}, replay),
        Z3Goal("one round: Pr[i] = a_i/S <= exp(hi - lo) a'_i/S' from a_i <= exp(hi) a'_i and "
               "S' <= exp(-lo) S",
               a / total <= EXP(hi - lo) * (a2 / total2),
               [total > 0, total2 > 0, a > 0, a2 > 0, a <= EXP(hi) * a2,
                total2 <= EXP(-lo) * total, exp_product(hi, -lo), *exp_facts(hi, -lo)],
               {"lo": lo, "hi": hi}, replay),
        Z3Goal("induction over the rounds: P_r <= exp(r eps) P'_r and a round's Q <= exp(eps) Q' "
               "give P_r Q <= exp((r + 1) eps) P'_r Q' (base P_0 = P'_0 = 1 = exp(0))",
               z3.And(EXP(0 * eps) == 1, p * q <= EXP((r + 1) * eps) * (p2 * q2)),
               [r >= 0, eps >= 0, p >= 0, p2 >= 0, q >= 0, q2 >= 0, p <= EXP(r * eps) * p2,
                q <= EXP(eps) * q2, exp_product(r * eps, eps), *exp_facts(r * eps, eps)],
               {"P": p, "P2": p2, "Q": q, "Q2": q2, "eps": eps, "r": r}, replay),
    ]
    for monotonic in MONOTONIC:
        for optimize in STATED_ORIENTATION:
            m, params, assumptions = _symbolic(constructor, optimize, MaxDivergence(), monotonic)
            k, sigma = params["k"], params["scale"]
            width = STATED_WIDTH.get(type(m.input_metric))
            if width is None:
                continue  # metric_goal: unsupported
            dd = z3.Real("d_in")
            names = {**params, "d_in": dd}
            epsilon, bound = m.map(dd), k * (width * dd / sigma)
            tag = f"({optimize}, {m.input_metric})"
            goals += [
                Z3Goal(f"{tag} the built map is at least k w d_in / scale, w = {width} (k rounds, "
                       "the arguments' k and scale)", epsilon >= bound,
                       [*assumptions, dd >= 0], names, replay),
                Z3Goal(f"{tag} the built map is >= 0 (no divergence is negative), scale > 0 "
                       "(on solver terms a quotient by 0 is undefined)",
                       epsilon >= 0, [*assumptions, dd >= 0, sigma > 0], names,
                       _replay_negative_map(constructor, "pure")),
                Z3Goal(f"{tag} k rounds: Pr[M(s) = y] <= exp(k w d_in/scale) Pr[M(s') = y] "
                       "<= exp(map(d_in)) Pr[M(s') = y]",
                       p <= EXP(epsilon) * p2,
                       [*assumptions, dd >= 0, p >= 0, p2 >= 0, epsilon >= bound,
                        p <= EXP(bound) * p2, exp_monotone(bound, epsilon), *exp_facts(bound)],
                       {**names, "P": p, "P2": p2}, replay),
            ]
    return goals


def zcdp_privacy_goals(constructor: Constructor) -> list[Any]:
    replay = _replay_privacy(constructor, "zCDP")
    build = lambda: constructor(k=2, scale=1.0, measure=ZeroConcentratedDivergence())  # noqa
    u_i, u_j, lo, hi = z3.Reals("u_i u_j lo hi")
    goals: list[Any] = [
        metric_goal(constructor), exact_noise_goal(build), *_kernel_goals(constructor),
        *interval_goals(replay), infinite_distance_goal(constructor, "zCDP"),
        Z3Goal("bounded range (Cesar-Rogers' premise), on the stated law: ln(Pr[i]/Pr'[i]) - "
               "ln(Pr[j]/Pr'[j]) = u_i - u_j (the normalisers cancel) <= eta = hi - lo for u_i, "
               "u_j in [lo, hi]: exp(u_i) <= exp(eta) exp(u_j)",
               EXP(u_i) <= EXP(hi - lo) * EXP(u_j),
               [lo <= u_i, u_i <= hi, lo <= u_j, u_j <= hi, exp_monotone(u_i, hi - lo + u_j),
                exp_product(hi - lo, u_j), *exp_facts(u_j, hi - lo)],
               {"u_i": u_i, "u_j": u_j, "lo": lo, "hi": hi}, replay),
    ]
    for monotonic in MONOTONIC:
        for optimize in STATED_ORIENTATION:
            m, params, assumptions = _symbolic(constructor, optimize, ZeroConcentratedDivergence(),
                                               monotonic)
            k, sigma = params["k"], params["scale"]
            width = STATED_WIDTH.get(type(m.input_metric))
            if width is None:
                continue  # metric_goal: unsupported
            dd = z3.Real("d_in")
            rho = m.map(dd)
            eta_d = width * dd / sigma
            goals.append(Z3Goal(f"({optimize}, {m.input_metric}) the built map is at least "
                                f"k eta^2 / 8, eta = w d_in / scale, w = {width} (the arguments' "
                                "k and scale)", rho >= k * eta_d * eta_d / 8,
                                [*assumptions, dd >= 0], {**params, "d_in": dd}, replay))
            goals.append(Z3Goal(f"({optimize}, {m.input_metric}) the built map is >= 0 (no "
                                "divergence is negative), scale > 0 (on solver terms a quotient "
                                "by 0 is undefined)", rho >= 0, [*assumptions, dd >= 0, sigma > 0],
                                {**params, "d_in": dd},
                                _replay_negative_map(constructor, "zCDP")))
    return goals


def measure_goal(constructor: Constructor) -> ComputedGoal:
    """The built output measure is the one asked for (the map's guarantee is for that measure)."""
    def decide() -> Decision:
        for name, measure in MEASURES.items():
            built = constructor(k=1, scale=1.0, measure=measure).output_measure
            if type(built) is not type(measure):
                return Decision(False, {"asked": str(measure), "built": str(built)},
                                "the built output measure is not the one asked for")
        return Decision(True, detail="MaxDivergence() and ZeroConcentratedDivergence() kept")
    return ComputedGoal("the built output measure is the one asked for", "structure", decide)


def length_goals(constructor: Constructor, outputs: bool) -> list[Any]:
    """Every length the running input domain admits is at least the number of rounds the running
    function peels (its ``k``), for a solver ``k`` and ``scale``, both orientations, measures and
    metrics: every admitted input has a candidate for each round. A counterexample is replayed
    on the shorter vectors the built domain admits (a raise confirms; with ``outputs``, an output
    outside the output domain too)."""
    replay = replay_short_input(constructor, [{"k": k, "scale": 1.0, "optimize": optimize}
                                              for k in (1, 2, 3) for optimize in
                                              STATED_ORIENTATION], lambda a: a["k"], outputs)
    goals: list[Any] = []
    for optimize, measure, monotonic in itertools.product(STATED_ORIENTATION, MEASURES.values(),
                                                          MONOTONIC):
        m, params, assumptions = _symbolic(constructor, optimize, measure, monotonic)
        label = f"({optimize}, {measure}, {m.input_metric})"
        rounds = getattr(m.function, "k", None)
        if rounds is None:
            def outside() -> Decision:
                return Decision(False, {"function": type(m.function).__name__},
                                "the function holds no k (the rounds it peels)",
                                unsupported=True)
            goals.append(ComputedGoal(f"{label} the function's rounds are read", "structure",
                                      outside))
            continue
        goals.append(admitted_lengths_goal(label, m, ops.exact(rounds), "k, the rounds the "
                                           "running function peels", assumptions, params,
                                           replay))
    return goals


def finite_scores_goal(constructor: Constructor, replay: Callable[[dict], Replay]) -> Z3Goal:
    """Every float score the running input domain admits is finite (the selector reads scores as
    exact rationals; ``Fraction(inf)`` raises)."""
    m = constructor(k=1, scale=1.0)
    x = z3.FP("score", z3.Float64())
    element = getattr(m.input_domain, "element", None)
    admitted = ops.to_bool(element.contains(x)) if element is not None else z3.BoolVal(True)
    return Z3Goal("every float score the running input domain admits is finite (binary64, inf "
                  "and NaN included)", ops.to_bool(ops.is_finite(x)), [admitted], {"score": x},
                  replay)


@reviewed
def noisy_top_k_obligations(constructor: Constructor = make_noisy_top_k,
                            prefix: str = "noisy_top_k") -> tuple[Obligation, ...]:

    def output_goals() -> list[Any]:
        return [*_kernel_goals(constructor), *length_goals(constructor, outputs=True),
                witness_goal(constructor, {"k": 2, "scale": 1.0}, inputs=[[0.5, 1.0],
                                                                        [1.0, 3.0, -2.0]],
                             draws=3),
                witness_goal(constructor, {"k": 3, "scale": 2.0, "optimize": "min",
                                           "measure": ZeroConcentratedDivergence(),
                                           "monotonic": True},
                             {"k": 3, "scale": 2.0, "optimize": "min",
                              "measure": ZeroConcentratedDivergence(), "monotonic": True},
                             inputs=[[1.0, 3.0, -2.0, 3.0]], draws=3),
                peel_goal(constructor, "every output is k distinct int indices in [0, n)")]

    def runtime_goals() -> list[Any]:
        replay = _replay_runtime(constructor)
        return [*_kernel_goals(constructor), *length_goals(constructor, outputs=False),
                finite_scores_goal(constructor, replay),
                *[g for g in selector_goals(constructor, replay)
                  if "peels" not in g.name and "differ" not in g.name and "(0, 1]" not in g.name],
                peel_goal(constructor, "no raise on an admitted input", outputs=False)]

    formulas = {"pure": "k w d_in / scale", "zCDP": "k (w d_in / scale)^2 / 8"}

    def rounding(measure_name: str, monotonic: bool) -> Obligation:
        fixed = {"optimize": "max", "measure": MEASURES[measure_name], "monotonic": monotonic}
        return map_rounding_obligation(
            prefix, symbolic_build(constructor, floats=("scale",), integers=("k",),
                                   fixed={**fixed, "T": float}), real_d_in,
            replay_rounding(constructor, parameter_candidates(("scale",), ("k",), fixed=fixed)),
            f"{formulas[measure_name]} (w = {1 if monotonic else 2})")

    pure_rounding = rounding("pure", False)

    def rounding_goals() -> list[Any]:
        return [goal for name, monotonic in itertools.product(MEASURES, MONOTONIC)
                for goal in rounding(name, monotonic).goals()]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every score vector s in the input domain (n >= k candidates: the domain "
                   "admits no shorter vector) the output is a list of k distinct int indices in "
                   "[0, n): each round pops its index from the candidates not drawn yet.",
                   r"\forall s \in \mathtt{input\_domain}:\ n = |s| \ge k,\ "
                   r"\mathtt{function}(s) = (i_1, \dots, i_k),\ i_r \in \{0, \dots, n - 1\}\ "
                   r"\text{distinct}",
                   output_goals, bound=BOUNDED),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "LInf distance is defined on the input vector domain of vectors of at least k "
                   "finite, non-NaN scores.",
                   r"d_{\infty} \sim \mathrm{VectorDomain}(\mathrm{AtomDomain}(T), "
                   r"\mathtt{min\_size} = k)",
                   lambda: [compatibility_goal(
                       constructor, lambda: [_symbolic(constructor, o, measure, monotonic)[0]
                                             for o in STATED_ORIENTATION
                                             for measure in MEASURES.values()
                                             for monotonic in MONOTONIC]
                       + [constructor.build(k=1, scale=1.0, optimize="max", T=int)],
                       {"k": 1, "scale": 1.0})]),
        Obligation(f"{prefix}.runtime_errors", Kind.RUNTIME_ERRORS,
                   "function(s) raises on no s in the input domain: the domain admits only "
                   "vectors of n >= k finite scores, so the peeling never runs out of candidates "
                   "(round r is given n - r + 1 >= 1 scores), and every round's exponents are "
                   "defined rationals >= 0, so the exact Bernoulli never raises.",
                   r"\forall s \in \mathtt{input\_domain}:\ |s| \ge k,\ "
                   r"\mathtt{function}(s)\ \text{returns}",
                   runtime_goals, bound=BOUNDED),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "The output (i_1, ..., i_k) has probability prod_r exp(o s_{i_r}/scale) / "
                   "sum_{j in R_r} exp(o s_j/scale), R_r the candidates not drawn before round "
                   "r: each round is report-noisy-max's exact rejection sampler, whose exponents "
                   "differ as the stated law's (proved on the running kernels for every number "
                   "of candidates), run on the remaining scores.",
                   r"\Pr[M(s) = (i_1, \dots, i_k)] = \prod_{r=1}^{k} \frac{e^{o s_{i_r}/"
                   r"\mathtt{scale}}}{\sum_{j \in R_r} e^{o s_j/\mathtt{scale}}}",
                   lambda: distribution_goals(constructor), cites=(BERNOULLI_EXP,),
                   bound=BOUNDED),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "MaxDivergence: if d(s, s') <= d_in under the built LInf metric then "
                   "Pr[M(s) = y] <= exp(map(d_in)) Pr[M(s') = y]: the score changes u_j = "
                   "o (s_j - s'_j)/scale lie in one interval of width w d_in/scale (w = 2; w = 1 "
                   "when all move the same way, monotonic); each round, on the remaining scores, "
                   "is the exponential mechanism, (w d_in/scale)-DP (termwise bound, induction "
                   "over the candidates); the k rounds' ratios multiply (induction over the "
                   "rounds) to exp(k w d_in/scale) <= exp(map(d_in)).",
                   r"d(s, s') \le d_{in} \implies \frac{\Pr[M(s) = y]}{\Pr[M(s') = y]} "
                   r"\le e^{k w d_{in}/\mathtt{scale}} \le e^{\mathtt{map}(d_{in})}",
                   lambda: [measure_goal(constructor), *pure_privacy_goals(constructor)],
                   uses=(f"{prefix}.distribution", f"{prefix}.map_rounding"),
                   bound=LAW_BOUNDED),
        Obligation(f"{prefix}.privacy_zcdp", Kind.PRIVACY,
                   "ZeroConcentratedDivergence: each round, on the remaining scores, is "
                   "eta-bounded-range with eta = w d_in/scale (w = 2, or 1 for the monotonic "
                   "metric; the ratio of ratios of the stated law), hence eta^2/8-zCDP (cited), "
                   "and the k adaptive rounds compose (cited) to k eta^2/8 <= map(d_in).",
                   r"d(s, s') \le d_{in} \implies D_\alpha(M(s) \| M(s')) \le "
                   r"\alpha \cdot \frac{k}{8}\left(\frac{w d_{in}}{\mathtt{scale}}\right)^2 \le "
                   r"\alpha \cdot \mathtt{map}(d_{in})",
                   lambda: [measure_goal(constructor), *zcdp_privacy_goals(constructor)],
                   uses=(f"{prefix}.distribution", f"{prefix}.map_rounding"),
                   cites=(CESAR_ROGERS, BUN_STEINKE), bound=LAW_BOUNDED),
        dataclasses.replace(pure_rounding, goals=rounding_goals,
                            statement=pure_rounding.statement.replace(
                                "k w d_in / scale (w = 2)", "k w d_in / scale (MaxDivergence) "
                                "and k (w d_in / scale)^2 / 8 (zCDP), w = 2 or 1 (monotonic)")),
    )


IMPORT = "from mechanisms.make_noisy_top_k import make_noisy_top_k"


def catalogue_entry() -> Entry:
    return Entry("make_noisy_top_k", make_noisy_top_k, noisy_top_k_obligations(),
                 "top-k selection: the exponential mechanism peeled k times",
                 (example("make_noisy_top_k(2, 1.0)", IMPORT),
                  example("make_noisy_top_k(2, 2.0, optimize='min')", IMPORT)), proof=True)
