"""Obligations of ``make_laplace_threshold``, for every finite float ``scale > 0``, every int
``threshold >= 0`` and every ``d_in = (l0, l1, linf)`` of non-negative numbers (ints, or floats
read as the rationals they are).

Everything is read from the built measurement: its :class:`ThresholdedNoise` function (its
``shift`` and ``keep`` run on Z3 integers, its sampler, scale and threshold), its domains, its
input metric (whose facts ``linf <= l1 <= l0 linf`` are proved on its own step, as for
``make_count_by``) and its map, run on Z3 terms with its ``exp_lower`` parameter replaced by an
uninterpreted function that knows only ``1 <= exp_lower(y) <= e^y`` for ``y >= 0``, which a
separate goal proves of the real ``exp_lower`` (its polynomial's coefficients, computed by running
it on a polynomial).

The specification is stated here: the discrete Laplace's pmf ``(1 - q) / (1 + q) q^|z|`` with
``q = exp(-1/scale)``, its tail ``Pr[Z >= s] = exp(-(s - 1)/scale) / (exp(1/scale) + 1)`` for
``s >= 1`` (summed from the pmf by SymPy), and the privacy argument: split the keys of two
neighbouring histograms into keys in both (each the discrete Laplace mechanism, then the
threshold as post-processing: pure DP with ``|x(k) - x'(k)| / scale``) and keys in one only (each
``(0, Pr[released])``-close to not being there); basic composition over the independent keys
(Dwork and Roth 2014, Theorem 3.16, cited) gives ``(sum epsilon, sum delta)``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

import mpmath
import sympy
import z3

from mechanisms import float_model
from mechanisms.core import Constructor, Measurement
from mechanisms.make_laplace_threshold import ThresholdedNoise, make_laplace_threshold
from mechanisms.measures import FixedSmoothedMaxDivergence
from mechanisms.metrics import L01InfDistance
from mechanisms.samplers import sample_discrete_laplace
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.kernels import kernel_deviations
from obligations.exponential import EXP
from obligations.reports import (claim_assertion, constructor_call, import_line, literal,
                                 plain_report, reproducer)
from obligations.kernel.reviewed import reviewed
from obligations.threshold_release import (LAPLACE_PMF_LINES, Pmf, abstracted, d_in_terms,
                                           exp_lower_applications, exp_lower_facts, exp_lower_goal,
                                           integer_counts_goal, laplace_pmf, candidate_builds,
                                           replay_non_integer, replay_one_sided, replay_rounding,
                                           shown, symbolic, threshold_obligations,
                                           threshold_premise_goals, threshold_refusals,
                                           threshold_release_goals, threshold_rounding_goals,
                                           true_distance)

CKS = "Canonne, Kamath and Steinke 2020, Algorithm 2 (exact discrete Laplace sampler)"
COMPOSITION = ("Dwork and Roth 2014, Theorem 3.16 (basic composition: (eps_i, delta_i)-DP "
               "mechanisms on independent randomness compose to (sum eps_i, sum delta_i)-DP)")


# --- the specification (stated here, from the pmf) -------------------------------------------


def tail_spec(s: Any, scale: Any) -> Any:
    """The stated ``Pr[Z >= s]``: ``1`` for ``s <= 0`` (a bound), else
    ``exp(-(s - 1)/scale) / (exp(1/scale) + 1)``; ``exp`` uninterpreted."""
    return z3.If(s <= 0, z3.RealVal(1), EXP(-(z3.ToReal(s) - 1) / scale) / (EXP(1 / scale) + 1))


def tail_from_pmf_goal() -> ComputedGoal:
    """SymPy: the pmf sums to 1, and its sum over ``z >= s`` (``s >= 1``) is the stated tail."""
    def decide() -> Decision:
        b = sympy.Symbol("b", positive=True)
        s = sympy.Symbol("s", integer=True, positive=True)
        z = sympy.Symbol("z", integer=True)
        q = sympy.exp(-1 / b)
        pmf = (1 - q) / (1 + q) * sympy.exp(-z / b)  # z >= 0; the pmf is symmetric in z
        total = sympy.simplify(pmf.subs(z, 0) + 2 * sympy.summation(pmf, (z, 1, sympy.oo)))
        tail = sympy.summation(pmf, (z, s, sympy.oo))
        stated = sympy.exp(-(s - 1) / b) / (sympy.exp(1 / b) + 1)
        gap = sympy.simplify(tail - stated)
        if total == 1 and gap == 0:
            return Decision(True, detail=f"sum_z pmf = 1; sum_(z>=s) pmf = {tail} = "
                            "exp(-(s-1)/b) / (exp(1/b) + 1)")
        return Decision(False, {"total": str(total), "gap": str(gap)},
                        "the stated tail is not the pmf's")
    return ComputedGoal("the discrete Laplace pmf (1-q)/(1+q) q^|z| sums to 1 and its tail "
                        "Pr[Z >= s] (s >= 1) is exp(-(s-1)/scale) / (exp(1/scale) + 1)", "sympy",
                        decide)


# --- the map's exp_lower, proved a lower bound of exp -----------------------------------------


# --- symbolic runs ------------------------------------------------------------------------------


# --- replays ---------------------------------------------------------------------------------


def outcome_probability(m: Measurement, count: int, value: int, pmf: Pmf = laplace_pmf) -> Any:
    """``Pr[the key with this count is released with this value]``, by the running function's
    own ``shift`` and ``keep`` and the stated pmf, summed over draws in a window (60 digits)."""
    f = m.function
    scale = Fraction(f.scale)
    reach = int(60 * scale) + 60
    with mpmath.workdps(60):
        return mpmath.fsum(pmf(z, scale) for z in range(value - count - reach,
                                                        value - count + reach)
                           if f.shift(count, z) == value and f.keep(value, f.threshold))


def replay_common_keys(constructor: Constructor) -> Callable[[dict], Replay]:
    """Keys in both histograms: ``n`` keys of count ``base`` in ``x`` and ``base + c`` in ``x'``
    (``n <= l0``, ``c <= linf``, ``n c <= l1``), far above the threshold; the event "every key
    released with value ``base``" must have ``P <= exp(epsilon) Q + delta``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        for m, scale, threshold, d_in in candidate_builds(constructor, counterexample):
            l0, l1, linf = (int(v) for v in d_in)
            c = min(linf, l1)
            n = min(l0, l1 // c) if c >= 1 else 0
            if n < 1:
                continue
            base = threshold + int(60 * scale) + 10
            x = {f"k{i}": base for i in range(n)}
            x2 = {f"k{i}": base + c for i in range(n)}
            if not L01InfDistance.within(m.input_metric.distance(x, x2), d_in):
                continue
            epsilon, delta = m.map(d_in)
            with mpmath.workdps(60):
                p = outcome_probability(m, base, base) ** n
                q = outcome_probability(m, base + c, base) ** n
                if p > mpmath.exp(mpmath.mpf(epsilon)) * q + mpmath.mpf(delta):
                    call = constructor_call(constructor, **shown(
                        {"carrier": str, "scale": scale, "threshold": threshold}))
                    return plain_report(
                        True, call, f"inputs x = {literal(x)}, x' = {literal(x2)}",
                        f"claimed map{d_in} = ({epsilon!r}, {delta!r})",
                        f"Pr[all released at {base} | x] = {mpmath.nstr(p, 20)} > "
                        f"exp(epsilon) Pr[... | x'] + delta = "
                        f"{mpmath.nstr(mpmath.exp(mpmath.mpf(epsilon)) * q + delta, 20)}",
                        *reproducer(
                            import_line(constructor), "import mpmath", f"m = {call}",
                            "f = m.function", "mpmath.mp.dps = 60", *LAPLACE_PMF_LINES,
                            "def released_at(count, value):",
                            f"    reach = {int(60 * scale) + 60}",
                            "    return mpmath.fsum(pmf(z) for z in range(value - count - reach,"
                            " value - count + reach) if f.shift(count, z) == value"
                            " and f.keep(value, f.threshold))",
                            f"p_x = released_at({base}, {base}) ** {n}",
                            f"p_x2 = released_at({base + c}, {base}) ** {n}",
                            f"epsilon, delta = m.map({d_in})",
                            claim_assertion("p_x <= mpmath.exp(epsilon) * p_x2 + delta",
                                            "P = {p_x} > exp(epsilon) Q + delta for keys in "
                                            "both histograms")))
        return plain_report(False, f"{constructor.name}: no pair of common keys found whose "
                            "outcome breaks (epsilon, delta)")
    return replay


# --- obligations ----------------------------------------------------------------------------


@reviewed
def laplace_threshold_obligations(constructor: Constructor = make_laplace_threshold,
                                  prefix: str = "laplace_threshold") -> tuple[Obligation, ...]:

    def privacy_goals() -> list[Any]:
        m, names, assumptions = symbolic(constructor)
        f = m.function
        goals: list[Any] = [
            *threshold_premise_goals(constructor, m, FixedSmoothedMaxDivergence,
                                     sample_discrete_laplace, prefix),
            integer_counts_goal(lambda: m, replay_non_integer(constructor)),
            tail_from_pmf_goal(),
            exp_lower_goal(m.privacy_map.params.get("exp_lower")),
        ]
        if kernel_deviations(f, ThresholdedNoise, ("shift", "keep")):
            return goals
        replay = replay_one_sided(constructor)
        a, z, y = z3.Ints("a z y")
        params = m.privacy_map.params
        goals += threshold_release_goals(f, params, assumptions, names, replay)
        (l0, l1, linf), d_facts = d_in_terms()
        (t0, t1, tinf), t_facts = true_distance()
        scale, threshold = names["scale"], names["threshold"]
        try:
            epsilon, delta = abstracted(m.privacy_map)((l0, l1, linf))
        except Exception as error:  # noqa: BLE001 - a map outside the method
            raised = repr(error)  # the except block unbinds error: the goal keeps its text
            return [*goals, ComputedGoal("the map runs on solver terms", "structure",
                                         lambda: Decision(False, {"error": raised},
                                                          f"the map raised {raised}",
                                                          unsupported=True))]
        epsilon, delta = float_model.plain(epsilon), float_model.plain(delta)
        within = [t0 <= l0, t1 <= l1, tinf <= linf]
        s_true = threshold - tinf
        tail_true = tail_spec(s_true, scale)
        stated = z3.If(t0 * tail_true <= 1, t0 * tail_true, 1)
        facts = exp_lower_facts(epsilon, delta)
        # monotonicity of exp at the points the claim compares, and positivity
        u_args = [t.arg(0) for t in exp_lower_applications(delta)]
        for u in u_args:
            facts += [z3.Implies(-(z3.ToReal(s_true) - 1) / scale <= -u,
                                 EXP(-(z3.ToReal(s_true) - 1) / scale) <= EXP(-u))]
        facts += [EXP(-(z3.ToReal(s_true) - 1) / scale) > 0, EXP(1 / scale) > 0]
        goals += [
            Z3Goal("keys in both histograms: the discrete Laplace's log-ratio at z is "
                   "(|z - b| - |z - a|) / scale <= |a - b| / scale (triangle inequality)",
                   z3.If(z >= y, z - y, y - z) - z3.If(z >= a, z - a, a - z)
                   <= z3.If(a >= y, a - y, y - a), [], {"a": a, "b": y, "z": z}),
            Z3Goal("epsilon >= (sum over keys in both of |x(k) - x'(k)|) / scale: for every "
                   "true distance (t0, t1, tinf) within d_in that meets the metric's facts, "
                   "epsilon >= t1 / scale",
                   z3.ToReal(t1) / scale <= epsilon,
                   [*assumptions, *d_facts, *t_facts, *within], {**names, "l0": l0, "l1": l1,
                                                                 "linf": linf, "t1": t1},
                   replay_common_keys(constructor)),
            Z3Goal("delta >= min(1, t0 * Pr[Z >= threshold - tinf]) (the stated tail), which "
                   "bounds the chance that one of the at most t0 keys in one histogram only, "
                   "each with |count| <= tinf, is released",
                   stated <= delta, [*assumptions, *d_facts, *t_facts, *within, *facts],
                   {**names, "l0": l0, "l1": l1, "linf": linf, "t0": t0, "tinf": tinf}, replay),
        ]
        return goals

    def rounding_goals() -> list[Any]:
        return threshold_rounding_goals(constructor, "epsilon", replay_rounding(constructor))

    refusals = threshold_refusals(constructor, [
        ({"carrier": float, "scale": 1.0, "threshold": 1}, "float keys")])

    return (
        *threshold_obligations(constructor, prefix, sample_discrete_laplace, CKS),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "If d_L01Inf(x, x') <= d_in = (l0, l1, linf) then function(x), function(x') "
                   "are (epsilon, delta)-close for (epsilon, delta) = map(d_in): keys in both "
                   "maps are each the discrete Laplace mechanism followed by the threshold "
                   "(post-processing), pure DP with |x(k) - x'(k)| / scale, summing to at most "
                   "t1 / scale <= epsilon; a key in one map only, |count| <= tinf, is released "
                   "with probability Pr[Z >= threshold - count] <= Pr[Z >= threshold - tinf] "
                   "(the tail stated from the pmf), and is (0, that)-close to absent; at most t0 "
                   "such keys; basic composition over the independent keys (cited). The map's "
                   "exp_lower is proved a lower bound of exp.",
                   r"d_{L01Inf}(x, x') \le d_{in} \implies M(x) \approx_{(\varepsilon, \delta)} "
                   r"M(x'),\ (\varepsilon, \delta) = \mathtt{map}(d_{in})",
                   lambda: [*privacy_goals(), *refusals], uses=(f"{prefix}.metric_facts",),
                   cites=(CKS, COMPOSITION)),
        Obligation(f"{prefix}.map_rounding", Kind.ROUNDING,
                   "For every admitted scale and threshold and every d_in, the map the code "
                   "computes (epsilon by div_up, delta by div_up of exact rationals) is never "
                   "below its exact value, componentwise.",
                   r"\widehat{\mathrm{map}}(d_{in}) \ge \mathrm{map}(d_{in})", rounding_goals,
                   uses=("arith.round_up",)),
    )


IMPORT = "from mechanisms.make_laplace_threshold import make_laplace_threshold"


def catalogue_entry() -> Entry:
    return Entry("make_laplace_threshold", make_laplace_threshold,
                 laplace_threshold_obligations(),
                 "noisy histogram counts released above a threshold (L01Inf -> (eps, delta))",
                 (example("make_laplace_threshold(str, 2.0, 10)", IMPORT),), proof=True)
