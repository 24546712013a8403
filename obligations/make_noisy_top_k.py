"""Obligations of ``make_noisy_top_k``, for every ``k >= 1``, every ``scale > 0``, both
orientations and both output measures.

The law the function samples is computed from the running code: its ``__call__`` is run on every
path of positions, with a scripted selector in place of the round sampler that records the scores
each round is given; the probability of a path is the product of the real round sampler's law on
those scores, read from its own acceptance exponents ``gamma`` (report-noisy-max's rejection
sampler: ``Pr[i] = exp(-gamma_i) / sum_j exp(-gamma_j)``, proved again here for the running
kernels: the selector's goals are report-noisy-max's, on its own scale and orientation). That
computation covers ``n <= 5`` candidates (every ``k <= n``), and the verdicts say so; the round
law, the per-round privacy, the sub-vector lemma and the composition over rounds are proved for
every ``k`` and every number of candidates.

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
import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.make_noisy_top_k import NoisyTopK, make_noisy_top_k
from mechanisms.make_report_noisy_max import NoisyMax
from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence
from mechanisms.metrics import LInfDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.kernels import trusted_kernel_goal
from obligations.make_randomized_response import EXP, exp_facts
from obligations.make_report_noisy_max import (BERNOULLI_EXP, CHECKED_KERNELS, ScriptedRng,
                                               exp_monotone, exp_product, quotients_defined)
from obligations.noise import exact_noise_goal
from obligations.reports import (claim_assertion, constructor_call, import_line, literal,
                                 plain_report, reproducer, returns)
from obligations.rounding import (map_rounding_obligation, parameter_candidates, real_d_in,
                                  replay_rounding, symbolic_build)
from obligations.witnesses import witness_goal

CESAR_ROGERS = ("Cesar and Rogers 2021, 'Bounding, Concentrating, and Truncating: Unifying "
                "Privacy Loss Composition for Data Analytics' (ALT): an eta-bounded-range "
                "mechanism is (eta^2/8)-zCDP")
BUN_STEINKE = "Bun and Steinke 2016, Lemma 2.3 (adaptive composition of zCDP)"
STATED_ORIENTATION = {"max": 1, "min": -1}
"""The specification: ``optimize="max"`` favours the largest scores, ``"min"`` the smallest."""
MEASURES = {"pure": MaxDivergence(), "zCDP": ZeroConcentratedDivergence()}
PEEL_BOUND = 5
"""The peeling (the running ``__call__``) is run on every path for up to this many candidates."""
PEEL_SCORES = ([0.0], [1.0, -0.5], [0.5, 2.0, -1.0], [0.0, 1.0, 3.0, -2.0],
               [1.0, 0.25, -0.5, 2.0, 0.25])
"""Score vectors of 1 to :data:`PEEL_BOUND` candidates (distinct values, and one tie)."""
DIGITS = 50
BOUNDED = (f"the peeling (the running __call__) is run on every path for n <= {PEEL_BOUND} "
           "candidates and every k <= n")


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


def stated_top_k_distribution(k: int, scale: Any, optimize: str, scores: list[Any]
                              ) -> dict[Any, Any]:
    """The specification of ``make_noisy_top_k(k, scale, optimize)``: the ordered ``k``-tuple
    ``(i_1, ..., i_k)`` of distinct indices has probability ``prod_r exp(t_{i_r}) / sum_{j not in
    {i_1..i_{r-1}}} exp(t_j)``, ``t_j = o s_j / scale`` with ``o`` the stated orientation (the
    exponential mechanism peeled ``k`` times), from the arguments alone."""
    with mpmath.workdps(DIGITS):
        sigma = mpmath.mpf(Fraction(scale).numerator) / Fraction(scale).denominator
        oriented = [STATED_ORIENTATION[optimize] * Fraction(s) for s in scores]
        top = max(oriented)
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

def _symbolic(constructor: Constructor, optimize: str = "max", measure: Any = MaxDivergence()
              ) -> tuple[Measurement, dict, list]:
    k, scale = z3.Int("k"), z3.Real("scale")
    arguments = {"k": k, "scale": scale, "optimize": optimize, "measure": measure, "T": float}
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
    for index, scores in enumerate(PEEL_SCORES):
        for k in range(1, len(scores) + 1):
            for optimize in STATED_ORIENTATION:
                for name, measure in MEASURES.items():
                    scale = (1.0, 0.75)[(index + k) % 2]
                    yield {"k": k, "scale": scale, "optimize": optimize, "measure": measure}, scores


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
    """Runs the REAL measurement (its own selector) on equal scores, the rng scripted to propose
    each path's positions (every proposal is accepted: all gammas are 0); confirmed when an
    output is not ``k`` distinct indices in ``[0, n)`` or the run raises on ``n >= k``."""
    def replay(_: dict[str, Any]) -> Replay:
        for arguments, scores in _peel_cases():
            k, n = arguments["k"], len(scores)
            m = _build(constructor, **arguments)
            if m is None:
                continue
            try:
                paths = code_paths(m.function, scores)
            except (UnscriptedRandomness, PathLimit):
                paths = []
            except Exception:  # noqa: BLE001 - the code raises while peeling: find the path
                paths = [(p, [], None) for p in itertools.product(range(n), repeat=k)]
            for positions, _seen, _output in paths:
                equal = [0.0] * n
                call = _call(constructor, arguments)
                run = f"m({equal!r}, ScriptedRng({_scripted(positions)}))"
                lines = [*_imports(constructor),
                         "from obligations.make_report_noisy_max import ScriptedRng",
                         f"m = {call}"]
                try:
                    output = m(equal, ScriptedRng(*[x for p in positions for x in (p, 0)]))
                except Exception as error:  # noqa: BLE001 - a raise on an admitted input
                    return plain_report(True, f"{call} on {equal!r} (n = {n} >= k = {k}), "
                                        f"positions {list(positions)}",
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
    """Bounded: on every path of the running ``__call__`` (scripted selector), for
    ``n <= PEEL_BOUND``, every ``k <= n``, both orientations and measures: no raise, and every
    output is ``k`` distinct int indices in ``[0, n)`` in the output domain (when ``outputs``)."""
    def decide() -> Decision:
        count = 0
        for arguments, scores in _peel_cases():
            m = _build(constructor, **arguments)
            if m is None:
                return Decision(False, {"arguments": _show(arguments)},
                                "the constructor refuses admitted arguments", unsupported=True)
            try:
                paths = code_paths(m.function, scores)
            except (UnscriptedRandomness, PathLimit) as error:
                return Decision(False, {"arguments": _show(arguments)},
                                f"the function does not peel through its selector ({error})",
                                unsupported=True)
            except Exception as error:  # noqa: BLE001 - the running code raises
                return Decision(False, {"arguments": _show(arguments), "scores": repr(scores),
                                        "raised": f"{type(error).__name__}: {error}"},
                                "the function raises on an input with n >= k")
            for positions, _seen, output in paths:
                problem = _bad_output(output, len(scores), arguments["k"], m) if outputs else None
                if problem:
                    return Decision(False, {"arguments": _show(arguments),
                                            "positions": str(list(positions))}, problem)
            count += len(paths)
        return Decision(True, detail=f"{count} paths, none raises" + (
            ", every output k distinct indices in [0, n) of the output domain" if outputs else ""))
    return ComputedGoal(f"{what}: on every path of the running __call__ (n <= {PEEL_BOUND}, "
                        "every k <= n, both orientations and measures)", "evaluation", decide,
                        _peel_replay(constructor, outputs))


def _replay_distribution(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(counterexample: dict[str, Any]) -> Replay:
        for scale in _scales(counterexample):
            for arguments, scores in _peel_cases():
                arguments = {**arguments, "scale": scale}
                if arguments["k"] > 3:
                    continue
                m = _build(constructor, **arguments)
                if m is None:
                    continue
                try:
                    code = code_top_k_distribution(m, scores)
                except Exception:  # noqa: BLE001 - not a law: the peel goal reports it
                    continue
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
    """The running code's laws on every pair of :func:`_pairs`, against the built map: pure, the
    exact ``max_y ln(p/q)`` above ``map(d)``; zCDP, some ``D_alpha(p || q) > map(d) alpha``."""
    measure = MEASURES[measure_name]

    def replay(counterexample: dict[str, Any]) -> Replay:
        d_model = float(Fraction(counterexample.get("d_in", 1)))
        d_model = d_model if 0 < d_model < 1e6 else 1.0
        for scale in _scales(counterexample):
            for k in _ks(counterexample):
                for d in dict.fromkeys([d_model, 1.0, 2.0]):
                    for optimize in STATED_ORIENTATION:
                        arguments = {"k": k, "scale": scale, "optimize": optimize,
                                     "measure": measure}
                        m = _build(constructor, **arguments)
                        if m is None:
                            continue
                        claimed = m.map(d)
                        laws: dict[tuple, Any] = {}
                        for s, s2 in _pairs(d):
                            if len(s) < k:
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


def _replay_runtime(constructor: Constructor) -> Callable[[dict], Replay]:
    """Runs the real measurement on seeded score vectors of ``n = k .. k + 2`` candidates, at the
    model's scale and small ones: confirmed when a run raises."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        for scale in _scales(counterexample):
            for k in _ks(counterexample):
                for optimize in STATED_ORIENTATION:
                    arguments = {"k": k, "scale": scale, "optimize": optimize}
                    m = _build(constructor, **arguments)
                    if m is None:
                        continue
                    for n in range(k, k + 3):
                        scores = [float(v) for v in random.Random(n).sample(range(-5, 6), n)]
                        try:
                            m(scores, random.Random(0))
                        except Exception as error:  # noqa: BLE001 - a raise on n >= k
                            call = _call(constructor, arguments)
                            run = f"m({scores!r}, random.Random(0))"
                            return plain_report(
                                True, f"{call} on {scores!r} (n = {n} >= k = {k})",
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
            try:
                code = code_top_k_distribution(m, scores)
            except (UnscriptedRandomness, PathLimit) as error:
                return Decision(False, {"arguments": _show(arguments)},
                                f"the function does not peel through its selector ({error})",
                                unsupported=True)
            except Exception as error:  # noqa: BLE001 - the running code raises
                return Decision(False, {"arguments": _show(arguments), "scores": repr(scores),
                                        "raised": f"{type(error).__name__}: {error}"},
                                "the function raises on an input with n >= k, so it has no law "
                                "there (a runtime error: see runtime_errors)", unsupported=True)
            stated = stated_top_k_distribution(arguments["k"], arguments["scale"],
                                               arguments["optimize"], scores)
            gap = law_gap(code, stated)
            if gap > mpmath.mpf(10) ** -40:
                return Decision(False, {"arguments": _show(arguments), "scores": repr(scores),
                                        "gap": mpmath.nstr(gap, 12)},
                                "the running code's law is not the stated peeled exponential "
                                "mechanism")
            count += 1
        return Decision(True, detail=f"{count} cases: the law computed from the running code "
                                     "equals the stated one within 1e-40")

    return [*_kernel_goals(constructor), *selector_goals(constructor, replay),
            *round_law_goals(replay),
            ComputedGoal(f"the peeled law: the running __call__ on every path, with the real "
                         f"selector's law per round, is the stated product law (n <= "
                         f"{PEEL_BOUND}, every k <= n, both orientations and measures; 1e-40)",
                         "evaluation", peeled_law, replay)]


def pure_privacy_goals(constructor: Constructor) -> list[Any]:
    replay = _replay_privacy(constructor, "pure")
    build = lambda: constructor(k=2, scale=1.0, measure=MaxDivergence())  # noqa: E731
    t, t2, d, scale, o = z3.Reals("t t2 d_in scale o")
    x, x2 = z3.Reals("s s2")
    slack = d / scale
    a, a2, total, total2, big = z3.Reals("a a2 S S2 K")
    p, p2, q, q2, eps, r = z3.Reals("P P2 Q Q2 eps r")
    goals: list[Any] = [
        metric_premise(build, LInfDistance, MaxDivergence, "the termwise bound |s_j - s'_j| <= "
                       "d_in"),
        exact_noise_goal(build), *_kernel_goals(constructor),
        Z3Goal("termwise, on the stated law: |s - s'| <= d_in gives exp(t) <= exp(d_in/scale) "
               "exp(t') for t = o s / scale, o = +-1",
               EXP(o * x / scale) <= EXP(slack) * EXP(o * x2 / scale),
               [scale > 0, d >= 0, z3.Or(o == 1, o == -1), ops.absolute(x - x2) <= d,
                exp_product(o * x / scale - o * x2 / scale, o * x2 / scale),
                exp_monotone(o * x / scale - o * x2 / scale, slack),
                *exp_facts(o * x2 / scale, slack)],
               {"scale": scale, "d_in": d, "s": x, "s2": x2, "o": o}, replay),
        Z3Goal("induction over the remaining candidates: S <= K S' survives adding a_j <= K a'_j "
               "(base 0 <= K 0)",
               z3.And(0 <= big * 0, total + a <= big * (total2 + a2)),
               [big > 0, total <= big * total2, a <= big * a2],
               {"S": total, "S2": total2, "K": big}, replay),
        Z3Goal("one round: Pr[i] = a_i/S <= exp(2 d_in/scale) a'_i/S' from a_i <= K a'_i, "
               "S' <= K S, K = exp(d_in/scale)",
               a / total <= EXP(2 * slack) * (a2 / total2),
               [scale > 0, d >= 0, total > 0, total2 > 0, a > 0, a2 > 0,
                a <= EXP(slack) * a2, total2 <= EXP(slack) * total,
                exp_product(slack, slack), *exp_facts(slack)],
               {"scale": scale, "d_in": d}, replay),
        Z3Goal("induction over the rounds: P_r <= exp(r eps) P'_r and a round's Q <= exp(eps) Q' "
               "give P_r Q <= exp((r + 1) eps) P'_r Q' (base P_0 = P'_0 = 1 = exp(0))",
               z3.And(EXP(0 * eps) == 1, p * q <= EXP((r + 1) * eps) * (p2 * q2)),
               [r >= 0, eps >= 0, p >= 0, p2 >= 0, q >= 0, q2 >= 0, p <= EXP(r * eps) * p2,
                q <= EXP(eps) * q2, exp_product(r * eps, eps), *exp_facts(r * eps, eps)],
               {"P": p, "P2": p2, "Q": q, "Q2": q2, "eps": eps, "r": r}, replay),
    ]
    for optimize in STATED_ORIENTATION:
        m, params, assumptions = _symbolic(constructor, optimize, MaxDivergence())
        k, sigma = params["k"], params["scale"]
        dd = z3.Real("d_in")
        names = {**params, "d_in": dd}
        epsilon = m.map(dd)
        goals += [
            Z3Goal(f"({optimize}) the built map is at least k 2 d_in / scale (k rounds, the "
                   "arguments' k and scale)", epsilon >= 2 * k * dd / sigma,
                   [*assumptions, dd >= 0], names, replay),
            Z3Goal(f"({optimize}) k rounds: Pr[M(s) = y] <= exp(k 2 d_in/scale) Pr[M(s') = y] "
                   "<= exp(map(d_in)) Pr[M(s') = y]",
                   p <= EXP(epsilon) * p2,
                   [*assumptions, dd >= 0, p >= 0, p2 >= 0, epsilon >= 2 * k * dd / sigma,
                    p <= EXP(k * (2 * dd / sigma)) * p2,
                    exp_monotone(k * (2 * dd / sigma), epsilon),
                    *exp_facts(k * (2 * dd / sigma))], {**names, "P": p, "P2": p2}, replay),
        ]
    return goals


def zcdp_privacy_goals(constructor: Constructor) -> list[Any]:
    replay = _replay_privacy(constructor, "zCDP")
    build = lambda: constructor(k=2, scale=1.0, measure=ZeroConcentratedDivergence())  # noqa
    x, x2, y, y2, d, scale, o = z3.Reals("s_i s2_i s_j s2_j d_in scale o")
    u_i = o * x / scale - o * x2 / scale
    u_j = o * y / scale - o * y2 / scale
    goals: list[Any] = [
        metric_premise(build, LInfDistance, ZeroConcentratedDivergence,
                       "the bounded-range width 2 d_in / scale"),
        exact_noise_goal(build), *_kernel_goals(constructor),
        Z3Goal("bounded range (Cesar-Rogers' premise), on the stated law: ln(Pr[i]/Pr'[i]) - "
               "ln(Pr[j]/Pr'[j]) = (t_i - t'_i) - (t_j - t'_j) <= eta = 2 d_in/scale (the "
               "normalisers cancel): exp(u_i) <= exp(eta) exp(u_j)",
               EXP(u_i) <= EXP(2 * d / scale) * EXP(u_j),
               [scale > 0, d >= 0, z3.Or(o == 1, o == -1), ops.absolute(x - x2) <= d,
                ops.absolute(y - y2) <= d, exp_monotone(u_i, 2 * d / scale + u_j),
                exp_product(2 * d / scale, u_j), *exp_facts(u_j, 2 * d / scale)],
               {"scale": scale, "d_in": d, "s_i": x, "s2_i": x2, "s_j": y, "s2_j": y2, "o": o},
               replay),
    ]
    for optimize in STATED_ORIENTATION:
        m, params, assumptions = _symbolic(constructor, optimize, ZeroConcentratedDivergence())
        k, sigma = params["k"], params["scale"]
        dd = z3.Real("d_in")
        rho = m.map(dd)
        eta_d = 2 * dd / sigma
        goals.append(Z3Goal(f"({optimize}) the built map is at least k eta^2 / 8, eta = 2 d_in / "
                            "scale (the arguments' k and scale)",
                            rho >= k * eta_d * eta_d / 8, [*assumptions, dd >= 0],
                            {**params, "d_in": dd}, replay))
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


def noisy_top_k_obligations(constructor: Constructor = make_noisy_top_k,
                            prefix: str = "noisy_top_k") -> tuple[Obligation, ...]:

    def output_goals() -> list[Any]:
        return [*_kernel_goals(constructor),
                witness_goal(constructor, {"k": 2, "scale": 1.0}, inputs=[[0.5, 1.0],
                                                                        [1.0, 3.0, -2.0]],
                             draws=3),
                witness_goal(constructor, {"k": 3, "scale": 2.0, "optimize": "min",
                                           "measure": ZeroConcentratedDivergence()},
                             {"k": 3, "scale": 2.0, "optimize": "min",
                              "measure": ZeroConcentratedDivergence()},
                             inputs=[[1.0, 3.0, -2.0, 3.0]], draws=3),
                peel_goal(constructor, "every output is k distinct int indices in [0, n)")]

    def runtime_goals() -> list[Any]:
        replay = _replay_runtime(constructor)
        return [*_kernel_goals(constructor), finite_scores_goal(constructor, replay),
                *[g for g in selector_goals(constructor, replay)
                  if "peels" not in g.name and "differ" not in g.name and "(0, 1]" not in g.name],
                peel_goal(constructor, "no raise when n >= k", outputs=False)]

    def zcdp_rounding() -> Obligation:
        return map_rounding_obligation(
            prefix, symbolic_build(constructor, floats=("scale",), integers=("k",),
                                   fixed={"optimize": "max", "measure":
                                          ZeroConcentratedDivergence(), "T": float}),
            real_d_in, None, "k d_in^2 / (2 scale^2)")

    pure_rounding = map_rounding_obligation(
        prefix, symbolic_build(constructor, floats=("scale",), integers=("k",),
                               fixed={"optimize": "max", "measure": MaxDivergence(), "T": float}),
        real_d_in,
        replay_rounding(constructor, parameter_candidates(
            ("scale",), ("k",), fixed={"optimize": "max", "measure": MaxDivergence()})),
        "2 k d_in / scale")
    zcdp_replay = replay_rounding(constructor, parameter_candidates(
        ("scale",), ("k",), fixed={"optimize": "max", "measure": ZeroConcentratedDivergence()}))

    def rounding_goals() -> list[Any]:
        return [*pure_rounding.goals(),
                *[dataclasses.replace(g, name=g.name + " (zCDP: k d_in^2 / (2 scale^2))",
                                      replay=zcdp_replay) for g in zcdp_rounding().goals()]]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every score vector of n >= k candidates the output is a list of k "
                   "distinct int indices in [0, n): each round pops its index from the "
                   "candidates not drawn yet.",
                   r"\forall s \in \mathbb{R}^n, n \ge k:\ \mathtt{function}(s) = (i_1, \dots, "
                   r"i_k),\ i_r \in \{0, \dots, n - 1\}\ \text{distinct}",
                   output_goals, bound=BOUNDED),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "LInf distance is defined on the input vector domain of finite, non-NaN scores.",
                   r"d_{\infty} \sim \mathrm{VectorDomain}(\mathrm{AtomDomain}(T))",
                   lambda: [compatibility_goal(
                       constructor, lambda: [_symbolic(constructor, o, measure)[0]
                                             for o in STATED_ORIENTATION
                                             for measure in MEASURES.values()]
                       + [constructor.build(k=1, scale=1.0, optimize="max", T=int)],
                       {"k": 1, "scale": 1.0})]),
        Obligation(f"{prefix}.runtime_errors", Kind.RUNTIME_ERRORS,
                   "function(s) raises only when s has fewer than k candidates (decided by the "
                   "length alone; vectors of different lengths are never LInf-close): every "
                   "round's exponents are defined rationals >= 0, so the exact Bernoulli never "
                   "raises, and the peeling never runs out of candidates.",
                   r"n \ge k \implies \mathtt{function}(s)\ \text{returns}",
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
                   "MaxDivergence: if max_j |s_j - s'_j| <= d_in then Pr[M(s) = y] <= "
                   "exp(map(d_in)) Pr[M(s') = y]: each round, on the remaining scores (still "
                   "d_in-close), is the exponential mechanism, (2 d_in/scale)-DP (termwise bound, "
                   "induction over the candidates); the k rounds' ratios multiply (induction "
                   "over the rounds) to exp(2 k d_in/scale) <= exp(map(d_in)).",
                   r"d_\infty(s, s') \le d_{in} \implies \frac{\Pr[M(s) = y]}{\Pr[M(s') = y]} "
                   r"\le e^{2 k d_{in}/\mathtt{scale}} \le e^{\mathtt{map}(d_{in})}",
                   lambda: [measure_goal(constructor), *pure_privacy_goals(constructor)],
                   uses=(f"{prefix}.distribution", f"{prefix}.map_rounding")),
        Obligation(f"{prefix}.privacy_zcdp", Kind.PRIVACY,
                   "ZeroConcentratedDivergence: each round, on the remaining scores (still "
                   "d_in-close), is eta-bounded-range with eta = 2 d_in/scale (the ratio of "
                   "ratios of the stated law), hence eta^2/8-zCDP (cited), and the k adaptive "
                   "rounds compose (cited) to k eta^2/8 <= map(d_in).",
                   r"d_\infty(s, s') \le d_{in} \implies D_\alpha(M(s) \| M(s')) \le "
                   r"\alpha \cdot \frac{k}{8}\left(\frac{2 d_{in}}{\mathtt{scale}}\right)^2 \le "
                   r"\alpha \cdot \mathtt{map}(d_{in})",
                   lambda: [measure_goal(constructor), *zcdp_privacy_goals(constructor)],
                   uses=(f"{prefix}.distribution", f"{prefix}.map_rounding"),
                   cites=(CESAR_ROGERS, BUN_STEINKE)),
        dataclasses.replace(pure_rounding, goals=rounding_goals,
                            statement=pure_rounding.statement.replace(
                                "2 k d_in / scale", "2 k d_in / scale (MaxDivergence) and "
                                "k d_in^2 / (2 scale^2) (zCDP)")),
    )


IMPORT = "from mechanisms.make_noisy_top_k import make_noisy_top_k"


def catalogue_entry() -> Entry:
    return Entry("make_noisy_top_k", make_noisy_top_k, noisy_top_k_obligations(),
                 "top-k selection: the exponential mechanism peeled k times",
                 (example("make_noisy_top_k(2, 1.0)", IMPORT),
                  example("make_noisy_top_k(2, 2.0, optimize='min')", IMPORT)), proof=True)
