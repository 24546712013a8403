"""Obligations of ``make_private_quantile``, by the obligations of its two components and of the
chain, which are checked again here, in the same run, on the constructors that built the parts.

The built measurement must be the chain of the two catalogue constructors' products: its
function a ``ChainedFunction`` whose first part is the score function that
``make_quantile_score_candidates(candidates, alpha, atom_domain)`` builds and whose second is a
``NoisyMax`` that minimizes, equal to what ``make_report_noisy_max(s, "min", int)`` builds for the
running noise scale ``s`` (read from the built object, not from ``scale``); its privacy map the
chain's rule over that score map and that noisy-max map (so the map divides by the running noise
scale); its domains, metric and measure the components'. On those parts,
``quantile_score_candidates.stability`` (LInf sensitivity ``d_in max(num, den - num)`` for every
candidate list and fraction), ``report_noisy_max.privacy`` (with its ``distribution``,
``runtime_errors`` and ``map_rounding``: ``exp(map(d))``-close laws for ``d``-close scores, every
finite scale ``> 0``) and ``chain_mt.privacy`` (the chain's map bounds the chain) give the
guarantee; a goal runs those obligations and requires each proved. A Z3 goal states the map's
value from the exponential mechanism: ``map(d_in) >= 2 d_in max(num, den - num) / s`` for every
fraction in ``[0, 1]``, every ``s > 0`` and every ``d_in``, on the built map's own rules.

Refutations are replayed on the real chain: its output law on neighbouring vectors is the
exponential mechanism of the running scores at the running scale (``code_distribution`` of
``make_report_noisy_max``'s obligations, 60 digits), and a loss above ``map(d_in)`` confirms.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import replace
from types import SimpleNamespace
from typing import Any, Callable

import mpmath
import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.domains import AtomDomain
from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_chain_tt import ChainedFunction
from mechanisms.make_private_quantile import make_private_quantile
from mechanisms.make_quantile_score_candidates import (CandidateScores,
                                                       make_quantile_score_candidates)
from mechanisms.make_report_noisy_max import NoisyMax, make_report_noisy_max
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.kernels import kernel_deviations
from obligations.quantile_rows import neighbour_pairs, rows_of, shown
from obligations.noisy_max import code_distribution
from obligations.reports import (claim_assertion, code_setup, constructor_call, import_line,
                                 literal, literal_imports, plain_report, reproducer)
from obligations.symbols import natural
from obligations.witnesses import excluded_goals, witness_goal
from obligations.kernel.chain import chain_for_every_argument
from obligations.kernel.reviewed import reviewed
from obligations.kernel.rules import PartlyProved, RuleRefused
from obligations.kernel.statements import Claim

WITNESS_ARGUMENTS: tuple[dict[str, Any], ...] = (
    {"candidates": [0, 5, 10], "alpha": 0.5, "scale": 1.0},
    {"candidates": [-1.5, 0.0, 2.25], "alpha": 0.3, "scale": 2.0},
    {"candidates": [3], "alpha": 0.0, "scale": 0.5},
    {"candidates": [1, 2, 3, 4], "alpha": 1.0, "scale": 3},
    {"candidates": [0.0, 1.0], "alpha": 0.123456, "scale": 0.25},
    {"candidates": [-4, 0, 4], "alpha": 0.25, "scale": 1.5,
     "atom_domain": AtomDomain(int, bounds=(-10, 10))},
)
"""Valid arguments: exact fractions and the 10_000 grid, int and float candidates and scales."""

COMPONENT_OBLIGATIONS: dict[str, tuple[str, ...]] = {
    "make_quantile_score_candidates": ("quantile_score_candidates.output_domain",
                                       "quantile_score_candidates.stability",
                                       "quantile_score_candidates.unsized_path"),
    "make_report_noisy_max": ("report_noisy_max.output_domain",
                              "report_noisy_max.runtime_errors",
                              "report_noisy_max.distribution", "report_noisy_max.privacy",
                              "report_noisy_max.map_rounding"),
}
OUTPUT_COMPONENTS = ("quantile_score_candidates.output_domain", "report_noisy_max.output_domain")
PRIVACY_COMPONENTS = ("quantile_score_candidates.stability",
                      "quantile_score_candidates.unsized_path", "report_noisy_max.runtime_errors",
                      "report_noisy_max.distribution", "report_noisy_max.privacy",
                      "report_noisy_max.map_rounding")
"""The components' obligations the guarantees rest on (with every obligation they use); the
chain's own statements are the kernel's (:func:`chain_goal`)."""


def score_arguments(arguments: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in arguments.items() if name != "scale"}


@functools.lru_cache(maxsize=None)
def component_verdicts(wanted: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """``(id, verdict, message)`` of the ``wanted`` component obligations, each checked here by
    the checker's own runner (in this process)."""
    from checker.runner import Task, check_obligation  # the checker imports obligations
    found = []
    for name, ids in COMPONENT_OBLIGATIONS.items():
        entry = importlib.import_module(f"obligations.{name}").catalogue_entry()
        for obligation in entry.obligations:
            if obligation.id in ids and obligation.id in wanted:
                result = check_obligation(Task(entry.name, obligation, entry.constructor), 30.0)
                found.append((obligation.id, result.verdict.value, result.message))
    return tuple(found)


