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

from fractions import Fraction
from typing import Any, Callable

import mpmath
import sympy
import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.make_report_noisy_max import OPTIMIZE_SIGN, NoisyMax, make_report_noisy_max
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import LInfDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.make_randomized_response import EXP, exp_facts
from obligations.rounding import (map_rounding_obligation, parameter_candidates, real_d_in,
                                  replay_rounding, symbolic_build)
from obligations.noise import exact_noise_goal
from obligations.reports import constructor_call, import_line, plain_report
from obligations.symbols import natural

BERNOULLI_EXP = "Canonne, Kamath and Steinke 2020, Algorithm 1 (exact Bernoulli(exp(-gamma)))"
AUDITED_METHODS = ("__call__", "gammas")
"""The sampler's loop, fixed: only the kernels may differ, and those are checked."""


def exp_product(p: Any, q: Any) -> Any:
    """The fact ``exp(p + q) = exp(p) exp(q)``."""
    return EXP(p + q) == EXP(p) * EXP(q)


def exp_monotone(p: Any, q: Any) -> Any:
    """The fact ``p <= q => exp(p) <= exp(q)``."""
    return z3.Implies(p <= q, EXP(p) <= EXP(q))


class ScriptedRng:
    """``randrange`` returns the scripted values in turn (each must lie in range), then 0: with
    every ``gamma = 0`` the exact Bernoulli(exp(-0)) accepts on ``randrange(1) = 0``."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def randrange(self, bound: int) -> int:
        value = self.values.pop(0) if self.values else 0
        if not 0 <= value < bound:
            raise ValueError(f"scripted draw {value} is outside [0, {bound})")
        return value


def _symbolic(constructor: Constructor, optimize: str = "max") -> tuple[Measurement, dict, list]:
    scale = z3.Real("scale")
    m = constructor.build(scale=scale, optimize=optimize, T=float)
    return m, {"scale": scale}, constructor.assumptions(scale=scale, optimize=optimize, T=float)


def _concrete(constructor: Constructor, counterexample: dict[str, Any],
              optimize: str = "max") -> tuple[Measurement, dict[str, Any]]:
    scale = float(Fraction(counterexample.get("scale", 1)))
    arguments = {"scale": scale if scale > 0 else 1.0, "optimize": optimize}
    return constructor(**arguments), arguments


def code_distribution(m: Measurement, scores: list[Any]) -> list[Any]:
    """``Pr[i] = a_i / sum_j a_j`` with ``a_i = exp(-gamma_i)`` and the code's own ``gamma_i``
    (mpmath, 60 digits): what the rejection loop returns."""
    with mpmath.workdps(60):
        weights = [mpmath.exp(-mpmath.mpf(g.numerator) / g.denominator)
                   for g in map(Fraction, m.function.gammas(scores))]
        total = mpmath.fsum(weights)
        return [w / total for w in weights]


def stated_distribution(m: Measurement, scores: list[Any]) -> list[Any]:
    """``Pr[i] = exp(s_i / scale) / sum_j exp(s_j / scale)`` (``s`` negated for "min")."""
    f = m.function
    with mpmath.workdps(60):
        scale = mpmath.mpf(Fraction(f.scale).numerator) / Fraction(f.scale).denominator
        oriented = [f.sign * Fraction(s) for s in scores]
        top = max(oriented)
        weights = [mpmath.exp((mpmath.mpf((s - top).numerator) / (s - top).denominator) / scale)
                   for s in oriented]
        total = mpmath.fsum(weights)
        return [w / total for w in weights]


def _sampler_is_audited(constructor: Constructor) -> ComputedGoal:
    def decide() -> Decision:
        function = constructor(scale=1.0).function
        replaced = [name for name in AUDITED_METHODS
                    if getattr(type(function), name, None) is not getattr(NoisyMax, name)]
        if not isinstance(function, NoisyMax) or replaced:
            return Decision(False, {"function": type(function).__name__, "replaced": replaced},
                            "the sampler does not draw through the checked kernels",
                            unsupported=True)
        return Decision(True, detail="NoisyMax.__call__: uniform candidate(randrange(k)), "
                                     "accepted by sample_bernoulli_exp(rejection_gamma)")
    return ComputedGoal("the sampler draws through the checked kernels (its __call__ and gammas "
                        "are NoisyMax's)", "structure", decide)


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
        return plain_report(problem is not None, f"{call} on {scores!r}, uniform draw u = {u}",
                            problem or f"output {output!r} is an index in [0, {k})",
                            "reproduce:", f"  {import_line(constructor)}",
                            "  from obligations.make_report_noisy_max import ScriptedRng",
                            f"  print({call}({scores!r}, ScriptedRng({u})))")
    return replay


def _replay_gamma(constructor: Constructor) -> Callable[[dict], Replay]:
    """A negative ``gamma`` makes the exact Bernoulli raise: propose that candidate and see."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = _concrete(constructor, counterexample)
        scores = [0.0, 1.0, -1.0]
        gammas = m.function.gammas(scores)
        call = constructor_call(constructor, **arguments)
        for index, gamma in enumerate(gammas):
            if gamma < 0:
                try:
                    m(scores, ScriptedRng(index))
                except ValueError as error:
                    return plain_report(True, f"{call} on {scores!r}",
                                        f"gamma_{index} = {gamma} < 0; proposing {index} raises "
                                        f"ValueError: {error}; on [0.0, 0.0, 0.0] it does not, "
                                        "so whether it errs depends on the data")
        return plain_report(False, f"{call} on {scores!r}", f"every gamma >= 0: {gammas}")
    return replay


