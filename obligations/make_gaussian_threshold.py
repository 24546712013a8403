"""Obligations of ``make_gaussian_threshold``, for every finite float ``scale > 0``, every int
``threshold >= 0`` and every ``d_in = (l0, l1, linf)`` of non-negative numbers (ints, or floats
read as the rationals they are).

As for ``make_laplace_threshold`` (whose helpers this module uses), everything is read from the
built measurement, and its map runs on Z3 terms with ``exp_lower`` abstracted by the facts
``1 <= exp_lower(y) <= e^y`` (proved of the real function). Taken as given (cited):

- the discrete Gaussian of scale ``s`` on a count that changes by ``D`` is ``D^2 / (2 s^2)``-zCDP
  (CKS 2020, Theorem 4), and zCDP composes by adding rho (Bun and Steinke 2016, Lemma 2.3);
- its tail: ``Pr[Z >= m] <= Pr[N(0, s^2) >= m - 1]`` for integers ``m >= 1`` (CKS 2020,
  Proposition 25), and ``Pr[N(0, s^2) >= t] <= exp(-t^2 / (2 s^2)) / 2`` for ``t >= 0`` (the
  Gaussian tail bound);
- approximate zCDP (Bun and Steinke 2016, Definition 8.1): conditioned on no key of one map only
  being released (probability ``>= 1 - delta`` on each side), the outputs are the common keys'
  release, which is ``rho``-zCDP close.

Checked here: the code's noise, shift and release rule; ``sum_k D_k^2 <= linf l1`` (Z3, induction
over the keys); rho and delta of the built map against the stated bounds for every parameter.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any, Callable

import mpmath
import z3

from mechanisms import float_model
from mechanisms.core import Constructor
from mechanisms.errors import DPCertError
from mechanisms.make_laplace_threshold import ThresholdedNoise
from mechanisms.make_gaussian_threshold import make_gaussian_threshold
from mechanisms.measures import ApproximateZeroConcentratedDivergence
from mechanisms.metrics import L01InfDistance
from mechanisms.samplers import sample_discrete_gaussian
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.reports import (claim_assertion, constructor_call, import_line, plain_report,
                                 reproducer)
from obligations.kernels import kernel_deviations
from obligations.exponential import EXP
from obligations.threshold_release import (shown, abstracted, d_in_terms, exp_lower_facts,
                                           exp_lower_goal, integer_counts_goal, replay_non_integer,
                                           replay_one_sided, replay_rounding, symbolic,
                                           threshold_obligations, threshold_premise_goals,
                                           threshold_refusals, threshold_release_goals,
                                           threshold_rounding_goals, true_distance,
                                           exp_lower_applications)
from obligations.kernel.reviewed import reviewed

CKS_SAMPLER = "Canonne, Kamath and Steinke 2020, Algorithm 3 (exact discrete Gaussian sampler)"
CKS_ZCDP = ("Canonne, Kamath and Steinke 2020, Theorem 4 (discrete Gaussian is "
            "D^2/(2 sigma^2)-zCDP) and Bun and Steinke 2016, Lemma 2.3 (zCDP composes by adding "
            "rho)")
CKS_TAIL = ("Canonne, Kamath and Steinke 2020, Proposition 25 (Pr[Z >= m] <= Pr[N(0, sigma^2) >= "
            "m - 1]) and the Gaussian tail bound Pr[N(0, sigma^2) >= t] <= exp(-t^2/(2 sigma^2))/2 "
            "for t >= 0")
APPROX_ZCDP = ("Bun and Steinke 2016, Definition 8.1 (delta-approximate rho-zCDP: conditioned on "
               "events of probability >= 1 - delta, rho-zCDP close)")


@functools.lru_cache(maxsize=64)
def _normalizer(scale: Fraction) -> Any:
    s2 = 2 * (mpmath.mpf(scale.numerator) / scale.denominator) ** 2
    return s2, mpmath.nsum(lambda y: mpmath.exp(-y ** 2 / s2), [-mpmath.inf, mpmath.inf])


def gaussian_pmf(z: int, scale: Fraction) -> Any:
    """``Pr[Z = z] = exp(-z^2 / (2 s^2)) / sum_y exp(-y^2 / (2 s^2))`` in mpmath (60 digits)."""
    with mpmath.workdps(60):
        s2, norm = _normalizer(scale)
        return mpmath.exp(-mpmath.mpf(z) ** 2 / s2) / norm


GAUSSIAN_PMF_LINES = (
    "s2 = 2 * mpmath.mpf(f.scale) ** 2",
    "norm = mpmath.nsum(lambda y: mpmath.exp(-y ** 2 / s2), [-mpmath.inf, mpmath.inf])",
    "pmf = lambda z: mpmath.exp(-mpmath.mpf(z) ** 2 / s2) / norm")


def replay_common_rho(constructor: Constructor) -> Callable[[dict], Replay]:
    """``n`` keys in both histograms, ``base + 1`` in ``x`` and ``base`` in ``x'`` (``d_in =
    (n, n, 1)``), far above the threshold; the event ``S`` = "every key released with a value
    ``>= base + 2``". delta-approximate rho-zCDP implies, for every ``delta' > 0``,
    ``P(S) <= exp(eps) Q(S) + delta + delta'`` with ``eps = rho + 2 sqrt(rho ln(1/delta'))``
    (Bun and Steinke 2016, Proposition 1.3, on the conditioned pair, cited); a larger ``P(S)``
    breaks the claim. ``P`` and ``Q`` are summed from the stated pmf over the real ``shift`` and
    ``keep`` (``P`` over a window, a lower bound)."""
    def replay(_: dict) -> Replay:
        for scale in (1.0, 2.0):
            for n in (10, 20, 40):
                threshold = 100
                try:
                    m = constructor(str, scale, threshold)
                except DPCertError:
                    continue
                f = m.function
                base = threshold + int(40 * scale) + 10
                x = {f"k{i}": base + 1 for i in range(n)}
                x2 = {f"k{i}": base for i in range(n)}
                d_in = (n, n, 1)
                if not L01InfDistance.within(m.input_metric.distance(x, x2), d_in):
                    continue
                rho, delta = m.map(d_in)
                reach = int(60 * scale) + 60
                with mpmath.workdps(60):
                    def key_in_s(count: int) -> Any:
                        return mpmath.fsum(
                            gaussian_pmf(z, Fraction(f.scale)) for z in range(-reach, reach)
                            if f.keep(f.shift(count, z), f.threshold)
                            and f.shift(count, z) >= base + 2)
                    p = key_in_s(base + 1) ** n
                    q = (key_in_s(base) + mpmath.mpf(10) ** -50) ** n  # + the window's rest
                    for exponent in (3, 5, 10, 15, 20):
                        slack = mpmath.mpf(10) ** -exponent
                        eps = mpmath.mpf(rho) + 2 * mpmath.sqrt(mpmath.mpf(rho)
                                                                * mpmath.log(1 / slack))
                        bound = mpmath.exp(eps) * q + mpmath.mpf(delta) + slack
                        if p > bound:
                            call = constructor_call(constructor, **shown(
                                {"carrier": str, "scale": scale, "threshold": threshold}))
                            return plain_report(
                                True, call, f"x: {n} keys at {base + 1}, x': at {base} "
                                f"(distance {d_in})", f"claimed map = ({rho!r}, {delta!r})",
                                f"P(every key released >= {base + 2}) = {mpmath.nstr(p, 12)} > "
                                f"exp(eps) Q + delta + delta' = {mpmath.nstr(bound, 12)} "
                                f"(delta' = 1e-{exponent}, eps = {mpmath.nstr(eps, 12)})",
                                *reproducer(
                                    import_line(constructor), "import mpmath", f"m = {call}",
                                    "f = m.function", "mpmath.mp.dps = 60",
                                    *GAUSSIAN_PMF_LINES,
                                    "def key_in_s(count):",
                                    f"    return mpmath.fsum(pmf(z) for z in range(-{reach}, "
                                    f"{reach}) if f.keep(f.shift(count, z), f.threshold) and "
                                    f"f.shift(count, z) >= {base + 2})",
                                    f"p = key_in_s({base + 1}) ** {n}",
                                    f"q = (key_in_s({base}) + mpmath.mpf(10) ** -50) ** {n}",
                                    f"rho, delta = m.map({d_in})",
                                    f"slack = mpmath.mpf(10) ** -{exponent}",
                                    "eps = rho + 2 * mpmath.sqrt(rho * mpmath.log(1 / slack))",
                                    claim_assertion("p <= mpmath.exp(eps) * q + delta + slack",
                                                    "P(S) = {p} breaks ({rho}, {delta})-"
                                                    "approximate zCDP")))
        return plain_report(False, f"{constructor.name}: no common-key event breaks the claim")
    return replay


def gaussian_map_spec(scale: float, threshold: int, d_in: tuple[int, int, int]
                      ) -> tuple[Any, Any]:
    """The map's exact value from the stated bounds: ``l1' linf' / (2 s^2)`` (a Fraction) and
    ``min(1, l0 exp(-(s' - 1)^2 / (2 s^2)) / 2)`` (mpmath), ``s' = threshold - linf'``."""
    l0, l1, linf = d_in
    l1 = min(l1, l0 * linf)
    linf = min(linf, l1)
    rho = Fraction(l1 * linf) / (2 * Fraction(scale) ** 2)
    gap = threshold - linf
    with mpmath.workdps(60):
        b = mpmath.mpf(Fraction(scale).numerator) / Fraction(scale).denominator
        tail = mpmath.mpf(1) if gap <= 0 else mpmath.exp(-(gap - 1) ** 2 / (2 * b * b)) / 2
        delta = mpmath.mpf(0) if l0 == 0 else min(mpmath.mpf(1), l0 * tail)
    return rho, delta


@reviewed
def gaussian_threshold_obligations(constructor: Constructor = make_gaussian_threshold,
                                   prefix: str = "gaussian_threshold") -> tuple[Obligation, ...]:

    def privacy_goals() -> list[Any]:
        m, names, assumptions = symbolic(constructor)
        f = m.function
        goals: list[Any] = [
            *threshold_premise_goals(constructor, m, ApproximateZeroConcentratedDivergence,
                                     sample_discrete_gaussian, prefix),
            integer_counts_goal(lambda: m, replay_non_integer(constructor, _pmf,
                                                              GAUSSIAN_PMF_LINES)),
            exp_lower_goal(m.privacy_map.params.get("exp_lower")),
        ]
        if kernel_deviations(f, ThresholdedNoise, ("shift", "keep")):
            return goals
        replay = replay_one_sided(constructor, _pmf, GAUSSIAN_PMF_LINES)
        a, z, y = z3.Ints("a z y")
        params = m.privacy_map.params
        scale, threshold = names["scale"], names["threshold"]
        goals += threshold_release_goals(f, params, assumptions, names, replay)
        (l0, l1, linf), d_facts = d_in_terms()
        (t0, t1, tinf), t_facts = true_distance()
        try:
            rho, delta = abstracted(m.privacy_map)((l0, l1, linf))
        except Exception as error:  # noqa: BLE001 - a map outside the method
            raised = repr(error)  # the except block unbinds error: the goal keeps its text
            return [*goals, ComputedGoal("the map runs on solver terms", "structure",
                                         lambda: Decision(False, {"error": raised},
                                                          f"the map raised {raised}",
                                                          unsupported=True))]
        rho, delta = float_model.plain(rho), float_model.plain(delta)
        within = [t0 <= l0, t1 <= l1, tinf <= linf]
        squares, total, change = z3.Ints("S L D")
        s_true = threshold - tinf
        shifted = z3.ToReal(s_true) - 1
        tail_true = z3.If(s_true <= 0, z3.RealVal(1),
                          EXP(-shifted * shifted / (2 * scale * scale)) / 2)
        stated = z3.If(t0 * tail_true <= 1, t0 * tail_true, 1)
        facts = exp_lower_facts(delta)
        for u in [t.arg(0) for t in exp_lower_applications(delta)]:
            facts += [z3.Implies(-shifted * shifted / (2 * scale * scale) <= -u,
                                 EXP(-shifted * shifted / (2 * scale * scale)) <= EXP(-u))]
        facts += [EXP(-shifted * shifted / (2 * scale * scale)) > 0]
        goals += [
            Z3Goal("sum over changed keys of D_k^2 <= tinf * sum D_k (induction over the keys: "
                   "one more change 0 <= D <= tinf keeps S <= tinf L)",
                   squares + change * change <= tinf * (total + change),
                   [squares <= tinf * total, change >= 0, change <= tinf, total >= 0],
                   {"S": squares, "L": total, "D": change, "tinf": tinf}),
            Z3Goal("rho >= tinf * t1 / (2 scale^2) >= (sum over keys in both of D_k^2) / "
                   "(2 scale^2), for every true distance within d_in that meets the metric facts",
                   z3.ToReal(tinf * t1) / (2 * scale * scale) <= rho,
                   [*assumptions, *d_facts, *t_facts, *within],
                   {**names, "l0": l0, "l1": l1, "linf": linf, "t1": t1, "tinf": tinf},
                   replay_common_rho(constructor)),
            Z3Goal("delta >= min(1, t0 * exp(-(threshold - tinf - 1)^2 / (2 scale^2)) / 2) (the "
                   "cited tail bound; 1 when threshold <= tinf)",
                   stated <= delta, [*assumptions, *d_facts, *t_facts, *within, *facts],
                   {**names, "l0": l0, "l1": l1, "linf": linf, "t0": t0, "tinf": tinf}, replay),
        ]
        return goals

    def rounding_goals() -> list[Any]:
        return threshold_rounding_goals(constructor, "rho",
                                        replay_rounding(constructor, gaussian_map_spec, "rho"))

    refusals = threshold_refusals(constructor)

    return (
        *threshold_obligations(constructor, prefix, sample_discrete_gaussian, CKS_SAMPLER),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "If d_L01Inf(x, x') <= d_in then function(x), function(x') are (rho, delta)-"
                   "approximately zCDP close for (rho, delta) = map(d_in): keys in both maps are "
                   "each the discrete Gaussian mechanism then the threshold, D_k^2/(2 scale^2)-"
                   "zCDP (cited), composed to sum D_k^2 / (2 scale^2) <= tinf t1 / (2 scale^2) <= "
                   "rho; a key in one map only, |count| <= tinf, is released with probability at "
                   "most exp(-(threshold - tinf - 1)^2 / (2 scale^2)) / 2 (cited tail bound), at "
                   "most t0 such keys; conditioned on none released, the outputs are the common "
                   "keys' release (approximate zCDP, cited).",
                   r"d_{L01Inf}(x, x') \le d_{in} \implies M(x) \approx_{(\rho, \delta)} M(x')",
                   lambda: [*privacy_goals(), *refusals], uses=(f"{prefix}.metric_facts",),
                   cites=(CKS_SAMPLER, CKS_ZCDP, CKS_TAIL, APPROX_ZCDP)),
        Obligation(f"{prefix}.map_rounding", Kind.ROUNDING,
                   "For every admitted scale and threshold and every d_in, the map the code "
                   "computes (rho and delta by div_up of exact rationals) is never below its "
                   "exact value, componentwise.",
                   r"\widehat{\mathrm{map}}(d_{in}) \ge \mathrm{map}(d_{in})", rounding_goals,
                   uses=("arith.round_up",)),
    )


def _pmf(z: int, scale: Fraction) -> Any:
    return gaussian_pmf(z, scale)


IMPORT = "from mechanisms.make_gaussian_threshold import make_gaussian_threshold"


def catalogue_entry() -> Entry:
    return Entry("make_gaussian_threshold", make_gaussian_threshold,
                 gaussian_threshold_obligations(),
                 "noisy (discrete Gaussian) histogram counts released above a threshold "
                 "(L01Inf -> approximate zCDP)",
                 (example("make_gaussian_threshold(str, 2.0, 10)", IMPORT),), proof=True)