def components_goal(wanted: tuple[str, ...]) -> ComputedGoal:
    """The components' obligations ``wanted`` (ids of :data:`COMPONENT_OBLIGATIONS`, with every
    obligation they use) are proved in this run."""
    def decide() -> Decision:
        verdicts = component_verdicts(tuple(wanted))
        missing = set(wanted) - {v[0] for v in verdicts}
        failed = [v for v in verdicts if v[1] != "proved"]
        if missing or failed:
            return Decision(False, {"not proved": "; ".join(
                [f"{i}: not in the catalogue" for i in sorted(missing)]
                + [f"{i}: {verdict} ({message})" for i, verdict, message in failed])},
                "a component's obligation is not proved, so the chain's guarantee does not "
                "follow", unsupported=True)
        return Decision(True, detail="proved here: " + ", ".join(v[0] for v in verdicts))
    return ComputedGoal("the components' obligations are proved (checked in this run): "
                        + ", ".join(sorted(wanted)), "structure", decide)


CHAIN_BOUND = ("the chain step is the kernel's chain theorem of make_chain_mt, bounded to the "
               "pairs of stand-in components it reads")


def chain_goal(claim: Claim) -> ComputedGoal:
    """The kernel's chain rule proves ``claim`` of ``make_chain_mt``, for every pair of components
    that meet their own statements (the chain states no obligations of its own)."""
    def decide() -> Decision:
        try:
            theorems = chain_for_every_argument(make_chain_mt)
        except PartlyProved as partly:
            theorems = partly.theorems
        except RuleRefused as refused:
            theorems, why = [], str(refused)
        else:
            why = ""
        if any(t.statement.claim is claim for t in theorems):
            return Decision(True, detail=f"{claim.value} of make_chain_mt: {theorems[0].rule}")
        return Decision(False, {"make_chain_mt": why or f"no theorem of its {claim.value}"},
                        f"the kernel does not prove the chain's {claim.value}, so the guarantee "
                        "does not follow", unsupported=True)
    return ComputedGoal(f"the kernel proves make_chain_mt's {claim.value}", "structure", decide)


def chain_deviations(m: Any) -> list[str]:
    """What in ``m``'s function is not the trusted chain of a score function and a noisy max."""
    f = m.function
    found = kernel_deviations(f, ChainedFunction)
    if not found:
        found += kernel_deviations(f.first, CandidateScores)
        found += kernel_deviations(f.second, NoisyMax)
    return found


def expected_chain(m: Any, arguments: dict[str, Any]) -> Measurement:
    """The chain of the two constructors' products, the noise scale read from ``m``."""
    scores = make_quantile_score_candidates(**score_arguments(arguments))
    selection = make_report_noisy_max(m.function.second.scale, optimize="min", T=int)
    return make_chain_mt(selection, scores)


def structure_goal(constructor: Constructor, replay: Callable[[dict], Replay]) -> ComputedGoal:
    """On every witness build: the function is the trusted chain; it equals the chain of the two
    constructors' products at its own noise scale, map included. A map over another noise scale
    than the running one is refuted (the replay measures the loss); any other shape is outside
    the proof (unknown)."""
    def decide() -> Decision:
        for arguments in WITNESS_ARGUMENTS:
            m = constructor(**arguments)
            call = constructor_call(constructor, **arguments)
            deviations = chain_deviations(m)
            if deviations:
                return Decision(False, {"arguments": call, "deviations": "; ".join(deviations)},
                                "the function is not the trusted chain of a score function and "
                                "a noisy max", unsupported=True)
            try:
                expected = expected_chain(m, arguments)
            except Exception as error:  # noqa: BLE001 - a running scale the constructor refuses
                return Decision(False, {"arguments": call, "noise scale":
                                        repr(m.function.second.scale)},
                                f"make_report_noisy_max refuses the running noise scale "
                                f"({type(error).__name__}: {error})", unsupported=True)
            if m.privacy_map != expected.privacy_map:
                return Decision(False, {"arguments": call, "map": repr(m.privacy_map)[:300]},
                                "the privacy map is not the chain's over the running score "
                                "function and noise scale")
            if m != expected:
                return Decision(False, {"arguments": call}, "the measurement differs from the "
                                "chain of make_report_noisy_max(noise scale, 'min', int) and "
                                "make_quantile_score_candidates(...)", unsupported=True)
        return Decision(True, detail=f"{len(WITNESS_ARGUMENTS)} builds: make_chain_mt("
                                     "make_report_noisy_max(s, 'min', int), "
                                     "make_quantile_score_candidates(...)), s the running scale")
    return ComputedGoal("the measurement is the chain of the two constructors' products at the "
                        "running noise scale (its map included)", "structure", decide, replay)


