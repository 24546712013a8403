"""Obligations of ``make_above_threshold``, for every ``scale > 0``, every integer threshold and every
number of queries.

The privacy argument is the coupling proof of AboveThreshold (Dwork and Roth 2014, Theorem 3.23;
Lyu, Su and Li 2017, Theorem 2), which is *cited* for one step: that, the draws being independent
and taken in order, ``Pr[M(q) = i] = sum_r Pr[rho = r] prod_{j<i} F_j(r) G_i(r)`` with
``F_j(r) = Pr[not above(q_j, nu, T, r)]`` and ``G_i(r) = Pr[above(q_i, nu, T, r)]`` (the last factor
absent for ``i = k``). Every other step is checked on the code's kernels with Z3: the discrete
Laplace shift ratios (``exp`` uninterpreted, with stated facts), the event inclusions under the
shift ``rho -> rho + Delta``, ``nu_i -> nu_i + 2 Delta``, termwise products and sums by induction,
and that the noise scales the code draws with make the cost at most ``exp(map(d_in))``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable

import mpmath
import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.make_above_threshold import AboveThreshold, make_above_threshold
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import LInfDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.kernels import goals_on_terms, trusted_kernel_goal
from obligations.exponential import EXP, exp_facts, exp_monotone, exp_product
from obligations.noisy_max import finite_running_scale_goal
from obligations.rounding import (map_rounding_obligation, parameter_candidates, real_d_in,
                                  replay_rounding, symbolic_build)
from obligations.noise import exact_noise_goal
from obligations.reports import (bound_assertion, claim_assertion, constructor_call, import_line,
                                 plain_report, reproducer, returns)
from obligations.kernel.reviewed import reviewed

SVT = ("Dwork and Roth 2014, Theorem 3.23 (AboveThreshold): Pr[M(q) = i] decomposes over the "
       "threshold noise rho as sum_r Pr[rho = r] prod_{j<i} F_j(r) G_i(r)",
       "Lyu, Su and Li 2017, Theorem 2",
       "Canonne, Kamath and Steinke 2020, Algorithm 2 (exact discrete Laplace)")
CHECKED_KERNELS = ("threshold_noise_scale", "query_noise_scale", "above", "exhausted")
"""The members the goals run on the object itself; every other member must be AboveThreshold's."""
DIGITS = 40
REACH = 50
"""Noise values summed: ``|y| <= REACH * b`` for a discrete Laplace of scale ``b`` (the rest has
mass below ``2 exp(-REACH)``, counted in the error bound)."""


def _symbolic(constructor: Constructor) -> tuple[Measurement, dict[str, Any], list[Any]]:
    params = {"scale": z3.Real("scale"), "threshold": z3.Int("threshold")}
    return constructor.build(**params), params, constructor.assumptions(**params)


def _concrete(constructor: Constructor, scale: Any, threshold: int = 0) -> tuple[Measurement, dict]:
    arguments = {"scale": scale, "threshold": threshold}
    return constructor(**arguments), arguments


def _model_scale(counterexample: dict[str, Any]) -> float:
    scale = float(Fraction(counterexample.get("scale", 1)))
    return scale if 1e-3 <= scale <= 50 else 1.0


def _scales(counterexample: dict[str, Any]) -> list[float]:
    """The model's scale, then small simple ones: a replay searches around the model."""
    return list(dict.fromkeys([_model_scale(counterexample), 1.0, 0.5, 2.0]))


def _discrete_laplace(b: Fraction) -> tuple[list[tuple[int, Any]], Any]:
    """``(y, Pr[Y = y])`` for ``|y| <= REACH b + 1``, ``Y ~ DL(b)``, and the mass left out."""
    with mpmath.workdps(DIGITS):
        t = mpmath.exp(-mpmath.mpf(b.denominator) / b.numerator)
        reach = int(math.ceil(REACH * b)) + 1
        law = [(y, (1 - t) / (1 + t) * t ** abs(y)) for y in range(-reach, reach + 1)]
        return law, 2 * t ** (reach + 1) / (1 + t)