def _replay_distribution(constructor: Constructor) -> Callable[[dict], Replay]:
    """The code's pmf against the stated one on small score vectors (60 digits)."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        for optimize in OPTIMIZE_SIGN:
            m, arguments = _concrete(constructor, counterexample, optimize)
            for scores in ([0.0, 1.0, 3.0], [2.0, -1.0], [0.5]):
                code, stated = code_distribution(m, scores), stated_distribution(m, scores)
                gap = max(abs(a - b) for a, b in zip(code, stated))
                if gap > mpmath.mpf(10) ** -40:
                    return plain_report(True, f"{constructor_call(constructor, **arguments)} on "
                                        f"{scores!r}",
                                        f"the sampler draws {[mpmath.nstr(p, 12) for p in code]}",
                                        f"stated exp(s_i/scale)/sum: "
                                        f"{[mpmath.nstr(p, 12) for p in stated]}")
        return plain_report(False, "the sampler's pmf is the stated one on the probes")
    return replay


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """``s = (d, 0, ..., 0)`` against ``s' = (0, d, ..., d)`` (distance ``d``) for ``k`` in 2, 3,
    10, 100: the largest ``ln(Pr[s](i) / Pr[s'](i))`` of the code's pmf against ``map(d)``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = _concrete(constructor, counterexample)
        d = float(Fraction(counterexample.get("d_in", 1)))
        d = d if 0 < d < 1e6 else 1.0
        claimed = m.map(d)
        worst, shown = mpmath.mpf(0), ("", "")
        for k in (2, 3, 10, 100):
            for s, s_prime in (([d] + [0.0] * (k - 1), [0.0] + [d] * (k - 1)),
                               ([0.0] + [d] * (k - 1), [d] + [0.0] * (k - 1))):
                p, q = code_distribution(m, s), code_distribution(m, s_prime)
                with mpmath.workdps(60):
                    ratio = max(mpmath.log(a / b) for a, b in zip(p, q))
                if ratio > worst:
                    worst, shown = ratio, (f"[{d!r}] + [0.0] * {k - 1}" if s[0] == d else
                                           f"[0.0] + [{d!r}] * {k - 1}",
                                           f"[0.0] + [{d!r}] * {k - 1}" if s[0] == d else
                                           f"[{d!r}] + [0.0] * {k - 1}")
        confirmed = worst > mpmath.mpf(claimed) * (1 + mpmath.mpf(10) ** -30)
        call = constructor_call(constructor, **arguments)
        return plain_report(
            confirmed, call, f"inputs s = {shown[0]}, s' = {shown[1]} (LInf distance d_in = {d!r})",
            f"claimed  map(d_in) = {claimed!r}",
            f"observed max_i ln(Pr[M(s)=i] / Pr[M(s')=i]) = {mpmath.nstr(worst, 17)}"
            + ("  > claimed" if confirmed else ""),
            "reproduce:", f"  {import_line(constructor)}",
            "  from obligations.make_report_noisy_max import code_distribution",
            f"  m = {call}",
            f"  print(m.map({d!r}), code_distribution(m, {shown[0]}), "
            f"code_distribution(m, {shown[1]}))")
    return replay


def report_noisy_max_obligations(constructor: Constructor = make_report_noisy_max,
                                 prefix: str = "report_noisy_max") -> tuple[Obligation, ...]:

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

        return [_sampler_is_audited(constructor),
                ComputedGoal("the reported index has the output carrier int (Z3 sort of "
                             "candidate(u) for an Int u)", "structure", carrier, replay),
                Z3Goal("candidate(u) is in [0, k) and in the output domain, for every uniform "
                       "draw u in [0, k)",
                       z3.And(0 <= index, index < k,
                              ops.to_bool(m.output_domain.contains(index))),
                       [*assumptions, *k_natural, k >= 1, 0 <= u, u < k],
                       {**params, "k": k, "u": u}, replay)]

    def maximum_goals() -> list[Any]:
        """Induction over the candidates: the running maximum is at least every score seen and
        is one of them."""
        goals: list[Any] = [_sampler_is_audited(constructor)]
        for optimize in OPTIMIZE_SIGN:
            m, params, assumptions = _symbolic(constructor, optimize)
            f = m.function
            best, x, s, scale = z3.Reals("best x s scale")
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
                Z3Goal(f"({optimize}) m >= s_i gives gamma_i = rejection_gamma(s_i, m) >= 0, so "
                       "sample_bernoulli_exp never raises",
                       f.rejection_gamma(s, best, params["scale"]) >= 0,
                       [*assumptions, s <= best], {**params, "best": best, "s": s}, replay),
            ]
        return goals

    def distribution_goals() -> list[Any]:
        goals: list[Any] = [_sampler_is_audited(constructor)]
        m, params, assumptions = _symbolic(constructor)
        f, scale = m.function, params["scale"]
        s, best = z3.Reals("s best")
        gamma = f.rejection_gamma(s, best, scale)
        replay = _replay_distribution(constructor)
        names = {**params, "s": s, "best": best}
        goals += [
            Z3Goal("the acceptance exponent is the stated one: rejection_gamma(s_i, m) = "
                   "(m - s_i) / scale", gamma == (best - s) / scale, assumptions, names, replay),
            Z3Goal("the maximum is accepted with probability exp(-gamma) = 1",
                   EXP(-f.rejection_gamma(best, best, scale)) == 1,
                   [*assumptions, *exp_facts()], names, replay),
        ]
        a, total, n = z3.Reals("a S n")
        argmax_seen = z3.Bool("argmax_seen")
        invariant = lambda total, n, seen: z3.And(  # noqa: E731
            0 <= total, total <= n, z3.Implies(seen, total >= 1))
        new_seen = z3.Bool("argmax_now")
        goals += [
            Z3Goal("induction over candidates, base: the empty sum S_0 = 0",
                   invariant(z3.RealVal(0), z3.RealVal(0), z3.BoolVal(False)), replay=replay),
            Z3Goal("step: adding a_j = exp(-gamma_j) in (0, 1] (exactly 1 for the argmax) keeps "
                   "0 <= S_n <= n and S_n >= 1 once the argmax is in",
                   invariant(total + a, n + 1, z3.Or(argmax_seen, new_seen)),
                   [invariant(total, n, argmax_seen), 0 < a, a <= 1, z3.Implies(new_seen, a == 1)],
                   {"S": total, "n": n, "a": a}, replay),
            Z3Goal("a_j = exp(-gamma_j) lies in (0, 1] for gamma_j >= 0 (exp facts)",
                   z3.And(0 < EXP(-gamma), EXP(-gamma) <= 1),
                   [*assumptions, s <= best, *exp_facts(-gamma), exp_monotone(-gamma, 0)],
                   names, replay),
        ]
        k, k_natural = natural("k")
        p_round, p_return = z3.Reals("r P")
        goals.append(Z3Goal(
            "first-round analysis: with r = 1 - S/k < 1 and 1 <= S <= k, the return probability P "
            "of candidate i solves P = a_i/k + r P only as P = a_i / S",
            z3.And(0 <= p_round, p_round < 1, p_return == a / total),
            [*k_natural, k >= 1, 1 <= total, total <= k, 0 < a, a <= 1,
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
        goals: list[Any] = [exact_noise_goal(lambda: _concrete(constructor, {})[0]),
                            _sampler_is_audited(constructor), metric_premise(
            lambda: constructor(scale=1.0), LInfDistance, MaxDivergence,
            "the termwise bound |s_j - s'_j| <= d_in")]
        replay = _replay_privacy(constructor)
        d, d_real = z3.Real("d_in"), [z3.Real("d_in") >= 0]
        for optimize in OPTIMIZE_SIGN:
            m, params, assumptions = _symbolic(constructor, optimize)
            f, scale = m.function, params["scale"]
            x, x2, best, best2 = z3.Reals("x x2 best best2")
            g = f.rejection_gamma(f.oriented(x, f.sign), best, scale)
            g2 = f.rejection_gamma(f.oriented(x2, f.sign), best2, scale)
            shift, slack = (best2 - best) / scale, d / scale
            near = [*assumptions, *d_real, ops.absolute(x - x2) <= d]
            names = {**params, "d_in": d, "x": x, "x2": x2, "best": best, "best2": best2}
            for name, (mine, other, lift) in {"a_j <= exp(u) exp(d/scale) a'_j":
                                              (g, g2, shift),
                                              "a'_j <= exp(-u) exp(d/scale) a_j":
                                              (g2, g, -shift)}.items():
                rest = other - mine - lift
                goals.append(Z3Goal(
                    f"({optimize}) termwise, u = (m' - m)/scale: {name}",
                    EXP(-mine) <= EXP(lift) * EXP(slack) * EXP(-other),
                    [*near, exp_product(other - mine, -other), exp_product(lift, rest),
                     exp_monotone(rest, slack), *exp_facts(-other, lift, slack)],
                    names, replay))
        a, a2, total, total2, k_up, extra, extra2 = z3.Reals("a a2 S S2 K e e2")
        goals += [
            Z3Goal("induction over candidates: S_n <= K S'_n survives adding a_j <= K a'_j "
                   "(base 0 <= K 0)",
                   z3.And(0 <= k_up * 0, total + extra <= k_up * (total2 + extra2)),
                   [k_up > 0, total <= k_up * total2, extra <= k_up * extra2],
                   {"S": total, "S2": total2, "K": k_up}, replay),
        ]
        m, params, assumptions = _symbolic(constructor)
        scale, u = params["scale"], z3.Real("u")
        epsilon = m.map(d)
        e_d = EXP(d / scale)
        k1, k2 = EXP(u) * e_d, EXP(-u) * e_d
        goals += [
            Z3Goal("the map is at least 2 d_in / scale", epsilon >= 2 * d / scale,
                   [*assumptions, *d_real], {**params, "d_in": d}, replay),
            Z3Goal("Pr[i] = a_i/S <= exp(map(d_in)) a'_i/S' = exp(map(d_in)) Pr'[i], from "
                   "a_i <= K a'_i, S' <= K' S and K K' = exp(2 d_in/scale)",
                   a / total <= EXP(epsilon) * (a2 / total2),
                   [*assumptions, *d_real, total > 0, total2 > 0, a > 0, a2 > 0,
                    a <= k1 * a2, total2 <= k2 * total,
                    exp_product(u, -u), exp_product(d / scale, d / scale),
                    exp_monotone(2 * d / scale, epsilon), *exp_facts(u, -u, d / scale)],
                   {**params, "d_in": d, "u": u}, replay),
        ]
        return goals

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every non-empty score vector of length k, the output is an int index in "
                   "[0, k): the reported candidate is the uniform draw in [0, k).",
                   r"\forall s \in \mathbb{R}^k, k \ge 1:\ \mathtt{function}(s) \in "
                   r"\{0, \dots, k - 1\} \subseteq \mathtt{int}",
                   output_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "LInf distance is defined on the input vector domain of finite, non-NaN scores.",
                   r"d_{\infty} \sim \mathrm{VectorDomain}(\mathrm{AtomDomain}(T))",
                   lambda: [compatibility_goal(
                       constructor, lambda: [_symbolic(constructor, o)[0] for o in OPTIMIZE_SIGN]
                       + [constructor.build(scale=1.0, optimize="max", T=int)],
                       {"scale": 1.0})]),
        Obligation(f"{prefix}.runtime_errors", Kind.RUNTIME_ERRORS,
                   "function(s) raises only on an empty s (decided by the length alone, and "
                   "vectors of different lengths are never LInf-close): every gamma_i = "
                   "(m - s_i)/scale >= 0 because the running maximum m, by induction over the "
                   "candidates, is at least every score, so sample_bernoulli_exp never raises.",
                   r"\forall i:\ \gamma_i = (\max_j s_j - s_i)/\mathtt{scale} \ge 0",
                   maximum_goals),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "The rejection loop returns i with probability a_i / sum_j a_j, a_i = "
                   "exp(-(m - s_i)/scale): each round returns i with probability a_i/k and "
                   "repeats with r = 1 - S/k < 1 (the argmax has a = 1), a geometric series. The "
                   "sampler reads scores and scale as the exact rationals they are, so no float "
                   "rounding enters the probabilities.",
                   r"\Pr[M(s) = i] = \frac{a_i}{\sum_j a_j} = "
                   r"\frac{e^{s_i/\mathtt{scale}}}{\sum_j e^{s_j/\mathtt{scale}}}",
                   distribution_goals, cites=(BERNOULLI_EXP,)),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "If max_j |s_j - s'_j| <= d_in then Pr[M(s) = i] <= exp(map(d_in)) "
                   "Pr[M(s') = i] for every i: termwise a_j <= exp(u + d_in/scale) a'_j with "
                   "u = (m' - m)/scale, summed by induction over the candidates, and the two "
                   "factors exp(d_in/scale) multiply to exp(2 d_in/scale) <= exp(map(d_in)).",
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