def exact_loss(m: Any, v: list, w: list) -> Any:
    """``max_i ln(Pr[m(v) = i] / Pr[m(w) = i])`` of the running chain: the running noisy max's
    law (``code_distribution``, 60 digits) at the running scores."""
    outer = SimpleNamespace(function=m.function.second)
    p = code_distribution(outer, m.function.first(v))
    q = code_distribution(outer, m.function.first(w))
    with mpmath.workdps(60):
        return max(mpmath.log(a / b) for a, b in zip(p, q))


def replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """Neighbouring vectors on every witness build: a loss above ``map(d_in)`` confirms."""
    def replay(_: dict) -> Replay:
        worst: tuple[Any, ...] | None = None
        for arguments in WITNESS_ARGUMENTS:
            m = constructor(**arguments)
            for v, w in neighbour_pairs(score_arguments(arguments)):
                d_in = m.input_metric.distance(v, w)
                claimed = m.map(d_in)
                loss = exact_loss(m, v, w)
                if loss > mpmath.mpf(claimed) * (1 + mpmath.mpf(10) ** -30):
                    worst = (arguments, v, w, d_in, claimed, loss)
                    break
            if worst:
                break
        if worst is None:
            return plain_report(False, "on the witness builds' neighbouring vectors the exact "
                                "loss is within the map")
        arguments, v, w, d_in, claimed, loss = worst
        call = constructor_call(constructor, **arguments)
        return plain_report(
            True, call, f"inputs v = {literal(v)}, w = {literal(w)} (d_in = {d_in})",
            f"claimed  map(d_in) = {claimed!r}",
            f"observed max_i ln(Pr[M(v)=i] / Pr[M(w)=i]) = {mpmath.nstr(loss, 17)}  > claimed",
            *reproducer(import_line(constructor), *code_setup(arguments),
                        *literal_imports(arguments), "import mpmath",
                        "from types import SimpleNamespace",
                        "from obligations.make_report_noisy_max import code_distribution",
                        f"m = {call}", f"v, w = {literal(v)}, {literal(w)}",
                        "outer = SimpleNamespace(function=m.function.second)",
                        "p = code_distribution(outer, m.function.first(v))",
                        "q = code_distribution(outer, m.function.first(w))",
                        "mpmath.mp.dps = 60",
                        "observed = max(mpmath.log(a / b) for a, b in zip(p, q))",
                        f"claimed = m.map({d_in!r})",
                        claim_assertion("observed <= mpmath.mpf(claimed) * "
                                        "(1 + mpmath.mpf(10) ** -30)",
                                        "max_i ln(Pr[M(v)=i] / Pr[M(w)=i]) = {observed} > "
                                        f"map({d_in!r}) = {{claimed!r}}")))
    return replay


def map_goal(constructor: Constructor) -> list[Any]:
    """The built map's rules with the score fraction and the noise scale as solver terms."""
    m = constructor(**WITNESS_ARGUMENTS[0])
    if chain_deviations(m) or set(m.privacy_map.params) != {"outer", "inner"}:
        return []
    num, den = z3.Ints("num den")
    s = z3.Real("noise_scale")
    d_in, d_natural = natural("d_in")
    scores = replace(m.function.first, num=num, den=den)
    outer, inner = m.privacy_map.params["outer"], m.privacy_map.params["inner"]
    inner = replace(inner, params={k: scores if v is m.function.first else v
                                   for k, v in inner.params.items()})
    outer = replace(outer, params={k: s if v == m.function.second.scale else v
                                   for k, v in outer.params.items()})
    claimed = replace(m.privacy_map, params={"outer": outer, "inner": inner})(d_in)
    bound = 2 * d_in * ops.maximum(num, den - num) / s
    return [Z3Goal("the map is at least the exponential mechanism's 2 d_in max(num, den - num) "
                   "/ s at the score sensitivity, for every fraction in [0, 1], noise scale "
                   "s > 0 and d_in", claimed >= bound,
                   [0 <= num, num <= den, den >= 1, s > 0, *d_natural],
                   {"num": num, "den": den, "s": s, "d_in": d_in}, replay_privacy(constructor))]