def _at_most(n: int, t: Any) -> Any:
    """``Pr[nu <= n]`` for a discrete Laplace with ``t = exp(-1/b)``."""
    return 1 - t ** (n + 1) / (1 + t) if n >= 0 else t ** (-n) / (1 + t)


def code_distribution(m: Measurement, answers: list[int]) -> tuple[list[Any], Any]:
    """``Pr[M(q) = i]`` for ``i`` in ``[0, k]`` of the running function: its noise scales, its
    threshold and its own ``above`` and ``exhausted`` kernels, run on every ``rho`` and ``nu``
    with ``|.| <= REACH b`` (mpmath). Returns lower bounds and the neglected mass (a union bound
    over ``rho`` and the ``k`` draws of ``nu``), which each true probability exceeds them by at
    most."""
    f = m.function
    rho_law, rho_tail = _discrete_laplace(Fraction(f.threshold_noise_scale(f.scale)))
    nu_law, nu_tail = _discrete_laplace(Fraction(f.query_noise_scale(f.scale)))
    k = len(answers)
    last = f.exhausted(k)
    split: dict[tuple[int, int], tuple[Any, Any]] = {}

    def masses(answer: int, r: int) -> tuple[Any, Any]:
        """``(Pr[above], Pr[not above])`` over the summed ``nu``, for one answer and ``rho``."""
        if (answer, r) not in split:
            above = [ops.truthy(f.above(answer, v, f.threshold, r)) for v, _ in nu_law]
            split[answer, r] = (mpmath.fsum(w for (_, w), a in zip(nu_law, above) if a),
                                mpmath.fsum(w for (_, w), a in zip(nu_law, above) if not a))
        return split[answer, r]

    with mpmath.workdps(DIGITS):
        out = {i: mpmath.mpf(0) for i in range(k)}
        out[last] = out.get(last, mpmath.mpf(0))
        for r, weight in rho_law:
            for i, answer in enumerate(answers):
                reported, stays = masses(answer, r)
                out[i] += weight * reported
                weight *= stays
            out[last] += weight
        values = [out.get(i, mpmath.mpf(0)) for i in range(k + 1)]
        return values, rho_tail + k * nu_tail


def stated_distribution(scale: Any, threshold: int, answers: list[int]) -> list[Any]:
    """The specification of ``make_above_threshold(scale, threshold)``, from its arguments:
    ``rho ~ DL(scale)``, ``nu_i ~ DL(2 scale)``, the first ``i`` with ``q_i + nu_i >= threshold +
    rho``, else ``k``; closed-form ``Pr[nu <= n]``, summed over ``|rho| <= REACH scale + 1``."""
    with mpmath.workdps(DIGITS):
        b = mpmath.mpf(Fraction(scale).numerator) / Fraction(scale).denominator
        t_rho, t_nu = mpmath.exp(-1 / b), mpmath.exp(-1 / (2 * b))
        reach = int(math.ceil(REACH * float(b))) + 1
        out = [mpmath.mpf(0)] * (len(answers) + 1)
        for r in range(-reach, reach + 1):
            weight = (1 - t_rho) / (1 + t_rho) * t_rho ** abs(r)
            for i, answer in enumerate(answers):
                below = _at_most(threshold + r - answer - 1, t_nu)
                out[i] += weight * (1 - below)
                weight *= below
            out[-1] += weight
        return out


def worst_loss(m: Measurement, pairs: list[tuple[list[int], list[int]]]) -> tuple[Any, tuple]:
    """A certified lower bound of ``max_i ln(Pr[M(q) = i] / Pr[M(q') = i])`` over the pairs."""
    worst, shown = mpmath.mpf("-inf"), ([], [])
    for q, q_prime in pairs:
        p, _ = code_distribution(m, q)
        p_prime, tail = code_distribution(m, q_prime)
        with mpmath.workdps(DIGITS):
            loss = max(mpmath.log(a / (b + tail)) for a, b in zip(p, p_prime) if a > 0)
        if loss > worst:
            worst, shown = loss, (q, q_prime)
    return worst, shown


