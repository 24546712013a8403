"""Obligations of ``make_canonical_noise``: the canonical noise distribution of ``f_{eps, delta}``.

The privacy theorem is *cited*: Awan and Vadhan 2023, Theorem 3.9 (for a symmetric non-trivial
tradeoff function ``f``, the ``F_f`` of their Definition 3.7 is a canonical noise distribution:
``S(x) + Delta N``, ``N ~ F_f``, is ``f``-DP for a statistic of sensitivity ``Delta``), and the
equivalence of ``f_{eps, delta}``-DP with ``(eps, delta)``-DP (Dong, Roth and Su 2022,
Proposition 2.5; Wasserman and Zhou 2010). Rounding the exact real output to a float is
post-processing. What the goals check, reading the built object:

* the running tradeoff kernel is ``f_{ln r, delta}(alpha) = max(0, 1 - delta - r alpha,
  (1 - delta - alpha) / r)``, stated here, for every ``alpha`` in ``[0, 1]`` and every ``r >= 1``,
  ``delta`` in ``[0, 1)`` (Z3); it is a tradeoff function below ``1 - alpha``, non-increasing,
  symmetric (``f(f(alpha)) = alpha`` on ``[0, 1 - delta]``) with fixed point the kernel's
  ``c = (1 - delta) / (1 + r)``, non-trivial when ``c < 1/2`` (Z3);
* the running ratio ``r`` is ``>= 1`` and ``ln r <= eps`` (certified with mpmath at 60 digits
  on the running object, at :data:`EPSILON_PROBES` seeded epsilons and the extremes), the
  running ``delta`` and sensitivity are the arguments (Z3);
* the law of the interval the running sampler draws (path by path, exact, with the forking
  random source of the private-selection obligations) is the one Awan and Vadhan's recursion
  gives, ``F(j + 1/2) - F(j - 1/2)`` per interval, uniform on it (``F`` checked linear at interior
  points) up to where ``F`` reaches 1: an evaluation on the checked interval ``|N| <=``
  :data:`DEPTH` half-widths at :data:`LAW_CASES` (``bounded``);
* the float output is the nearest float to ``x + Delta N``: its law computed path by path on
  arguments where few floats are in reach, against the stated one (``bounded``);
* the map is ``(eps, delta)`` for ``d_in <=`` the running sensitivity and has ``delta >= 1``
  above (Z3), and ``eps >= ln r`` for the running ``r``.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any, Callable

import mpmath
import z3

from mechanisms.core import Constructor, Measurement
from mechanisms.make_canonical_noise import CanonicalNoise, make_canonical_noise
from mechanisms.measures import FixedSmoothedMaxDivergence
from mechanisms.metrics import AbsoluteDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.kernels import goals_on_terms, trusted_kernel_goal
from obligations.forking_paths import NotEnumerable, enumerate_law
from obligations.noise import exact_noise_goal
from obligations.reports import (claim_assertion, constructor_call, import_line, plain_report,
                                 reproducer, returns)
from obligations.witnesses import excluded_goals, witness_goal
from obligations.kernel.reviewed import reviewed

AWAN_VADHAN = ("Awan and Vadhan 2023 (Canonical noise distributions and private hypothesis "
               "tests, Ann. Statist.), Theorem 3.9: for a symmetric non-trivial tradeoff "
               "function f, F_f of Definition 3.7 is a canonical noise distribution, so "
               "S(x) + Delta N, N ~ F_f, is f-DP for sensitivity Delta")
DONG_ROTH_SU = ("Dong, Roth and Su 2022 (Gaussian differential privacy, JRSS B), Proposition "
                "2.5: f_{eps, delta}-DP is (eps, delta)-DP")
CHECKED_KERNELS = ("exp_ratio", "tradeoff", "fixed_point", "last_length")
EPSILON_PROBES = 100
DEPTH = 12
"""Draws per path in the law of the interval (the rest is truncated mass, compared exactly)."""
LAW_CASES = ((1.0, 0.0), (1.0, 1e-6), (0.5, 0.1), (2.0, 0.3), (0.25, 0.05), (1.0, 0.2),
             (3.0, 0.0))
ROUNDING_CASES = ((2.0 ** 60, 256.0, (1.0, 0.3)), (-(2.0 ** 52), 1.5, (2.0, 0.45)),
                  (1.2e308, 1.0, (1.0, 0.3)), (-1.2e308, 1.0, (1.0, 0.3)))
"""``(x, Delta, d_out)`` where few floats lie within ``Delta`` times the noise's support; the
last two near the ends of the float range (where only ``+-inf`` is clamped: every finite ``x``
is its own), their laws computed whole."""
IMPORT = "from mechanisms.make_canonical_noise import make_canonical_noise"
HELPERS = "from obligations.make_canonical_noise import "


# ----------------------------------------------------------------------- the specification

def stated_tradeoff(alpha: Any, r: Any, delta: Any) -> Any:
    """``f_{ln r, delta}(alpha)``: the largest type-II error at type-I error ``alpha`` of an
    ``(ln r, delta)``-DP test (Dong, Roth and Su 2022, eq. (6)), written here on Z3 or numbers."""
    terms = [0, 1 - delta - r * alpha, (1 - delta - alpha) / r]
    if any(isinstance(t, z3.ExprRef) for t in terms):
        a, b, c = (t if isinstance(t, z3.ExprRef) else z3.RealVal(t) for t in terms)
        return z3.If(a >= b, z3.If(a >= c, a, c), z3.If(b >= c, b, c))
    return max(terms)


def stated_cdf(x: Fraction, r: Fraction, delta: Fraction) -> Fraction:
    """Awan and Vadhan 2023, Definition 3.7, for ``f = f_{ln r, delta}``, at a rational ``x``."""
    c = (1 - delta) / (1 + r)
    if x < Fraction(-1, 2):
        return stated_tradeoff(1 - stated_cdf(x + 1, r, delta), r, delta)
    if x > Fraction(1, 2):
        return 1 - stated_tradeoff(stated_cdf(x - 1, r, delta), r, delta)
    return c * (Fraction(1, 2) - x) + (1 - c) * (x + Fraction(1, 2))


def _ratio(m: Measurement) -> Fraction:
    f = m.function
    return Fraction(f.exp_ratio(f.epsilon))


def interval_law(m: Measurement) -> tuple[dict[Any, Fraction], Fraction]:
    """The law of ``(K, lo, length)`` the running sampler draws, path by path."""
    return enumerate_law(lambda rng: m.function.sample_interval(rng), max_draws=DEPTH)


def law_violation(m: Measurement) -> str | None:
    """The running interval law against Definition 3.7's ``F``: per drawn interval
    ``[lo, lo + length]`` of weight ``w``: ``w = F(lo + length) - F(lo)``, ``F`` takes the
    interval's whole mass (``F`` at its half-integer ends equal), and ``F`` is linear on it at
    the quarter points. Also the truncated mass is what ``F`` leaves beyond the drawn intervals."""
    return law_check(m)[0]


def law_check(m: Measurement) -> tuple[str | None, Fraction]:
    """:func:`law_violation` and the mass of the paths cut off after :data:`DEPTH` draws: only
    when it is 0 is the law computed whole, and a violation a definite one (a cut-off path may
    carry the mass a drawn interval lacks)."""
    law, truncated = interval_law(m)
    return _interval_violation(m, law, truncated), truncated


def _interval_violation(m: Measurement, law: dict[Any, Fraction], truncated: Fraction
                        ) -> str | None:
    r, delta = _ratio(m), Fraction(m.function.delta)
    covered = Fraction(0)
    for (k, lo, length), w in law.items():
        hi = lo + length
        f_lo, f_hi = stated_cdf(lo, r, delta), stated_cdf(hi, r, delta)
        if f_hi - f_lo != w:
            return (f"interval {k} [{lo}, {hi}] drawn with probability {w}, F gives "
                    f"{f_hi - f_lo}")
        half_lo, half_hi = Fraction(2 * k - 1, 2), Fraction(2 * k + 1, 2)
        if stated_cdf(half_hi, r, delta) - stated_cdf(half_lo, r, delta) != w:
            return f"interval {k}: F puts mass outside [{lo}, {hi}] within [{half_lo}, {half_hi}]"
        for q in (Fraction(1, 4), Fraction(1, 2), Fraction(3, 4)):
            if stated_cdf(lo + q * length, r, delta) != f_lo + q * (f_hi - f_lo):
                return f"interval {k}: F is not linear on [{lo}, {hi}] (at {lo + q * length})"
        covered += w
    if covered + truncated != 1:
        return f"the drawn masses sum to {covered} with {truncated} truncated, not 1"
    return None


def stated_output_law(x: float, sensitivity: float, m: Measurement
                      ) -> dict[float, Fraction]:
    """The law of the float nearest ``x + Delta N`` from ``F`` (Definition 3.7) and IEEE-754
    round to nearest (a float's cell is between the midpoints to its neighbours), for ``N`` with
    bounded support; computed on the intervals of the stated ``F``."""
    r, delta = _ratio(m), Fraction(m.function.delta)
    law: dict[float, Fraction] = {}
    j = 0
    while stated_cdf(Fraction(2 * j + 1, 2), r, delta) < 1:
        j += 1
    lo_n, hi_n = -Fraction(2 * j + 1, 2), Fraction(2 * j + 1, 2)
    a, d = Fraction(x), Fraction(sensitivity)
    y = math.nextafter(float(a + d * lo_n), -math.inf)
    while Fraction(y) <= a + d * hi_n or y == float(a + d * hi_n):
        below = (Fraction(y) + Fraction(math.nextafter(y, -math.inf))) / 2
        above = (Fraction(y) + Fraction(math.nextafter(y, math.inf))) / 2
        n_lo = max(min((below - a) / d, hi_n), lo_n)
        n_hi = max(min((above - a) / d, hi_n), lo_n)
        mass = stated_cdf(n_hi, r, delta) - stated_cdf(n_lo, r, delta)
        if mass:
            law[y] = mass
        y = math.nextafter(y, math.inf)
    return law


def output_violation(m: Measurement, x: float) -> str | None:
    """The running output law (path by path) against :func:`stated_output_law`, within the
    truncated mass."""
    return output_check(m, x)[0]


def output_check(m: Measurement, x: float) -> tuple[str | None, bool]:
    """:func:`output_violation`, and whether the laws it compared were computed whole (no path
    cut off): a violation found on a law that is not whole is not a definite one."""
    wrong, cut = law_check(m)
    if wrong:  # the intervals are already not F_f's (and their paths may not end)
        return wrong, not cut
    code, truncated = enumerate_law(lambda rng: m.function(x, rng), max_draws=DEPTH + 60,
                                    max_paths=4000)
    return _output_gap(m, x, code, truncated), not truncated


def _output_gap(m: Measurement, x: float, code: dict[Any, Fraction], truncated: Fraction
                ) -> str | None:
    stated = stated_output_law(x, m.function.sensitivity, m)
    for y in code.keys() | stated.keys():
        gap = abs(code.get(y, Fraction(0)) - stated.get(y, Fraction(0)))
        if gap > truncated:
            return (f"output {y!r}: the code gives {code.get(y, 0)}, the stated law "
                    f"{stated.get(y, 0)} (truncated mass {float(truncated):.3g})")
    if truncated > Fraction(1, 2 ** 40):
        return f"truncated mass {float(truncated):.3g} too large to compare"
    return None


def running_tails(function: Any, count: int) -> list[Fraction]:
    """``[t_-1, t_0, ..., t_count]`` from the running function's own kernels (``exp_ratio``,
    ``fixed_point``, ``tradeoff``): ``t_-1 = 1 - c``, ``t_0 = c``, ``t_j = f(1 - t_{j-1})``."""
    delta, ratio = Fraction(function.delta), function.exp_ratio(function.epsilon)
    c = Fraction(function.fixed_point(ratio, delta))
    tails = [1 - c, c]
    while len(tails) < count + 2:
        tails.append(Fraction(function.tradeoff(1 - tails[-1], ratio, delta)))
    return tails


def running_upper_tail(function: Any, u: Fraction, tails: list[Fraction]) -> Fraction:
    """``Pr[N >= u]`` for the running function: ``1 - 2c`` spread on ``[-1/2, 1/2]``, the mass
    ``t_{j-1} - t_j`` of interval ``j`` on its first ``last_length`` (the running kernel), the
    sign fair."""
    if u < 0:
        return 1 - running_upper_tail(function, -u, tails)
    c = tails[1]
    if u <= Fraction(1, 2):
        return c + (1 - 2 * c) * (Fraction(1, 2) - u)
    j = math.ceil(u - Fraction(1, 2))  # u in (j - 1/2, j + 1/2]
    if j + 1 >= len(tails):
        raise ValueError("tails too short")
    before, tail, after = tails[j - 1], tails[j], tails[j + 1]
    if tail == 0:
        return Fraction(0)
    length = Fraction(function.last_length(before, tail, Fraction(function.delta)))
    inside = min(max(Fraction(2 * j - 1, 2) + length - u, Fraction(0)), length)
    return after + (tail - after) * inside / length


def tail_violation(m: Measurement, x: float, x2: float) -> tuple[str, list[str]] | None:
    """One-sided events ``{output >= y}`` (``y`` floats at ``x + d (k + 1/4)``, ``x + d (k + 3/4)``,
    ``k < 64``, ``d = |x2 - x|``) computed exactly from the running kernels: the first with
    ``Pr[M(x2) >= y] > e^eps Pr[M(x) >= y] + delta`` for ``(eps, delta) = map(d)``."""
    f = m.function
    d = abs(Fraction(x2) - Fraction(x))
    eps, delta = m.map(float(d))
    scale = Fraction(f.sensitivity)
    tails = running_tails(f, 70)
    for k in range(64):
        for q in (Fraction(1, 4), Fraction(3, 4)):
            y = float(Fraction(x) + d * (k + q))
            b = (Fraction(y) + Fraction(math.nextafter(y, -math.inf))) / 2
            try:
                p = running_upper_tail(f, (b - Fraction(x)) / scale, tails)
                p2 = running_upper_tail(f, (b - Fraction(x2)) / scale, tails)
            except ValueError:
                return None
            with mpmath.workdps(80):
                bound = mpmath.exp(mpmath.mpf(eps)) * (1 + mpmath.mpf(10) ** -70) * \
                    (mpmath.mpf(p.numerator) / p.denominator) + mpmath.mpf(delta)
                if mpmath.mpf(p2.numerator) / p2.denominator > bound:
                    return (f"Pr[M({x2!r}) >= {y!r}] = {float(p2):.6g} > e^{eps!r} Pr[M({x!r}) >= "
                            f"{y!r}] + {delta!r} = e^{eps!r} * {float(p):.6g} + {delta!r}",
                            [f"y = {y!r}"])
    return None


def _log_at_most(r: Fraction, epsilon: float) -> bool:
    """``ln r <= eps``, certified: mpmath at 60 digits with a margin of ``10^-50``."""
    with mpmath.workdps(60):
        return mpmath.log(mpmath.mpf(r.numerator) / r.denominator) + mpmath.mpf(10) ** -50 \
            <= mpmath.mpf(epsilon)


def _epsilons() -> list[float]:
    rng = random.Random(0)
    return [2.0 ** -7, 0.01, 1.0, 30.0, 511.0, 512.0,
            *[math.exp(rng.uniform(-4.8, 6)) for _ in range(EPSILON_PROBES)]]


# ------------------------------------------------------------------------------ replays

def _built(constructor: Constructor, d_in: float, d_out: tuple) -> Measurement | None:
    try:
        return constructor(d_in, d_out)
    except ValueError:
        return None


def _replay_law(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        for d_out in LAW_CASES:
            m = _built(constructor, 1.0, d_out)
            if m is None:
                continue
            try:
                wrong, cut = law_check(m)
            except (NotEnumerable, ValueError, ArithmeticError):
                continue
            if wrong and not cut:  # a law with paths cut off is never a confirmed refutation
                call = constructor_call(constructor, d_in=1.0, d_out=d_out)
                return plain_report(True, f"{call}: the running law is not F_f's", wrong,
                                    *reproducer(import_line(constructor),
                                                HELPERS + "law_violation", f"m = {call}",
                                                "wrong = law_violation(m)",
                                                claim_assertion("wrong is None", "{wrong}")))
        return plain_report(False, f"no definite violation of F_f's law on {len(LAW_CASES)} "
                                   "cases (a law with paths cut off never confirms one)")
    return replay


TRADEOFF_PROBES = tuple(Fraction(i, 64) for i in range(65))
"""Type-I errors at which the running tradeoff kernel is compared with ``f_{ln r, delta}``."""


def _replay_tradeoff(constructor: Constructor) -> Callable[[dict], Replay]:
    """The running tradeoff kernel, evaluated on exact rationals at the running ``r`` and
    ``delta`` of real builds, against ``f_{ln r, delta}`` (:func:`stated_tradeoff`): a whole
    computation, no enumeration."""
    def replay(_: dict) -> Replay:
        for d_out in LAW_CASES:
            m = _built(constructor, 1.0, d_out)
            if m is None:
                continue
            try:
                r, delta = _ratio(m), Fraction(m.function.delta)
                for alpha in TRADEOFF_PROBES:
                    running = Fraction(m.function.tradeoff(alpha, r, delta))
                    stated = stated_tradeoff(alpha, r, delta)
                    if running != stated:
                        break
                else:
                    continue
            except (TypeError, ValueError, ArithmeticError):
                continue
            call = constructor_call(constructor, d_in=1.0, d_out=d_out)
            return plain_report(
                True, f"{call}: the running tradeoff is not f_(ln r, delta)",
                f"at alpha = {alpha}, r = {r}, delta = {delta}: running {running}, stated "
                f"{stated}",
                *reproducer(import_line(constructor), "from fractions import Fraction",
                            HELPERS + "_ratio, stated_tradeoff", f"m = {call}",
                            "r, delta = _ratio(m), Fraction(m.function.delta)",
                            f"alpha = Fraction({alpha.numerator}, {alpha.denominator})",
                            "running = Fraction(m.function.tradeoff(alpha, r, delta))",
                            claim_assertion("running == stated_tradeoff(alpha, r, delta)",
                                            "tradeoff({alpha}) = {running}, f_(ln r, delta) "
                                            "gives {stated_tradeoff(alpha, r, delta)}")))
        return plain_report(False, f"the running tradeoff is f_(ln r, delta) at "
                                   f"{len(TRADEOFF_PROBES)} type-I errors on {len(LAW_CASES)} "
                                   "guarantees")
    return replay


def _replay_errors(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(counterexample: dict[str, Any]) -> Replay:
        try:
            model = float(Fraction(counterexample.get("delta", 0)))
        except (TypeError, ValueError):
            model = 0.0
        for d_out in dict.fromkeys([(1.0, model), (1.0, -0.5), (0.5, -0.25), (1.0, 0.3)]):
            m = _built(constructor, 1.0, d_out)
            if m is None:
                continue
            call = constructor_call(constructor, d_in=1.0, d_out=d_out)
            for seed in range(20):
                try:
                    m(0.0, random.Random(seed))
                except (ValueError, ArithmeticError, TypeError) as error:
                    return plain_report(True, f"{call} on 0.0",
                                        f"raised {type(error).__name__}: {error}",
                                        *reproducer(import_line(constructor), "import random",
                                                    f"m = {call}",
                                                    *returns(f"m(0.0, random.Random({seed}))",
                                                             "the function on 0.0")))
        return plain_report(False, "the function returned on every replayed run")
    return replay


TAIL_CASES = ((0.5, 0.0), (4.0, 0.0), (1.0, 0.0), (2.0, 0.1), (1.0, 1e-6))


def _replay_output(constructor: Constructor) -> Callable[[dict], Replay]:
    """The running output law on :data:`ROUNDING_CASES` against :func:`stated_output_law`:
    confirmed only on a law computed whole (no path cut off)."""
    def replay(_: dict) -> Replay:
        for x, sensitivity, d_out in ROUNDING_CASES:
            m = _built(constructor, sensitivity, d_out)
            if m is None:
                continue
            try:
                wrong, whole = output_check(m, x)
            except (NotEnumerable, ValueError, ArithmeticError):
                continue
            if wrong and whole:
                call = constructor_call(constructor, d_in=sensitivity, d_out=d_out)
                return plain_report(
                    True, f"{call} on {x!r}: the output law is not that of the float nearest "
                    "x + Delta N", wrong,
                    *reproducer(import_line(constructor), HELPERS + "output_check",
                                f"m = {call}", f"wrong, whole = output_check(m, {x!r})",
                                "assert whole  # every path enumerated",
                                claim_assertion("wrong is None", "{wrong}")))
        return plain_report(False, f"no definite violation of the output law on "
                                   f"{len(ROUNDING_CASES)} inputs")
    return replay


def _replay_tails(constructor: Constructor) -> Callable[[dict], Replay]:
    """Inputs 0.0 and d_in apart (the argument): one-sided output events computed exactly from
    the running kernels (:func:`tail_violation`), against the map at d_in."""
    def replay(_: dict) -> Replay:
        for d_out in TAIL_CASES:
            m = _built(constructor, 1.0, d_out)
            if m is None:
                continue
            found = tail_violation(m, 0.0, 1.0)
            if found:
                call = constructor_call(constructor, d_in=1.0, d_out=d_out)
                what, _ = found
                return plain_report(
                    True, call, "inputs x = 0.0, x' = 1.0 (absolute distance d_in = 1.0)",
                    f"claimed  map(d_in) = {m.map(1.0)!r}", f"observed {what}  > claimed",
                    *reproducer(import_line(constructor), HELPERS + "tail_violation",
                                f"m = {call}", "found = tail_violation(m, 0.0, 1.0)",
                                claim_assertion("found is None", "{found[0]}")))
        return plain_report(False, f"no one-sided event above the map on {len(TAIL_CASES)} "
                                   "guarantees")
    return replay


def _first_confirmed(*replays: Callable[[dict], Replay]) -> Callable[[dict], Replay]:
    def replay(counterexample: dict) -> Replay:
        last = None
        for one in replays:
            last = one(counterexample)
            if last.confirmed:
                return last
        return last
    return replay


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """Inputs ``d_in``-apart beyond the noise's support (``delta > 0``: bounded support): the
    event ``{output <= x + Delta * top}`` has probability 1 on ``x`` and 0 on ``x'``, so no
    ``(eps, delta)`` with ``delta < 1`` holds; confirmed when the map claims one."""
    def replay(_: dict) -> Replay:
        for d_out in ((1.0, 0.3), (0.5, 0.1), (2.0, 0.3)):
            m = _built(constructor, 1.0, d_out)
            if m is None:
                continue
            law, truncated = interval_law(m)
            if truncated:
                continue
            top = max(lo + length for _, lo, length in law)
            d_in = float(2 * top + 1)
            claimed = m.map(d_in)
            if claimed[1] < 1:
                call = constructor_call(constructor, d_in=1.0, d_out=d_out)
                return plain_report(
                    True, call, f"inputs x = 0.0, x' = {d_in!r} (absolute distance d_in = {d_in!r})",
                    f"claimed  map(d_in) = {claimed!r}",
                    f"observed: the noise N lies in [-{top}, {top}] (the running law, exact), so "
                    f"Pr[M(x) <= {float(top)!r}] = 1 and Pr[M(x') <= {float(top)!r}] = 0: "
                    "delta >= 1 for every eps  > claimed",
                    *reproducer(import_line(constructor), HELPERS + "interval_law",
                                f"m = {call}", "law, truncated = interval_law(m)",
                                "top = max(lo + length for _, lo, length in law)",
                                "assert truncated == 0",
                                f"claimed = m.map({d_in!r})",
                                claim_assertion(f"2 * top >= {d_in!r} or claimed[1] >= 1",
                                                "inputs {float(2 * top)} apart have disjoint "
                                                "outputs, yet map = {claimed}")))
        return plain_report(False, "the map admits no delta < 1 beyond the sensitivity")
    return replay


# --------------------------------------------------------------------------------- goals

@reviewed
def canonical_noise_obligations(constructor: Constructor = make_canonical_noise,
                                prefix: str = "canonical_noise") -> tuple[Obligation, ...]:

    def kernel() -> ComputedGoal:
        return trusted_kernel_goal("the canonical noise function",
                                   lambda: constructor(1.0, (1.0, 0.1)).function, CanonicalNoise,
                                   checked=CHECKED_KERNELS)

    def on_terms(goals: Callable[[], list[Any]]) -> Callable[[], list[Any]]:
        return lambda: goals_on_terms(lambda: constructor(1.0, (1.0, 0.1)).function,
                                      CanonicalNoise, goals, CHECKED_KERNELS) or [kernel()]

    def symbolic() -> tuple[Measurement, dict[str, Any], list[Any]]:
        d_in, eps, delta = z3.Reals("Delta eps delta")
        params = {"d_in": d_in, "d_out": (eps, delta)}
        names = {"Delta": d_in, "eps": eps, "delta": delta}
        return constructor.build(**params), names, constructor.assumptions(**params)

    valid = [(1.0, (1.0, 0.0)), (2.5, (0.5, 1e-6)), (1.0, (1.0, 0.3))]
    inputs = [0.0, -3.5, 1e308, -1e308, math.inf, -math.inf, 5e-324]
    builds = [witness_goal(constructor, {"d_in": a, "d_out": b}, inputs=inputs, draws=2)
              for a, b in valid]
    refused = excluded_goals(constructor, [
        ({"d_in": 0.0, "d_out": (1.0, 0.1)}, "sensitivity 0"),
        ({"d_in": 1.0, "d_out": (1.0, 1.0)}, "delta = 1"),
        ({"d_in": 1.0, "d_out": (2.0 ** -60, 0.0)}, "epsilon below 2^-7 (a draw would take "
         "about 2^60 steps)"),
        ({"d_in": 1.0, "d_out": (math.inf, 0.0)}, "an infinite epsilon"),
        ({"d_in": 1.0, "d_out": (1e300, 0.0)}, "epsilon above 512 (e^eps is computed exactly)"),
    ], inputs=[0.0], draws=2)
    unbounded = excluded_goals(constructor, [
        ({"d_in": math.inf, "d_out": (1.0, 0.1)}, "an infinite sensitivity (Delta * N is not a "
         "number: every call would raise)")], inputs=[0.0], draws=2)

    def output_domain_goals() -> list[Any]:
        def nearest_is_float() -> Decision:
            from mechanisms.make_canonical_noise import nearest
            for q in (Fraction(10) ** 400, -Fraction(10) ** 400, Fraction(1, 10 ** 400),
                      Fraction(0), Fraction(1, 3), Fraction(2 ** 53 + 1), -Fraction(7, 2)):
                y = nearest(q)
                if type(y) is not float or y != y or math.isinf(y):
                    return Decision(False, {"q": str(q)}, f"nearest({q}) = {y!r}")
            return Decision(True, detail="finite floats on 7 extreme rationals")
        return [kernel(), *builds, *refused, *unbounded,
                ComputedGoal("the rounding returns a finite float on extreme rationals",
                             "exact", nearest_is_float, _replay_law(constructor))]

    def runtime_goals() -> list[Any]:
        m, names, assumptions = symbolic()
        f = m.function
        r, t, before = z3.Reals("r t t_before")
        delta = f.delta
        c = f.fixed_point(r, delta)
        after = f.tradeoff(1 - t, r, delta)
        nontrivial = [r >= 1, 2 * c < 1]
        replay = _replay_errors(constructor)
        goals: list[Any] = [kernel(), *builds, *unbounded]
        goals.append(Z3Goal("the first coin's probability 1 - 2c lies in (0, 1] (c in (0, 1/2))",
                            z3.And(0 < 1 - 2 * c, 1 - 2 * c <= 1),
                            [*assumptions, *nontrivial], {**names, "r": r}, replay))
        goals.append(Z3Goal("for a tail 0 < t <= c the next tail f(1 - t) lies in [0, t] (the "
                            "hazard is a probability) and is at most t / r and 0 or at most "
                            "t - delta (so the loop ends with probability 1: r > 1 or delta > 0)",
                            z3.And(0 <= after, after <= t, after <= t / r,
                                   z3.Or(after == 0, after <= t - delta)),
                            [*assumptions, *nontrivial, 0 < t, t <= c], {**names, "r": r, "t": t},
                            replay))
        length = f.last_length(before, t, delta)
        goals.append(Z3Goal("the last interval's length is in (0, 1] whenever a tail t below "
                            "delta follows t_before = the previous tail (t = f(1 - t_before))",
                            z3.And(0 < length, length <= 1),
                            [*assumptions, *nontrivial, 0 < t, t <= c, before <= 1 - c,
                             0 < before, t == f.tradeoff(1 - before, r, delta)],
                            {**names, "r": r, "t": t, "t_before": before}, replay))
        return goals

    def distribution_goals() -> list[Any]:
        m, names, assumptions = symbolic()
        f = m.function
        alpha, beta, r = z3.Reals("alpha beta r")
        delta = f.delta
        law_replay = _first_confirmed(_replay_law(constructor), _replay_tradeoff(constructor),
                                      _replay_tails(constructor))
        base = [*assumptions, r >= 1]
        c = f.fixed_point(r, delta)
        goals: list[Any] = [kernel(), exact_noise_goal(lambda: constructor(1.0, (1.0, 0.1)))]
        goals += [
            Z3Goal("the running delta and sensitivity are the arguments",
                   z3.And(f.delta == names["delta"], f.sensitivity == names["Delta"]),
                   assumptions, names, law_replay),
            Z3Goal("tradeoff(alpha, r, delta) is f_{ln r, delta}(alpha) for every alpha in [0, 1]",
                   z3.ForAll([alpha], z3.Implies(z3.And(0 <= alpha, alpha <= 1),
                                                 f.tradeoff(alpha, r, delta) ==
                                                 stated_tradeoff(alpha, r, delta))),
                   base, {**names, "r": r}, law_replay),
            Z3Goal("f is a tradeoff function: 0 <= f(alpha) <= 1 - alpha, non-increasing",
                   z3.ForAll([alpha, beta], z3.Implies(
                       z3.And(0 <= alpha, alpha <= beta, beta <= 1),
                       z3.And(0 <= stated_tradeoff(alpha, r, delta),
                              stated_tradeoff(alpha, r, delta) <= 1 - alpha,
                              stated_tradeoff(beta, r, delta) <= stated_tradeoff(alpha, r,
                                                                                 delta)))),
                   base, {**names, "r": r}, law_replay),
            Z3Goal("f is symmetric: f(f(alpha)) = alpha on [0, 1 - delta]",
                   z3.ForAll([alpha], z3.Implies(
                       z3.And(0 <= alpha, alpha <= 1 - delta),
                       stated_tradeoff(stated_tradeoff(alpha, r, delta), r, delta) == alpha)),
                   base, {**names, "r": r}, law_replay),
            Z3Goal("fixed_point(r, delta) is the fixed point c = f(c), in (0, 1/2] (< 1/2 is the "
                   "non-triviality the constructor checks)",
                   z3.And(stated_tradeoff(c, r, delta) == c, 0 < c, 2 * c <= 1), base,
                   {**names, "r": r}, law_replay)]

        def ratio_goal() -> Decision:
            ran = 0
            for epsilon in _epsilons():
                built = _built(constructor, 1.0, (epsilon, 0.25))
                if built is None:
                    continue
                ran += 1
                ratio = _ratio(built)
                if built.function.epsilon != epsilon or not (ratio >= 1 and
                                                             _log_at_most(ratio, epsilon)):
                    return Decision(False, {"eps": epsilon, "r": str(ratio)},
                                    f"at eps = {epsilon!r} the running r = {ratio} is not in "
                                    f"[1, e^eps]")
            if not ran:  # a bounded check counts only the cases that ran
                return Decision(False, {"epsilons": len(_epsilons())}, "the constructor refused "
                                "every epsilon: nothing was checked", unsupported=True)
            return Decision(True, detail=f"{ran} of {len(_epsilons())} epsilons built")
        goals.append(ComputedGoal(f"the running r is in [1, e^eps] (ln r <= eps certified at "
                                  f"60 digits; {len(_epsilons())} epsilons, the extremes "
                                  "included)", "exact", ratio_goal, law_replay))

        def law_goal() -> Decision:
            uncertain: Decision | None = None
            for d_out in LAW_CASES:
                built = _built(constructor, 1.0, d_out)
                if built is None:
                    return Decision(False, {"d_out": str(d_out)}, f"{d_out} refused",
                                    unsupported=True)
                try:
                    wrong, cut = law_check(built)
                except NotEnumerable as outside:
                    return Decision(False, {"d_out": str(d_out)}, f"outside the path method: "
                                    f"{outside}", unsupported=True)
                except (ValueError, ArithmeticError) as error:
                    return Decision(False, {"d_out": str(d_out)},
                                    f"{type(error).__name__}: {error}")
                if wrong and cut:  # not definite: a later whole law may give a definite one
                    uncertain = uncertain or Decision(
                        False, {"d_out": str(d_out)}, f"{wrong} (paths of more than {DEPTH} "
                        f"draws cut off, mass {float(cut):.3g}: the law is not computed whole)",
                        unsupported=True)
                elif wrong:
                    return Decision(False, {"d_out": str(d_out)}, wrong)
            if uncertain is not None:
                return uncertain
            return Decision(True, detail=f"{len(LAW_CASES)} guarantees, paths of {DEPTH} draws")
        goals.append(ComputedGoal("the running sampler's intervals follow F_f (Definition 3.7): "
                                  "each drawn with F's mass, F linear on it, exact rationals",
                                  "exact", law_goal, law_replay))

        def rounding_goal() -> Decision:
            ran = 0
            for x, sensitivity, d_out in ROUNDING_CASES:
                built = _built(constructor, sensitivity, d_out)
                if built is None:
                    continue
                ran += 1
                try:
                    wrong, whole = output_check(built, x)
                except NotEnumerable as outside:
                    return Decision(False, {"x": x}, f"outside the path method: {outside}",
                                    unsupported=True)
                if wrong:  # on a law with paths cut off: not a definite violation
                    return Decision(False, {"x": x, "Delta": sensitivity}, wrong if whole else
                                    f"{wrong} (paths cut off: the law is not computed whole)",
                                    unsupported=not whole)
            if not ran:  # a bounded check counts only the cases that ran
                return Decision(False, {"inputs": len(ROUNDING_CASES)}, "the constructor refused "
                                "every case: nothing was checked", unsupported=True)
            return Decision(True, detail=f"{ran} of {len(ROUNDING_CASES)} inputs")
        goals.append(ComputedGoal("the output is the float nearest x + Delta N: its law, path by "
                                  "path, is the stated one where few floats are in reach",
                                  "exact", rounding_goal,
                                  _first_confirmed(_replay_output(constructor), law_replay)))
        return goals

    def privacy_goals() -> list[Any]:
        m, names, assumptions = symbolic()
        f = m.function
        d = z3.Real("d_in")
        replay = _first_confirmed(_replay_privacy(constructor), _replay_tails(constructor))
        epsilon_out, delta_out = m.map(d)

        def tails_goal() -> Decision:
            ran = 0
            for d_out in TAIL_CASES:
                built = _built(constructor, 1.0, d_out)
                if built is None:
                    continue
                ran += 1
                found = tail_violation(built, 0.0, 1.0)
                if found:
                    return Decision(False, {"d_out": str(d_out)}, found[0])
            if not ran:  # a bounded check counts only the cases that ran
                return Decision(False, {"guarantees": len(TAIL_CASES)}, "the constructor refused "
                                "every guarantee: nothing was checked", unsupported=True)
            return Decision(True, detail=f"{ran} of {len(TAIL_CASES)} guarantees, 128 events "
                            "each")
        return [
            kernel(),
            exact_noise_goal(lambda: constructor(1.0, (1.0, 0.1))),
            metric_premise(lambda: constructor(1.0, (1.0, 0.1)), AbsoluteDistance,
                           FixedSmoothedMaxDivergence, "a statistic of sensitivity Delta"),
            Z3Goal("for 0 <= d_in <= the running sensitivity, map(d_in) = (eps', delta') with "
                   "eps' >= the running eps (>= ln r) and delta' >= the running delta",
                   z3.And(epsilon_out >= f.epsilon, delta_out >= f.delta),
                   [*assumptions, 0 <= d, d <= f.sensitivity], {**names, "d_in": d}, replay),
            Z3Goal("above the sensitivity the map's delta is >= 1 (a bound every mechanism "
                   "meets)", delta_out >= 1, [*assumptions, d > f.sensitivity],
                   {**names, "d_in": d}, replay),
            ComputedGoal("evaluated: one-sided events {output >= y} at inputs d_in apart, exact "
                         "from the running kernels, within the map (evidence: can refute only)",
                         "exact", tails_goal, replay),
        ]

    bound = (f"the sampler's law checked at {len(LAW_CASES)} guarantees on paths of {DEPTH} draws "
             f"and the rounding at {len(ROUNDING_CASES)} inputs, evaluated")
    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "The output is a finite float: the nearest float to a rational (+-max beyond "
                   "the range).", r"\mathtt{function}(x) \in \mathtt{float} \setminus \{\pm\infty,"
                   r" \mathrm{NaN}\}", on_terms(output_domain_goals),
                   bound="witness runs and the rounding on 7 extreme rationals, evaluated"),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "Absolute distance is defined on non-NaN floats.",
                   r"d_{Abs} \sim \mathrm{AtomDomain}(\mathtt{float})",
                   lambda: [*builds, compatibility_goal(constructor, lambda: [symbolic()[0]],
                                                        {"d_in": 1.0, "d_out": (1.0, 0.1)})]),
        Obligation(f"{prefix}.runtime_errors", Kind.RUNTIME_ERRORS,
                   "function(x) raises for no input: every coin's probability is in [0, 1], the "
                   "last interval's length in (0, 1], the loops end with probability 1.",
                   r"0 \le f(1 - t) \le t \le c < 1/2", on_terms(runtime_goals),
                   bound=f"r >= 1 (the Z3 goals' premise) evaluated at {len(_epsilons())} "
                   "epsilons in the distribution obligation; witness runs",
                   uses=(f"{prefix}.distribution",)),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "The running function adds Delta N, N ~ F_f (Awan and Vadhan's Definition "
                   "3.7) for f = f_{ln r, delta}, a symmetric non-trivial tradeoff function with "
                   "ln r <= eps, and returns the nearest float.",
                   r"\mathtt{function}(x) = \mathrm{nearest}(x + \Delta N),\ N \sim F_f,\ "
                   r"f = f_{\ln r, \delta}", on_terms(distribution_goals), bound=bound),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "By Awan and Vadhan's Theorem 3.9, x + Delta N is f_{ln r, delta}-DP for "
                   "|x - x'| <= Delta, so (ln r, delta)-DP (Dong, Roth and Su, Prop. 2.5), and "
                   "(eps, delta)-DP as ln r <= eps; rounding is post-processing. The map returns "
                   "(eps, delta) up to Delta and delta = 1 above.",
                   r"|x - x'| \le \Delta \implies \Pr[M(x) \in S] \le e^{\varepsilon} "
                   r"\Pr[M(x') \in S] + \delta",
                   on_terms(privacy_goals), cites=(AWAN_VADHAN, DONG_ROTH_SU), bound=bound,
                   uses=(f"{prefix}.distribution",)),
    )


def catalogue_entry() -> Entry:
    return Entry("make_canonical_noise", make_canonical_noise, canonical_noise_obligations(),
                 "canonical (Tulap) noise for (eps, delta)-DP at a fixed sensitivity",
                 (example("make_canonical_noise(1.0, (1.0, 1e-6))", IMPORT),
                  example("make_canonical_noise(2.0, (0.5, 0.1))", IMPORT)),
                 proof=True)