def excluded_arguments(constructor: Constructor) -> list[ComputedGoal]:
    nan, inf = float("nan"), float("inf")
    base = {"candidates": [0, 1], "alpha": 0.5}
    cases = [({**base, "scale": 0.0}, "scale 0 (no noise)"),
             ({**base, "scale": -1.0}, "a negative scale"),
             ({**base, "scale": inf}, "an infinite scale"),
             ({**base, "scale": nan}, "a NaN scale"),
             ({**base, "scale": True}, "a bool scale"),
             ({"candidates": [0, 1], "alpha": 0.3, "scale": 1e308},
              "a scale whose noise scale scale * den overflows"),
             ({"candidates": [1, 0], "alpha": 0.5, "scale": 1.0}, "decreasing candidates"),
             ({"candidates": [0, 1], "alpha": 1.5, "scale": 1.0}, "alpha > 1")]
    return excluded_goals(constructor, cases, inputs=[[], [0], [0, 1, 1]])


@reviewed
def private_quantile_obligations(constructor: Constructor = make_private_quantile,
                                 prefix: str = "private_quantile") -> tuple[Obligation, ...]:
    replay = replay_privacy(constructor)

    def output_goals() -> list[Any]:
        return [structure_goal(constructor, replay),
                *[witness_goal(constructor, arguments, shown(arguments),
                               inputs=[[], rows_of(score_arguments(arguments))], draws=3)
                  for arguments in WITNESS_ARGUMENTS],
                *excluded_arguments(constructor),
                components_goal(OUTPUT_COMPONENTS), chain_goal(Claim.OUTPUT_DOMAIN)]

    def privacy_goals() -> list[Any]:
        return [structure_goal(constructor, replay),
                metric_premise(lambda: constructor(**WITNESS_ARGUMENTS[0]), SymmetricDistance,
                               MaxDivergence, "quantile_score_candidates.stability"),
                components_goal(PRIVACY_COMPONENTS), chain_goal(Claim.PRIVACY),
                *map_goal(constructor)]

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(constructor,
                                   lambda: [constructor(**a) for a in WITNESS_ARGUMENTS],
                                   WITNESS_ARGUMENTS[0])]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector of rows, the release is an int index in [0, k), k the "
                   "number of candidates: the chain of the score (k ints, "
                   "quantile_score_candidates.output_domain) and the noisy max (an index in "
                   "[0, k), report_noisy_max.output_domain), and the kernel's chain theorem "
                   "of make_chain_mt.",
                   r"\forall v:\ M(v) \in \{0, \dots, k - 1\}", output_goals, bound=CHAIN_BOUND),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "Symmetric distance is defined on the input vector domain of rows.",
                   r"d_{Sym} \sim \mathrm{VectorDomain}(T)", compatibility_goals),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "If d_sym(v, w) <= d_in then Pr[M(v) = i] <= exp(map(d_in)) Pr[M(w) = i] for "
                   "every index i, map(d_in) = 2 d_in max(num, den - num) / s rounded up, s the "
                   "running noise scale: the scores are d_in max(num, den - num)-close in LInf "
                   "(quantile_score_candidates.stability), the noisy max at scale s is "
                   "2 d / s-DP for d-close scores (report_noisy_max.privacy), and the chain's "
                   "map composes the two (the kernel's chain theorem of make_chain_mt), all "
                   "checked in this run.",
                   r"d_{Sym}(v, w) \le d_{in} \implies \frac{\Pr[M(v) = i]}{\Pr[M(w) = i]} \le "
                   r"e^{2 d_{in} \max(\mathtt{num}, \mathtt{den} - \mathtt{num}) / s} \le "
                   r"e^{\mathtt{map}(d_{in})}",
                   privacy_goals, bound=CHAIN_BOUND),
    )


IMPORT = "from mechanisms.make_private_quantile import make_private_quantile"


def catalogue_entry() -> Entry:
    return Entry("make_private_quantile", make_private_quantile, private_quantile_obligations(),
                 "the alpha-quantile of a vector by the exponential mechanism over candidates",
                 (example("make_private_quantile([0, 5, 10], 0.5, 1.0)", IMPORT),
                  example("make_private_quantile([0.0, 1.5, 3.0], 0.25, 2.0)", IMPORT)),
                 proof=True)