def neighbour_pairs(delta: int) -> list[tuple[list[int], list[int]]]:
    """``(D, ..., D, -D)`` against ``(2D, ..., 2D, -2D)`` for 1 to 4 queries, both ways, and one
    query ``0`` against ``D``: every answer moves by at most ``D``."""
    pairs = [([0], [delta])]
    for k in range(2, 5):
        q = [delta] * (k - 1) + [-delta]
        q_prime = [2 * delta] * (k - 1) + [-2 * delta]
        pairs += [(q, q_prime), (q_prime, q)]
    return pairs + [(b, a) for a, b in pairs[:1]]


def _sampler_is_audited(constructor: Constructor) -> ComputedGoal:
    return trusted_kernel_goal("the above-threshold function",
                               lambda: constructor(scale=1.0, threshold=0).function,
                               AboveThreshold, checked=CHECKED_KERNELS)


def _on_terms(constructor: Constructor, goals: Callable[[], list[Any]]) -> Callable[[], list[Any]]:
    """``goals`` (which read the running function's kernels on solver terms and include
    :func:`_sampler_is_audited`) through :func:`goals_on_terms`: on a function that is not an
    ``AboveThreshold`` and cannot run there, only the kernel goal (unknown (unsupported))."""
    return lambda: goals_on_terms(lambda: constructor(scale=1.0, threshold=0).function,
                                  AboveThreshold, goals, CHECKED_KERNELS) \
        or [_sampler_is_audited(constructor)]


def _replay_distribution(constructor: Constructor) -> Callable[[dict], Replay]:
    """The running function's law (:func:`code_distribution`) against the one stated for the
    arguments, on small query vectors, at the model's scale and threshold and small ones:
    confirmed when they differ by more than the neglected mass."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        threshold_model = int(Fraction(counterexample.get("threshold", 0)))
        for scale in _scales(counterexample):
            for threshold in dict.fromkeys([threshold_model if abs(threshold_model) < 50 else 0,
                                            0]):
                m, arguments = _concrete(constructor, scale, threshold)
                for answers in ([threshold], [threshold - 1, threshold + 2], []):
                    code, tail = code_distribution(m, answers)
                    stated = stated_distribution(scale, threshold, answers)
                    gap = max(abs(a - b) for a, b in zip(code, stated))
                    if gap > 4 * tail + mpmath.mpf(10) ** -(DIGITS - 8):
                        call = constructor_call(constructor, **arguments)
                        return plain_report(
                            True, f"{call} on {answers!r}",
                            f"the function draws {[mpmath.nstr(p, 12) for p in code]}",
                            f"stated for the arguments: {[mpmath.nstr(p, 12) for p in stated]}",
                            *reproducer(import_line(constructor), "import mpmath",
                                        "from obligations.make_above_threshold import "
                                        "code_distribution, stated_distribution",
                                        f"code, tail = code_distribution({call}, {answers!r})",
                                        f"stated = stated_distribution({scale!r}, {threshold!r}, "
                                        f"{answers!r})",
                                        "gap = max(abs(a - b) for a, b in zip(code, stated))",
                                        claim_assertion(f"gap <= 4 * tail + mpmath.mpf(10) ** "
                                                        f"-{DIGITS - 8}",
                                                        "the function draws {code}, the stated "
                                                        "law is {stated}")))
        return plain_report(False, "the function's law is the stated one on the probes")
    return replay


def _replay_output(constructor: Constructor) -> Callable[[dict], Replay]:
    """No query can reach a threshold of 10^9: the real function returns ``exhausted(k)``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        k = min(max(int(counterexample.get("k", 1)), 0), 5)
        m, arguments = _concrete(constructor, 1.0, 10 ** 9)
        answers = [0] * k
        output = m(answers, __import__("random").Random(0))
        problem = None if type(output) is int and 0 <= output <= k else \
            f"output {output!r} ({type(output).__name__}) is not an int in [0, {k}]"
        call = constructor_call(constructor, **arguments)
        return plain_report(problem is not None, f"{call} on {answers!r}",
                            problem or f"output {output!r} is in [0, {k}]",
                            *reproducer(import_line(constructor), "import random",
                                        f"output = {call}({answers!r}, random.Random(0))",
                                        claim_assertion(f"type(output) is int and 0 <= output "
                                                        f"<= {k}", "output {output!r} is not an "
                                                        f"int in [0, {k}]")))
    return replay


