"""Obligations of ``make_report_noisy_max``, for every ``scale > 0``, both orientations and every
number ``k >= 1`` of candidates.

The symbolic build takes ``scale`` as a Z3 real; the sampler's kernels (``oriented``,
``best_step``, ``rejection_gamma``, ``candidate``) and the privacy map run on Z3 terms. Claims about
all ``k`` candidates are proved by induction over the candidates (base and step), or termwise
(one candidate with symbolic neighbours). ``exp`` is the uninterpreted ``EXP`` with stated facts:
``exp(0) = 1``, ``exp > 0``, ``exp(p + q) = exp(p) exp(q)`` and monotonicity, each instantiated at the
terms the proof uses.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any, Callable

import mpmath
import sympy
import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.make_report_noisy_max import NoisyMax, make_report_noisy_max
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import LInfDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.kernels import trusted_kernel_goal
from obligations.exponential import EXP, exp_facts, exp_monotone, exp_product
from obligations.rounding import (map_rounding_obligation, parameter_candidates, real_d_in,
                                  replay_rounding, symbolic_build)
from obligations.noise import exact_noise_goal
from obligations.reports import (claim_assertion, constructor_call, import_line, literal,
                                 plain_report, reproducer, returns)
from obligations.symbols import natural
from obligations.witnesses import witness_goal
from obligations.kernel.reviewed import reviewed
from obligations.noisy_max import (BERNOULLI_EXP, CHECKED_KERNELS, ScriptedRng,
                                   admitted_lengths_goal, code_distribution,
                                   finite_running_scale_goal, quotients_defined, replay_short_input)

STATED_ORIENTATION = {"max": 1, "min": -1}
"""The specification: ``optimize="max"`` favours the largest score, ``"min"`` the smallest, i.e.
the mechanism maximizes ``orientation * s_i`` (stated here, apart from the code's sign table)."""


def _symbolic(constructor: Constructor, optimize: str = "max") -> tuple[Measurement, dict, list]:
    scale = z3.Real("scale")
    m = constructor.build(scale=scale, optimize=optimize, T=float)
    return m, {"scale": scale}, constructor.assumptions(scale=scale, optimize=optimize, T=float)


def _model_scale(counterexample: dict[str, Any]) -> float:
    """The model's ``scale`` as a float, or ``1.0`` when it has none or it is not positive."""
    scale = float(Fraction(counterexample.get("scale", 1)))
    return scale if 0 < scale < float("inf") else 1.0


def _concrete(constructor: Constructor, counterexample: dict[str, Any],
              optimize: str = "max") -> tuple[Measurement, dict[str, Any]]:
    arguments = {"scale": _model_scale(counterexample), "optimize": optimize}
    return constructor(**arguments), arguments


def _scales(counterexample: dict[str, Any]) -> list[float]:
    """The model's scale (as it is, if finite: a weakened precondition may admit 0), then small
    simple ones: a replay searches around the model."""
    model = float(Fraction(counterexample.get("scale", 1)))
    return list(dict.fromkeys([model if math.isfinite(model) else 1.0, 1.0, 0.5, 2.0, 3.0]))


def stated_distribution(scale: Any, optimize: str, scores: list[Any]) -> list[Any]:
    """The specification of ``make_report_noisy_max(scale, optimize)``: ``Pr[i] = exp(o s_i /
    scale) / sum_j exp(o s_j / scale)`` with ``o`` the :data:`STATED_ORIENTATION` of ``optimize``
    (from the arguments, not from the built object)."""
    with mpmath.workdps(60):
        scale = mpmath.mpf(Fraction(scale).numerator) / Fraction(scale).denominator
        oriented = [STATED_ORIENTATION[optimize] * Fraction(s) for s in scores]
        top = max(oriented)
        weights = [mpmath.exp((mpmath.mpf((s - top).numerator) / (s - top).denominator) / scale)
                   for s in oriented]
        total = mpmath.fsum(weights)
        return [w / total for w in weights]


def finite_scores_goal(constructor: Constructor) -> Z3Goal:
    """Goal: every float score the running input domain admits is finite (not NaN, not +-inf),
    checked over all binary64 values: the proofs read scores as exact rationals (reals), and the
    function's ``Fraction(score)`` raises on inf and NaN. The replay runs the function on the
    model's score next to a 0.0, and on two zeros."""
    m = constructor(scale=1.0, optimize="max", T=float)
    x = z3.FP("score", z3.Float64())
    element = getattr(m.input_domain, "element", None)
    admitted = ops.to_bool(element.contains(x)) if element is not None else z3.BoolVal(True)

    def replay(counterexample: dict[str, Any]) -> Replay:
        score = float(counterexample.get("score", math.inf))
        built, call = constructor(scale=1.0, optimize="max", T=float), \
            constructor_call(constructor, scale=1.0, optimize="max", T=float)
        data, control = [score, 0.0], [0.0, 0.0]
        if not built.input_domain.member(data):
            return plain_report(False, call, f"{data!r} is not in the input domain")
        try:
            built(control, random.Random(0))
            output = built(data, random.Random(0))
        except Exception as error:  # a data-dependent error: the control ran, this one raises
            return plain_report(True, call, f"the input domain admits {data!r}, on which the "
                                f"function raises {type(error).__name__} ({error}), while it "
                                f"returns on {control!r}: a data-dependent runtime error",
                                *reproducer(import_line(constructor), "import random",
                                            f"m = {call}", f"m({control!r}, random.Random(0))",
                                            *returns(f"m({literal(data)}, random.Random(0))",
                                                     f"m({literal(data)}) (in the input domain)")))
        return plain_report(False, call, f"returns {output!r} on {data!r}")

    return Z3Goal("every float score the running input domain admits is finite (binary64, inf "
                  "and NaN included): the proofs read scores as exact rationals",
                  ops.to_bool(ops.is_finite(x)), [admitted], {"score": x}, replay)


def _sampler_is_audited(constructor: Constructor) -> ComputedGoal:
    return trusted_kernel_goal("the noisy max function", lambda: constructor(scale=1.0).function,
                               NoisyMax, checked=CHECKED_KERNELS)


def _replay_output(constructor: Constructor) -> Callable[[dict], Replay]:
    """Run the real function on ``k`` equal scores with the uniform draw scripted to ``u``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = _concrete(constructor, counterexample)
        k = max(int(counterexample.get("k", 3)), 1)
        u = min(max(int(counterexample.get("u", k - 1)), 0), k - 1)
        scores = [0.0] * k
        try:
            output = m(scores, ScriptedRng(u))
            problem = None if (type(output) is int and 0 <= output < k) else \
                f"output {output!r} ({type(output).__name__}) is not an int index in [0, {k})"
        except (IndexError, ValueError) as error:
            output, problem = None, f"raised {type(error).__name__}: {error}"
        call = constructor_call(constructor, **arguments)
        run = f"{call}({scores!r}, ScriptedRng({u}))"
        return plain_report(problem is not None, f"{call} on {scores!r}, uniform draw u = {u}",
                            problem or f"output {output!r} is an index in [0, {k})",
                            *reproducer(import_line(constructor),
                                        "from obligations.make_report_noisy_max import ScriptedRng",
                                        *returns(f"output = {run}", run),
                                        claim_assertion(f"type(output) is int and 0 <= output "
                                                        f"< {k}", "output {output!r} is not an "
                                                        f"int index in [0, {k})")))
    return replay


def _replay_gamma(constructor: Constructor) -> Callable[[dict], Replay]:
    """Run the real function where a ``gamma`` is undefined (a quotient by 0), infinite or
    negative (the exact Bernoulli raises), at the model's scale and small ones."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        shown = "every gamma is a rational >= 0 on the probes"
        for scale in _scales(counterexample):
            arguments = {"scale": scale, "optimize": "max"}
            call = constructor_call(constructor, **arguments)
            try:
                m = constructor(**arguments)
            except (ValueError, ArithmeticError):  # refused by the preconditions
                continue
            for scores in ([0.0, 1.0, -1.0], [1.0, 0.0], [0.0]):
                try:
                    gammas = m.function.gammas(scores)
                except ArithmeticError as error:
                    return plain_report(True, f"{call} on {scores!r}",
                                        f"computing the gammas raises {type(error).__name__}: "
                                        f"{error}: the function returns no index",
                                        *reproducer(import_line(constructor), "import random",
                                                    *returns(f"{call}({scores!r}, "
                                                             "random.Random(0))",
                                                             f"the function on {scores!r}")))
                for index, gamma in enumerate(gammas):
                    if not ops.is_finite(gamma) or gamma < 0:
                        try:
                            m(scores, ScriptedRng(index))
                        except (ValueError, OverflowError) as error:
                            return plain_report(
                                True, f"{call} on {scores!r}",
                                f"gamma_{index} = {gamma} is not a finite rational >= 0; "
                                f"proposing {index} raises {type(error).__name__}: {error}: "
                                "the function raises on a non-empty input",
                                *reproducer(import_line(constructor),
                                            "from obligations.make_report_noisy_max import "
                                            "ScriptedRng",
                                            *returns(f"{call}({scores!r}, ScriptedRng({index}))",
                                                     f"proposing {index} on {scores!r}")))
        return plain_report(False, shown)
    return replay


def _replay_distribution(constructor: Constructor) -> Callable[[dict], Replay]:
    """The code's pmf against the one stated for the arguments, on small score vectors, both
    orientations, at the model's scale and small ones (60 digits)."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        for scale in _scales(counterexample):
            for optimize in STATED_ORIENTATION:
                m, arguments = _concrete(constructor, {"scale": scale}, optimize)
                for scores in ([0.0, 1.0], [0.0, 1.0, 3.0], [2.0, -1.0], [0.5]):
                    code = code_distribution(m, scores)
                    stated = stated_distribution(scale, optimize, scores)
                    gap = max(abs(a - b) for a, b in zip(code, stated))
                    if gap > mpmath.mpf(10) ** -40:
                        call = constructor_call(constructor, **arguments)
                        return plain_report(
                            True, f"{call} on {scores!r}",
                            f"the sampler draws {[mpmath.nstr(p, 12) for p in code]}",
                            f"stated exp(o s_i/scale)/sum: {[mpmath.nstr(p, 12) for p in stated]}",
                            *reproducer(import_line(constructor), "import mpmath",
                                        "from obligations.make_report_noisy_max import "
                                        "code_distribution, stated_distribution",
                                        f"code = code_distribution({call}, {scores!r})",
                                        f"stated = stated_distribution({scale!r}, {optimize!r}, "
                                        f"{scores!r})",
                                        "gap = max(abs(a - b) for a, b in zip(code, stated))",
                                        claim_assertion("gap <= mpmath.mpf(10) ** -40",
                                                        "the sampler draws {code}, the stated "
                                                        "law is {stated}")))
        return plain_report(False, "the sampler's pmf is the stated one on the probes")
    return replay


def _privacy_loss(m: Measurement, d: float) -> tuple[Any, tuple[str, str]]:
    """The largest ``ln(Pr[s](i) / Pr[s'](i))`` of the code's pmf over ``s = (d, 0, ..., 0)``
    against ``s' = (0, d, ..., d)`` and back, for ``k`` in 2, 3, 10, 100 (LInf distance ``d``)."""
    worst, shown = mpmath.mpf(0), ("", "")
    for k in (2, 3, 10, 100):
        first, rest = f"[{d!r}] + [0.0] * {k - 1}", f"[0.0] + [{d!r}] * {k - 1}"
        for s, s_prime, text in (([d] + [0.0] * (k - 1), [0.0] + [d] * (k - 1), (first, rest)),
                                 ([0.0] + [d] * (k - 1), [d] + [0.0] * (k - 1), (rest, first))):
            p, q = code_distribution(m, s), code_distribution(m, s_prime)
            with mpmath.workdps(60):
                ratio = max(mpmath.log(a / b) for a, b in zip(p, q))
            if ratio > worst:
                worst, shown = ratio, text
    return worst, shown


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """:func:`_privacy_loss` against ``map(d)``, at the model's scale and ``d``, then small ones
    (``d = 2`` too: an exponent growing faster than ``d`` shows only above ``d = 1``): confirmed
    when the code's exact loss exceeds the claim."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        d_model = float(Fraction(counterexample.get("d_in", 1)))
        d_model = d_model if 0 < d_model < 1e6 else 1.0
        lines: list[str] = []
        for scale in _scales(counterexample):
            for d in dict.fromkeys([d_model, 1.0, 2.0]):
                m, arguments = _concrete(constructor, {"scale": scale})
                claimed = m.map(d)
                worst, shown = _privacy_loss(m, d)
                confirmed = worst > mpmath.mpf(claimed) * (1 + mpmath.mpf(10) ** -30)
                call = constructor_call(constructor, **arguments)
                lines = [call, f"inputs s = {shown[0]}, s' = {shown[1]} (LInf distance d_in = "
                               f"{d!r})",
                         f"claimed  map(d_in) = {claimed!r}",
                         f"observed max_i ln(Pr[M(s)=i] / Pr[M(s')=i]) = {mpmath.nstr(worst, 17)}"
                         + ("  > claimed" if confirmed else ""),
                         *reproducer(import_line(constructor), "import mpmath",
                                     "from obligations.make_report_noisy_max import "
                                     "code_distribution",
                                     f"m = {call}", f"claimed = m.map({d!r})",
                                     f"p, q = code_distribution(m, {shown[0]}), "
                                     f"code_distribution(m, {shown[1]})",
                                     "mpmath.mp.dps = 60",
                                     "observed = max(mpmath.log(a / b) for a, b in zip(p, q))",
                                     claim_assertion("observed <= mpmath.mpf(claimed) * "
                                                     "(1 + mpmath.mpf(10) ** -30)",
                                                     "max_i ln(Pr[M(s)=i] / Pr[M(s')=i]) = "
                                                     f"{{observed}} > map({d!r}) = {{claimed!r}}"))]
                if confirmed:
                    return plain_report(True, *lines)
        return plain_report(False, *lines)
    return replay


def reference(function: Any, best: Any) -> Any:
    """``c = gamma(m) + m / scale``, on the running function's kernels and scale: the acceptance
    exponent of the argmax (its oriented score is the running maximum ``m``) plus ``m / scale``.
    When exponents differ as the law's, ``gamma_j = c - o_j / scale`` for every candidate ``j``:
    ``c`` is the common offset that the privacy proof's ``u = c' - c`` cancels."""
    return function.rejection_gamma(best, best, function.scale) + best / ops.exact(function.scale)


@reviewed
def report_noisy_max_obligations(constructor: Constructor = make_report_noisy_max,
                                 prefix: str = "report_noisy_max") -> tuple[Obligation, ...]:

    def acceptance_goals(optimize: str) -> list[Any]:
        """On the running function's own ``scale`` and kernels: the scale is > 0; ``gamma_i =
        rejection_gamma(o_i, m, scale)`` is a real term (a finite rational, never inf or an
        undefined quotient) and ``>= 0`` for every ``o_i <= m``, so ``sample_bernoulli_exp``
        never raises and ``a_i = exp(-gamma_i)`` lies in ``(0, 1]``: every round returns with
        probability ``sum_j a_j / k > 0``, so the loop returns with probability 1. (No candidate
        needs ``gamma = 0``.)"""
        m, params, assumptions = _symbolic(constructor, optimize)
        f = m.function
        s, best = z3.Reals("s best")
        gamma = f.rejection_gamma(s, best, f.scale)
        names = {**params, "running scale": f.scale, "best": best, "s": s}
        replay = _replay_gamma(constructor)

        real = z3.is_expr(gamma) and gamma.sort() == z3.RealSort()

        def real_gamma() -> Decision:
            if real:
                return Decision(True, detail=f"rejection_gamma(s, m, scale) = {gamma} is a real "
                                             "term")
            return Decision(False, {"rejection_gamma(s, m, scale)": repr(gamma)},
                            "rejection_gamma on real terms is not a real term (an infinite, "
                            "NaN or non-numeric gamma has no acceptance probability exp(-gamma))")

        goals: list[Any] = [
            Z3Goal(f"({optimize}) the running scale is > 0", ops.exact(f.scale) > 0, assumptions,
                   names, replay),
            ComputedGoal(f"({optimize}) gamma_i = rejection_gamma(s_i, m, scale) on real terms is "
                         "a real term", "structure", real_gamma, replay)]
        if real:
            goals += [
                Z3Goal(f"({optimize}) for m >= s_i every quotient in gamma_i = "
                       "rejection_gamma(s_i, m, scale) has a nonzero divisor and no 0 is raised "
                       "to a negative power: "
                       "gamma_i is a defined, finite rational",
                       z3.And(True, *quotients_defined(gamma)),
                       [*assumptions, s <= best], names, replay),
                Z3Goal(f"({optimize}) m >= s_i gives gamma_i = rejection_gamma(s_i, m, scale) "
                       ">= 0, so sample_bernoulli_exp never raises",
                       gamma >= 0, [*assumptions, s <= best], names, replay)]
        return goals

    def length_goals(outputs: bool) -> list[Any]:
        """Every vector the running input domain admits is non-empty (both orientations and
        score types, ``scale`` a solver real): there is always a candidate to report. The replay
        runs the real measurement on an admitted empty vector (and, for the output domain,
        checks what it returns)."""
        replay = replay_short_input(constructor, [{"scale": 1.0, "optimize": o, "T": t}
                                                  for o in STATED_ORIENTATION for t in (float, int)],
                                    lambda _: 1, outputs)
        goals: list[Any] = []
        for optimize in STATED_ORIENTATION:
            for carrier in (float, int):
                scale = z3.Real("scale")
                arguments = {"scale": scale, "optimize": optimize, "T": carrier}
                goals.append(admitted_lengths_goal(
                    f"({optimize}, {carrier.__name__})", constructor.build(**arguments), 1, "1",
                    constructor.assumptions(**arguments), {"scale": scale}, replay))
        return goals

    def output_goals() -> list[Any]:
        m, params, assumptions = _symbolic(constructor)
        k, k_natural = natural("k")
        u = z3.Int("u")
        index = m.function.candidate(u)
        replay = _replay_output(constructor)

        def carrier() -> Decision:
            shown = {"candidate sort": str(index.sort()), "output carrier":
                     m.output_domain.carrier.__name__}
            if ops.carrier_of(index) is m.output_domain.carrier is int:
                return Decision(True, detail="candidate(u) is a Z3 Int: the output is an int")
            return Decision(False, shown, "the reported index is not an int")

        return [_sampler_is_audited(constructor), *length_goals(outputs=True),
                witness_goal(constructor, {"scale": 1.0}, inputs=[[0.5], [1.0, 3.0, -2.0]],
                             draws=3),
                witness_goal(constructor, {"scale": 2.0, "optimize": "min"},
                             inputs=[[0.5], [1.0, 3.0, -2.0, 3.0]], draws=3),
                finite_running_scale_goal(constructor, {"optimize": "max", "T": float}, [0.0]),
                ComputedGoal("the reported index has the output carrier int (Z3 sort of "
                             "candidate(u) for an Int u)", "structure", carrier, replay),
                Z3Goal("candidate(u) is in [0, k) and in the output domain, for every uniform "
                       "draw u in [0, k)",
                       z3.And(0 <= index, index < k,
                              ops.to_bool(m.output_domain.contains(index))),
                       [*assumptions, *k_natural, k >= 1, 0 <= u, u < k],
                       {**params, "k": k, "u": u}, replay),
                *[goal for optimize in STATED_ORIENTATION for goal in acceptance_goals(optimize)]]

    def maximum_goals() -> list[Any]:
        """Induction over the candidates: the running maximum is at least every score seen and
        is one of them."""
        goals: list[Any] = [_sampler_is_audited(constructor), *length_goals(outputs=False),
                            finite_scores_goal(constructor)]
        for optimize in STATED_ORIENTATION:
            m, params, assumptions = _symbolic(constructor, optimize)
            f = m.function
            best, x = z3.Reals("best x")
            seen_le = z3.Real("seen")
            step = f.best_step(best, f.oriented(x, f.sign))
            replay = _replay_gamma(constructor)
            names = {**params, "best": best, "x": x}
            goals += [
                Z3Goal(f"step ({optimize}): best_step(m, s) >= m, >= s, and is m or s",
                       z3.And(step >= best, step >= f.oriented(x, f.sign),
                              z3.Or(step == best, step == f.oriented(x, f.sign))),
                       assumptions, names, replay),
                Z3Goal(f"({optimize}) an earlier score below m stays below the next maximum",
                       seen_le <= step, [*assumptions, seen_le <= best],
                       {**names, "seen": seen_le}, replay),
                *acceptance_goals(optimize),
            ]
        return goals

    def acceptance_in_unit(gamma: Any, optimize: str, assumptions: list[Any],
                           names: dict[str, Any], replay: Callable[[dict], Replay]) -> Z3Goal:
        """``a_j = exp(-gamma_j)`` lies in ``(0, 1]`` (``gamma_j >= 0``: runtime_errors)."""
        return Z3Goal(f"({optimize}) a_j = exp(-gamma_j) lies in (0, 1] for gamma_j >= 0 "
                      "(exp facts)", z3.And(0 < EXP(-gamma), EXP(-gamma) <= 1),
                      [*assumptions, gamma >= 0, *exp_facts(-gamma), exp_monotone(-gamma, 0)],
                      names, replay)

    def law_goals(optimize: str, replay: Callable[[dict], Replay]) -> list[Z3Goal]:
        """The running kernels against the law stated for the arguments: ``gamma_i - gamma_j =
        t_j - t_i`` with ``t_i = o s_i / scale`` (``o`` the :data:`STATED_ORIENTATION`, ``scale``
        the argument), for raw scores whose oriented values are at most the running maximum;
        and ``a_j = exp(-gamma_j)`` in ``(0, 1]``. Any common offset of the gammas is admitted:
        it cancels in ``a_i / sum_j a_j``."""
        m, params, assumptions = _symbolic(constructor, optimize)
        f, scale = m.function, params["scale"]
        x, y, s, best = z3.Reals("x y s best")

        def stated(score: Any) -> Any:
            return STATED_ORIENTATION[optimize] * score / scale

        def gamma(score: Any) -> Any:
            return f.rejection_gamma(f.oriented(score, f.sign), best, f.scale)

        below = [f.oriented(x, f.sign) <= best, f.oriented(y, f.sign) <= best]
        names = {**params, "running scale": f.scale, "x": x, "y": y, "s": s, "best": best}
        return [
            Z3Goal(f"({optimize}) the acceptance exponents of two candidates, on the running "
                   "kernels and scale, differ as the stated law's: gamma(x) - gamma(y) = "
                   "t(y) - t(x), t(s) = o s / scale for the argument's scale and orientation",
                   gamma(x) - gamma(y) == stated(y) - stated(x),
                   [*assumptions, *below], names, replay),
            acceptance_in_unit(f.rejection_gamma(s, best, f.scale), optimize,
                               [*assumptions, s <= best], names, replay),
        ]

    def distribution_goals() -> list[Any]:
        goals: list[Any] = [_sampler_is_audited(constructor)]
        replay = _replay_distribution(constructor)
        for optimize in STATED_ORIENTATION:
            goals += law_goals(optimize, replay)
        a, e, total, weights, n, common = z3.Reals("a e S T n K")
        g_x, g_y, t_x, t_y = z3.Reals("gamma_x gamma_y t_x t_y")
        offset = -(g_y + t_y)
        goals.append(Z3Goal(
            "termwise, against a fixed reference candidate y: gamma_x - gamma_y = t_y - t_x gives "
            "a_x = exp(-gamma_x) = K exp(t_x) with K = exp(-(gamma_y + t_y)) > 0, the same K for "
            "every x",
            z3.And(EXP(-g_x) == EXP(offset) * EXP(t_x), EXP(offset) > 0),
            [g_x - g_y == t_y - t_x, exp_product(offset, t_x), *exp_facts(offset)],
            {"gamma_x": g_x, "gamma_y": g_y, "t_x": t_x, "t_y": t_y}, replay))
        invariant = lambda total, weights, n: z3.And(  # noqa: E731
            0 <= total, total <= n, total == common * weights, 0 <= weights,
            z3.Implies(n >= 1, z3.And(total > 0, weights > 0)))
        goals += [
            Z3Goal("induction over candidates, base: the empty sums S_0 = T_0 = 0",
                   invariant(z3.RealVal(0), z3.RealVal(0), z3.RealVal(0)),
                   [common > 0], {"K": common}, replay),
            Z3Goal("step: adding a_j = K exp(t_j) in (0, 1] keeps 0 <= S_n <= n, S_n = K T_n with "
                   "T_n = sum_j exp(t_j), and S_n, T_n > 0 once n >= 1",
                   invariant(total + a, weights + e, n + 1),
                   [invariant(total, weights, n), n >= 0, common > 0, 0 < a, a <= 1,
                    a == common * e, e > 0],
                   {"S": total, "T": weights, "n": n, "a": a, "e": e, "K": common}, replay),
            Z3Goal("the law: a_i / S = K exp(t_i) / (K T) = exp(t_i) / sum_j exp(t_j), the stated "
                   "exponential mechanism",
                   a / total == e / weights,
                   [common > 0, weights > 0, a == common * e, total == common * weights],
                   {"S": total, "T": weights, "a": a, "e": e, "K": common}, replay),
        ]
        k, k_natural = natural("k")
        p_round, p_return = z3.Reals("r P")
        goals.append(Z3Goal(
            "first-round analysis: with r = 1 - S/k < 1 and 0 < S <= k, the return probability P "
            "of candidate i solves P = a_i/k + r P only as P = a_i / S",
            z3.And(0 <= p_round, p_round < 1, p_return == a / total),
            [*k_natural, k >= 1, 0 < total, total <= k, 0 < a, a <= 1,
             p_round == 1 - total / k, p_return == a / k + p_round * p_return],
            {"k": k, "S": total, "a": a, "r": p_round, "P": p_return}, replay))

        def geometric() -> Decision:
            r, step, rounds = sympy.symbols("r n N", nonnegative=True)
            partial = sympy.summation(r ** step, (step, 0, rounds - 1))
            general = [expr for expr, condition in partial.args if condition == sympy.true] \
                if isinstance(partial, sympy.Piecewise) else [partial]
            if general and sympy.cancel(general[0] - (1 - r ** rounds) / (1 - r)) == 0:
                return Decision(True, detail=f"sum_(n<N) r^n = {general[0]} for r != 1, which "
                                             "tends to 1/(1-r) for 0 <= r < 1")
            return Decision(False, {"sum": str(partial)}, "sum_(n<N) r^n is not (1-r^N)/(1-r)")

        goals.append(ComputedGoal("the first N rounds return i with probability a_i/k * "
                                  "(1 - r^N)/(1 - r), tending to (a_i/k)/(1-r) (SymPy)", "sympy",
                                  geometric))
        return goals

    def privacy_goals() -> list[Any]:
        """Everything on the running function (its scale, orientation and kernels) and the
        built map, one orientation at a time."""
        goals: list[Any] = [exact_noise_goal(lambda: _concrete(constructor, {})[0]),
                            _sampler_is_audited(constructor), metric_premise(
            lambda: constructor(scale=1.0), LInfDistance, MaxDivergence,
            "the termwise bound |s_j - s'_j| <= d_in")]
        replay = _replay_privacy(constructor)
        d, d_real = z3.Real("d_in"), [z3.Real("d_in") >= 0]
        a, a2, total, total2, k_up, extra, extra2 = z3.Reals("a a2 S S2 K e e2")
        goals.append(Z3Goal(
            "induction over candidates: S_n <= K S'_n survives adding a_j <= K a'_j (base 0 <= K 0)",
            z3.And(0 <= k_up * 0, total + extra <= k_up * (total2 + extra2)),
            [k_up > 0, total <= k_up * total2, extra <= k_up * extra2],
            {"S": total, "S2": total2, "K": k_up}, replay))
        for optimize in STATED_ORIENTATION:
            m, params, assumptions = _symbolic(constructor, optimize)
            f = m.function
            scale = ops.exact(f.scale)
            x, x2, best, best2, u = z3.Reals("x x2 best best2 u")
            g = f.rejection_gamma(f.oriented(x, f.sign), best, f.scale)
            g2 = f.rejection_gamma(f.oriented(x2, f.sign), best2, f.scale)
            shift = reference(f, best2) - reference(f, best)
            slack = d / scale
            near = [*assumptions, *d_real, ops.absolute(x - x2) <= d,
                    f.oriented(x, f.sign) <= best, f.oriented(x2, f.sign) <= best2]
            names = {**params, "running scale": f.scale, "d_in": d, "x": x, "x2": x2,
                     "best": best, "best2": best2}
            for name, (mine, other, lift) in {"a_j <= exp(u) exp(d/scale) a'_j":
                                              (g, g2, shift),
                                              "a'_j <= exp(-u) exp(d/scale) a_j":
                                              (g2, g, -shift)}.items():
                rest = other - mine - lift
                goals.append(Z3Goal(
                    f"({optimize}) termwise, on the running kernels and scale, u = c' - c with "
                    f"c = gamma(m) + m/scale the argmax's: {name}",
                    EXP(-mine) <= EXP(lift) * EXP(slack) * EXP(-other),
                    [*near, exp_product(other - mine, -other), exp_product(lift, rest),
                     exp_monotone(rest, slack), *exp_facts(-other, lift, slack)],
                    names, replay))
            epsilon = m.map(d)
            k1, k2 = EXP(u) * EXP(slack), EXP(-u) * EXP(slack)
            names = {**params, "running scale": f.scale, "d_in": d, "u": u}
            goals += [
                Z3Goal(f"({optimize}) the built map is at least 2 d_in / scale, scale the running "
                       "function's", epsilon >= 2 * d / scale, [*assumptions, *d_real], names,
                       replay),
                Z3Goal(f"({optimize}) Pr[i] = a_i/S <= exp(map(d_in)) a'_i/S' = exp(map(d_in)) "
                       "Pr'[i], from a_i <= K a'_i, S' <= K' S and K K' = exp(2 d_in/scale)",
                       a / total <= EXP(epsilon) * (a2 / total2),
                       [*assumptions, *d_real, total > 0, total2 > 0, a > 0, a2 > 0,
                        a <= k1 * a2, total2 <= k2 * total,
                        exp_product(u, -u), exp_product(slack, slack),
                        exp_monotone(2 * d / scale, epsilon), *exp_facts(u, -u, slack)],
                       names, replay),
            ]
        return goals

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every score vector s in the input domain (k >= 1 candidates: the domain "
                   "admits no empty vector) the output is an int index in [0, k): the reported "
                   "candidate is the uniform draw in [0, k).",
                   r"\forall s \in \mathtt{input\_domain}:\ k = |s| \ge 1,\ "
                   r"\mathtt{function}(s) \in \{0, \dots, k - 1\} \subseteq \mathtt{int}",
                   output_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "LInf distance is defined on the input vector domain of non-empty vectors of "
                   "finite, non-NaN scores.",
                   r"d_{\infty} \sim \mathrm{VectorDomain}(\mathrm{AtomDomain}(T), "
                   r"\mathtt{min\_size} = 1)",
                   lambda: [compatibility_goal(
                       constructor, lambda: [_symbolic(constructor, o)[0] for o in STATED_ORIENTATION]
                       + [constructor.build(scale=1.0, optimize="max", T=int)],
                       {"scale": 1.0})]),
        Obligation(f"{prefix}.runtime_errors", Kind.RUNTIME_ERRORS,
                   "function(s) raises on no s in the input domain: the domain admits only "
                   "non-empty vectors, of finite scores; the running maximum m, by induction over "
                   "the candidates, is at least every oriented score o_i, and every gamma_i = "
                   "rejection_gamma(o_i, m, scale) with o_i <= m is a finite rational >= 0, so "
                   "sample_bernoulli_exp never raises.",
                   r"\forall s \in \mathtt{input\_domain}:\ |s| \ge 1,\ "
                   r"\forall i:\ o_i \le m = \max_j o_j,\ "
                   r"\gamma_i = \mathtt{rejection\_gamma}(o_i, m, \mathtt{scale}) "
                   r"\in \mathbb{Q}_{\ge 0}",
                   maximum_goals),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "The rejection loop returns i with probability a_i / sum_j a_j, a_i = "
                   "exp(-gamma_i) in (0, 1] (every gamma_i finite and >= 0): each round returns i "
                   "with probability a_i/k and repeats with r = 1 - S/k < 1, a geometric series. "
                   "The exponents differ as the stated law's, gamma_i - gamma_j = o (s_j - s_i) / "
                   "scale, so a_i = K exp(o s_i/scale) with one K > 0 for all i, and a_i / S is "
                   "the exponential mechanism. The sampler reads scores and scale as the exact "
                   "rationals they are, so no float rounding enters the probabilities.",
                   r"\gamma_i - \gamma_j = \frac{o (s_j - s_i)}{\mathtt{scale}} \implies "
                   r"\Pr[M(s) = i] = \frac{a_i}{\sum_j a_j} = "
                   r"\frac{e^{o s_i/\mathtt{scale}}}{\sum_j e^{o s_j/\mathtt{scale}}}",
                   distribution_goals, uses=(f"{prefix}.runtime_errors",),
                   cites=(BERNOULLI_EXP,)),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "If max_j |s_j - s'_j| <= d_in then Pr[M(s) = i] <= exp(map(d_in)) "
                   "Pr[M(s') = i] for every i: termwise a_j <= exp(u + d_in/scale) a'_j with "
                   "u = c' - c, c = gamma(m) + m/scale the argmax's offset, summed by induction "
                   "over the candidates, and the two factors exp(d_in/scale) multiply to "
                   "exp(2 d_in/scale) <= exp(map(d_in)).",
                   r"d_\infty(s, s') \le d_{in} \implies \frac{\Pr[M(s) = i]}{\Pr[M(s') = i]} "
                   r"\le e^{2 d_{in}/\mathtt{scale}} \le e^{\mathtt{map}(d_{in})}",
                   privacy_goals, uses=(f"{prefix}.distribution", f"{prefix}.map_rounding")),
        map_rounding_obligation(
            prefix, symbolic_build(constructor, floats=("scale",),
                                   fixed={"optimize": "max", "T": float}), real_d_in,
            replay_rounding(constructor, parameter_candidates(("scale",),
                                                              fixed={"optimize": "max"})),
            "2 d_in / scale"),
    )


IMPORT = "from mechanisms.make_report_noisy_max import make_report_noisy_max"


def catalogue_entry() -> Entry:
    return Entry("make_report_noisy_max", make_report_noisy_max, report_noisy_max_obligations(),
                 "exponential mechanism (report-noisy-max) over score indices",
                 (example("make_report_noisy_max(1.0)", IMPORT),
                  example("make_report_noisy_max(2.0, optimize='min')", IMPORT)), proof=True)