def _replay_errors(constructor: Constructor) -> Callable[[dict], Replay]:
    """Run the real function on one query at the model's scale and see whether it raises."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        model = float(Fraction(counterexample.get("scale", 1)))
        call, output = "", None
        for scale in dict.fromkeys([model if math.isfinite(model) else 1.0, 0.25, 1.0]):
            try:
                m, arguments = _concrete(constructor, scale)
            except (ValueError, ArithmeticError):  # refused by the preconditions
                continue
            call = constructor_call(constructor, **arguments)
            try:
                output = m([0], __import__("random").Random(0))
            except (ValueError, ArithmeticError) as error:
                return plain_report(True, f"{call} on [0]",
                                    f"raised {type(error).__name__}: {error}",
                                    *reproducer(import_line(constructor), "import random",
                                                *returns(f"{call}([0], random.Random(0))",
                                                         "the function on [0]")))
        return plain_report(False, f"{call} on [0]", f"returned {output!r}")
    return replay


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """The certified worst loss over :func:`neighbour_pairs` against ``map(D)``, at the model's
    scale and ``D`` and at small ones (:func:`_scales`, ``D`` in 1, 2)."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        delta = int(Fraction(counterexample.get("delta", 1)))
        deltas = dict.fromkeys([delta if 1 <= delta <= 10 else 1, 1, 2])
        lines: list[str] = []
        call = ""
        for scale, delta in [(s, d) for s in _scales(counterexample) for d in deltas]:
            m, arguments = _concrete(constructor, scale)
            claimed = m.map(delta)
            loss, (q, q_prime) = worst_loss(m, neighbour_pairs(delta))
            confirmed = loss > mpmath.mpf(claimed)
            call = constructor_call(constructor, **arguments)
            lines = [f"inputs q = {q!r}, q' = {q_prime!r} (LInf distance d_in = {delta})",
                     f"claimed  map(d_in) = {claimed!r}",
                     f"observed max_i ln(Pr[M(q)=i] / Pr[M(q')=i]) >= {mpmath.nstr(loss, 17)}"
                     + ("  > claimed" if confirmed else ""),
                     *reproducer(import_line(constructor),
                                 "from obligations.make_above_threshold import worst_loss",
                                 f"m = {call}", f"claimed = m.map({delta})",
                                 f"observed = worst_loss(m, [({q!r}, {q_prime!r})])[0]",
                                 bound_assertion("max_i ln(Pr[M(q)=i] / Pr[M(q')=i]) >=",
                                                 f"map({delta})"))]
            if confirmed:
                return plain_report(True, call, *lines)
        return plain_report(False, call, *lines)
    return replay


@reviewed
def above_threshold_obligations(constructor: Constructor = make_above_threshold,
                                prefix: str = "above_threshold") -> tuple[Obligation, ...]:

    def output_goals() -> list[Any]:
        m, params, assumptions = _symbolic(constructor)
        k, k_natural = z3.Int("k"), [z3.Int("k") >= 0]
        out = m.function.exhausted(k)

        def carrier() -> Decision:
            if ops.carrier_of(out) is m.output_domain.carrier is int:
                return Decision(True, detail="exhausted(k) is a Z3 Int; enumerate gives ints")
            return Decision(False, {"sort": str(out.sort())}, "the output is not an int")

        replay = _replay_output(constructor)
        return [_sampler_is_audited(constructor),
                finite_running_scale_goal(constructor, {"threshold": 0}, [0]),
                positive_scales_goal(),
                ComputedGoal("the output has the carrier int (Z3 sort of exhausted(k))",
                             "structure", carrier, replay),
                Z3Goal("exhausted(k) is in [0, k] and in the output domain (a reported index "
                       "comes from enumerate, so it is in [0, k))",
                       z3.And(0 <= out, out <= k, ops.to_bool(m.output_domain.contains(out))),
                       [*assumptions, *k_natural], {**params, "k": k}, replay)]

    def positive_scales_goal() -> Z3Goal:
        m, params, assumptions = _symbolic(constructor)
        f = m.function
        return Z3Goal("both noise scales of the running function (from its own scale) are > 0, "
                      "so sample_discrete_laplace never raises",
                      z3.And(f.threshold_noise_scale(f.scale) > 0,
                             f.query_noise_scale(f.scale) > 0),
                      assumptions, {**params, "running scale": f.scale},
                      _replay_errors(constructor))

    def error_goals() -> list[Any]:
        return [_sampler_is_audited(constructor), positive_scales_goal()]

    def distribution_goals() -> list[Any]:
        """The running function draws the law stated for the arguments: the same noise scales
        and threshold, the comparison ``q + nu >= threshold + rho`` up to the sign of each noise
        (the discrete Laplace is symmetric, so ``nu -> -nu`` and ``rho -> -rho`` preserve the
        law), and ``k`` when no query is above."""
        m, params, assumptions = _symbolic(constructor)
        f, scale, threshold = m.function, params["scale"], params["threshold"]
        answer, v, r, big_t = z3.Ints("q v r T")
        k = z3.Int("k")
        names = {**params, "running scale": f.scale, "running threshold": f.threshold}
        replay = _replay_distribution(constructor)
        stated = [ops.to_bool(f.above(answer, v, big_t, r)) ==
                  (answer + sign_v * v >= big_t + sign_r * r)
                  for sign_v in (1, -1) for sign_r in (1, -1)]
        return [
            _sampler_is_audited(constructor),
            Z3Goal("the threshold noise scale of the running function is the stated scale",
                   f.threshold_noise_scale(f.scale) == scale, assumptions, names, replay),
            Z3Goal("the query noise scale of the running function is the stated 2 scale",
                   f.query_noise_scale(f.scale) == 2 * scale, assumptions, names, replay),
            Z3Goal("the running threshold is the argument", f.threshold == threshold,
                   assumptions, names, replay),
            Z3Goal("above(q, nu, T, rho) is q + nu >= T + rho, up to the sign of nu and of rho "
                   "(one choice for all q, nu, T, rho)",
                   z3.Or(*[z3.ForAll([answer, v, big_t, r], claim) for claim in stated]),
                   assumptions, names, replay),
            Z3Goal("no query above: the output is k", f.exhausted(k) == k,
                   [*assumptions, k >= 0], {**names, "k": k}, replay),
        ]

    def privacy_goals() -> list[Any]:
        m, params, assumptions = _symbolic(constructor)
        f, threshold = m.function, m.function.threshold
        b_rho, b_nu = f.threshold_noise_scale(f.scale), f.query_noise_scale(f.scale)
        delta, d_in = z3.Int("delta"), z3.Real("d_in")
        r, v, answer, answer2 = z3.Ints("r v q q2")
        c = z3.Real("c")
        near = [*assumptions, delta >= 0, delta <= d_in, ops.absolute(answer - answer2) <= delta]
        names = {**params, "delta": delta, "d_in": d_in}
        replay = _replay_privacy(constructor)

        def shift_ratio(b: Any, y: Any, step: Any) -> Z3Goal:
            """``Pr[Y = y] <= exp(step / b) Pr[Y = y + step]`` for ``Y ~ DL(b)``,
            ``Pr[Y = y] = c exp(-|y|/b)``."""
            here, there = -ops.absolute(y) / b, -ops.absolute(y + step) / b
            return Z3Goal(f"discrete Laplace of scale {b}: Pr[Y = y] <= exp({step}/b) "
                          f"Pr[Y = y + {step}]",
                          c * EXP(here) <= EXP(step / b) * (c * EXP(there)),
                          [*assumptions, delta >= 0, c > 0, exp_product(step / b, there),
                           exp_monotone(here, step / b + there), *exp_facts(there, step / b)],
                          {**names, "y": y}, replay)

        x, x2, y, y2, z, z2 = z3.Reals("x x2 y y2 z z2")
        total, total2, k_up, term, term2 = z3.Reals("S S2 K t t2")
        epsilon = m.map(d_in)
        cost = b_rho, b_nu
        return [
            exact_noise_goal(lambda: _concrete(constructor, 1.0)[0]),
            _sampler_is_audited(constructor),
            metric_premise(lambda: constructor(scale=1.0, threshold=0), LInfDistance,
                           MaxDivergence, "the shift by Delta = d_LInf(q, q')"),
            shift_ratio(b_rho, r, delta),
            shift_ratio(b_nu, v, 2 * delta),
            Z3Goal("one coupling for all queries: for a sign choice (s_r, s_v) in {1, -1}^2, "
                   "rho -> rho + s_r Delta keeps a query below the threshold below (not "
                   "above(q_j, nu, T, r) => not above(q'_j, nu, T, r + s_r Delta)) and, with nu -> "
                   "nu + 2 s_v Delta, the reported query above (above(q_i, nu, T, r) => "
                   "above(q'_i, nu + 2 s_v Delta, T, r + s_r Delta)); the shifts are bijections "
                   "and cost the same for either sign",
                   z3.Or(*[z3.ForAll([answer, answer2, v, r], z3.Implies(
                       z3.And(*near[len(assumptions):]),
                       z3.And(z3.Implies(ops.negate(f.above(answer, v, threshold, r)),
                                         ops.negate(f.above(answer2, v, threshold,
                                                            r + s_r * delta))),
                              z3.Implies(f.above(answer, v, threshold, r),
                                         f.above(answer2, v + 2 * s_v * delta, threshold,
                                                 r + s_r * delta)))))
                           for s_r in (1, -1) for s_v in (1, -1)]),
                   [*assumptions, delta >= 0, delta <= d_in],
                   {**names, "running threshold": threshold}, replay),
            Z3Goal("termwise products: 0 <= x <= x', 0 <= y <= K_y y', 0 <= z <= K_z z' give "
                   "x y z <= K_y K_z x' y' z' (the factors of one rho, and by induction over the "
                   "queries the product of the F_j)",
                   x * y * z <= (k_up * term) * (x2 * y2 * z2),
                   [0 <= x, x <= x2, 0 <= y, y <= k_up * y2, 0 <= z, z <= term * z2,
                    k_up >= 0, term >= 0],
                   {"x": x, "x2": x2, "y": y, "y2": y2, "z": z, "z2": z2, "K": k_up, "t": term},
                   replay),
            Z3Goal("induction over the terms of a sum (over rho, or over nu): S <= K S' survives "
                   "adding t <= K t' (base 0 <= K 0); the shifts are bijections of the integers",
                   z3.And(0 <= k_up * 0, total + term <= k_up * (total2 + term2)),
                   [k_up >= 0, total <= k_up * total2, term <= k_up * term2],
                   {"S": total, "S2": total2, "K": k_up, "t": term, "t2": term2}, replay),
            Z3Goal("the shifts cost exp(Delta/b_rho) exp(2 Delta/b_nu) <= exp(map(d_in)) for "
                   "every integer 0 <= Delta <= d_in (the code's noise scales and map)",
                   EXP(delta / cost[0]) * EXP(2 * delta / cost[1]) <= EXP(epsilon),
                   [*assumptions, delta >= 0, delta <= d_in,
                    exp_product(delta / cost[0], 2 * delta / cost[1]),
                    exp_monotone(delta / cost[0] + 2 * delta / cost[1], epsilon),
                    *exp_facts(delta / cost[0], 2 * delta / cost[1], epsilon)],
                   names, replay),
            Z3Goal("output k (no query above) costs only exp(Delta/b_rho) <= exp(map(d_in))",
                   EXP(delta / cost[0]) <= EXP(epsilon),
                   [*assumptions, delta >= 0, delta <= d_in,
                    exp_monotone(delta / cost[0], epsilon)], names, replay),
        ]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For k queries the output is an int in [0, k]: an index from enumerate, or "
                   "exhausted(k) = k when no query is above the threshold.",
                   r"\forall q \in \mathbb{Z}^k:\ \mathtt{function}(q) \in \{0, \dots, k\} "
                   r"\subseteq \mathtt{int}",
                   _on_terms(constructor, output_goals)),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "LInf distance is defined on vectors of integers.",
                   r"d_{\infty} \sim \mathrm{VectorDomain}(\mathrm{AtomDomain}(\mathtt{int}))",
                   lambda: [compatibility_goal(constructor, lambda: [_symbolic(constructor)[0]],
                                               {"scale": 1.0, "threshold": 0})]),
        Obligation(f"{prefix}.runtime_errors", Kind.RUNTIME_ERRORS,
                   "function(q) raises for no input: both discrete Laplace scales are positive "
                   "rationals, and nothing else in the loop can fail.",
                   r"b_\rho = \mathtt{scale} > 0,\ b_\nu = 2\,\mathtt{scale} > 0",
                   _on_terms(constructor, error_goals)),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "The running function draws the law stated for (scale, threshold): rho ~ "
                   "DL(scale) once, nu_i ~ DL(2 scale) per query, in order, and the first i with "
                   "q_i + nu_i >= threshold + rho (the sign of each noise is free: the discrete "
                   "Laplace is symmetric), else k.",
                   r"M(q) = \min\{i : q_i + \nu_i \ge T + \rho\} \cup \{k\},\ "
                   r"\rho \sim \mathrm{DL}(\mathtt{scale}),\ \nu_i \sim \mathrm{DL}(2\,\mathtt{scale})",
                   _on_terms(constructor, distribution_goals), cites=SVT[2:]),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "If max_j |q_j - q'_j| <= d_in then Pr[M(q) = i] <= exp(map(d_in)) "
                   "Pr[M(q') = i] for every i in [0, k]: shifting rho by Delta and the reported "
                   "query's nu by 2 Delta maps the event {M(q) = i} into {M(q') = i} and costs "
                   "exp(Delta/scale) exp(2 Delta/(2 scale)) = exp(2 Delta/scale). The "
                   "decomposition of Pr[M(q) = i] over rho is cited; its use is checked.",
                   r"d_\infty(q, q') \le d_{in} \implies \Pr[M(q) = i] \le "
                   r"e^{\Delta/b_\rho + 2\Delta/b_\nu} \Pr[M(q') = i] \le e^{\mathtt{map}(d_{in})}"
                   r"\Pr[M(q') = i]",
                   _on_terms(constructor, privacy_goals), cites=SVT, uses=(f"{prefix}.map_rounding",)),
        map_rounding_obligation(
            prefix, symbolic_build(constructor, floats=("scale",), integers=("threshold",)),
            real_d_in, replay_rounding(constructor, parameter_candidates(("scale",),
                                                                         fixed={"threshold": 0})),
            "2 d_in / scale"),
    )


IMPORT = "from mechanisms.make_above_threshold import make_above_threshold"


def catalogue_entry() -> Entry:
    return Entry("make_above_threshold", make_above_threshold, above_threshold_obligations(),
                 "sparse vector technique: first query above a noisy threshold",
                 (example("make_above_threshold(2.0, 10)", IMPORT),
                  example("make_above_threshold(1, 0)", IMPORT)), proof=True)
