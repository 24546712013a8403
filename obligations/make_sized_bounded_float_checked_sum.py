"""Obligations of ``make_sized_bounded_float_checked_sum``, for all reals ``lower <= upper``, every
size ``1 <= n <= 2^53`` that passes the overflow check, and both summation orders.

Float addition is modelled, not bit-blasted: the *standard model* ``fl(a + b) = (a + b)(1 + delta)``
with ``|delta| <= u = 2^-53`` (round to nearest, no overflow; Higham 2002, section 2.2), and for
overflow the facts that rounding is monotone and fixes every float (``k * 2^e`` with ``k <= 2^53``
is a float below ``FLOAT_MAX``). The checked forms run the constructor's own ``build`` on Z3 terms:
its addition step, its pairwise split, its map, its preconditions; the error bound is proved by
induction over the additions with ``g(k) = k u / (1 - k u / 2)``, which satisfies
``g(k)(1 + u) + u <= g(k + 1)`` and bounds Higham's ``gamma_k``-style accumulation.

The function may also be the builtin ``math.fsum`` itself (``function is math.fsum``), a trusted
builtin whose behaviour is stated here (:data:`FSUM_SPEC`, from Python's documentation and
CPython's implementation): the correctly rounded exact sum, raising ``OverflowError`` only when an
exact prefix sum leaves the float range. Its goals prove that no prefix does under the
preconditions, and that the running map covers ``floor(d/2)(U - L) + 2 u n M`` (``u`` from
:mod:`obligations.ieee`), whatever summation order the build was given.

Stated, not proved here (labelled on the obligations): the standard model and the two rounding
facts above (``arithmetic=``); ``pow2_up(x) >= x > 0`` (its loop doubles until it is, tested);
textbook facts of ``ln`` (increasing, ``ln 1 = 0``, ``ln(x y) = ln x + ln y``; ``cites=``);
``ln_up`` increasing in ``r`` (used for ``log2_up(n) <= log2_up(2^53)``, tested on a grid).
Proved: the pairwise depth ``D(n) ln 2 <= 2 ln n`` by induction on ``n``; ``LN2_LOWER <= ln 2``
and ``log2_up(2^53) <= 54`` by exact computation; ``ln_up(n) >= ln n`` is ``arith.ln_up``.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from dataclasses import replace
from typing import Any

import z3

from mechanisms import float_model, ops
from mechanisms.core import Constructor, Fold
from mechanisms.domains import SizedDomain
from mechanisms.arith import pow2_up
from mechanisms.float_model import POW2_UP
from mechanisms.make_sized_bounded_float_checked_sum import (LN2_LOWER, SIZE_LIMIT, PairwiseSum,
                                                             log2_up, magnitude,
                                                             make_sized_bounded_float_checked_sum)
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from mechanisms.errors import DPCertError
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.ieee import LARGEST_FINITE, PRECISION, SMALLEST_SUBNORMAL, UNIT_ROUNDOFF
from obligations.kernels import kernel_deviations
from obligations.witnesses import excluded_goals, witness_goal
from obligations.compatibility import aggregate_compatibility, compatibility_goal, metric_premise
from obligations.lemmas import sized_path_steps
from obligations.reports import constructor_report, output_report, plain_report
from obligations.rounding import (ROUNDING_LEMMA, map_rounding_obligation, parameter_candidates,
                                  replay_rounding)
from obligations.symbols import natural, natural_int
from obligations.kernel.reviewed import reviewed
from obligations.float_sums import (FL, HIGHAM, IEEE_ROUNDING, growth, replay_float_pairs,
                                    rounding_goals, running_map_goals, substitution_pair)

LN_FACTS = ("textbook facts of the real logarithm, stated per goal: ln is increasing, ln 1 = 0, "
            "ln(x y) = ln x + ln y",)
SUMMATION_ORDERS = ("sequential", "pairwise")
MANTISSA_SCALE = Fraction(2, 2 ** PRECISION)
"""``2u = 2^-52``, OpenDP's factor in its error terms, from the checker's IEEE-754 model
(:mod:`obligations.ieee`), not from the mechanism's own constant."""
LN = z3.Function("ln", z3.RealSort(), z3.RealSort())
"""The exact natural logarithm, uninterpreted, with the facts stated per goal (:func:`_ln_facts`)."""


def row_allowed(t: Any, x: Any) -> Any:
    return is_true(t.input_domain.inner.element.contains(x))


def _symbolic(constructor: Constructor, summation: str) -> tuple[Any, dict[str, Any], list[Any]]:
    """The build on a symbolic size (an integer-valued real, so maps divide exactly) and bounds."""
    size, size_natural = natural("size")
    params = {"size": size, "lower": z3.Real("lower"), "upper": z3.Real("upper")}
    built = constructor.build(**params, summation=summation)
    return built, params, [*size_natural, *constructor.assumptions(**params, summation=summation)]


def _float_symbolic(constructor: Constructor) -> tuple[Any, dict[str, Any], list[Any]]:
    """The pairwise build on float bounds and a symbolic size (the sequential one shares its map
    rule, with an error term free of ``ln_up``), with ``log2_up(n) <= 54`` (computed exactly in
    the stability obligation)."""
    size, size_natural = natural("size")
    params = {"size": size, "lower": float_model.float_parameter("lower"),
              "upper": float_model.float_parameter("upper"), "summation": "pairwise"}
    names = {"size": size, "lower": float_model.plain(params["lower"]),
             "upper": float_model.plain(params["upper"])}
    ceiling = float_model.plain(log2_up(size)) <= LOG2_CEILING  # the stability obligation's
    return constructor.build(**params), names, [*size_natural, ceiling,
                                                *constructor.assumptions(**params)]


def _combine(function: Any) -> Any:
    """The addition the function performs: the Fold's step or the pairwise combine."""
    return function.step if isinstance(function, Fold) else function.combine


FSUM_SPEC = ("Python 3 docs, math.fsum (CPython mathmodule.c, Shewchuk's msum): for finite float "
             "rows, fsum(v) is the float nearest the exact sum; OverflowError only if an exact "
             "prefix sum leaves the float range",)
"""The trusted statement of the builtin ``math.fsum``: the correctly rounded sum (round to nearest
of the exact real sum, so a function of the multiset of rows), raising ``OverflowError``
("intermediate overflow in fsum") only when a running exact sum ``v_1 + ... + v_k`` is beyond the
largest finite float, e.g. ``fsum([1e308, 1e308, -1e308])``; the proof shows none is."""

FOLD, PAIRWISE, FSUM = "fold", "pairwise", "fsum"
"""The summation kernels the proof covers."""


def sum_kernel(function: Any) -> str | None:
    """``FSUM`` if ``function`` is the builtin ``math.fsum`` itself (not a wrapper), ``FOLD`` for a
    :class:`Fold` from ``0.0`` with an identity finalize, ``PAIRWISE`` for a :class:`PairwiseSum`,
    each running its own code (:func:`kernel_deviations`); else ``None``."""
    if function is math.fsum:
        return FSUM
    if not kernel_deviations(function, Fold):
        return FOLD if function.init == 0.0 and function.finalize(Fraction(7)) == 7 else None
    return PAIRWISE if not kernel_deviations(function, PairwiseSum) else None


def fsum_cites(constructor: Constructor) -> tuple[str, ...]:
    """:data:`FSUM_SPEC` where some order's build runs ``math.fsum`` (the proof then takes it as
    given), else nothing; a build that raises cites nothing (its goals say why)."""
    try:
        runs_fsum = any(constructor.build(size=1, lower=0.0, upper=1.0, summation=s).function
                        is math.fsum for s in SUMMATION_ORDERS)
    except Exception:  # noqa: BLE001 - the goals report a build that raises
        return ()
    return FSUM_SPEC if runs_fsum else ()


def fsum_error(size: Any, bound: Any) -> Any:
    """The bound of ``|fsum(v) - sum(v)|`` over ``n`` rows within ``M`` of 0 (:data:`FSUM_SPEC`,
    :data:`obligations.ieee.UNIT_ROUNDOFF`): ``u n M``, and 0 for one row (a float, which round to
    nearest returns unchanged)."""
    return z3.If(size >= 2, UNIT_ROUNDOFF * size * bound, z3.RealVal(0))


def _is_sum(constructor: Constructor, summation: str) -> ComputedGoal:
    def decide() -> Decision:
        t = constructor.build(size=1, lower=0.0, upper=1.0, summation=summation)
        f = t.function
        kind = sum_kernel(f)
        if kind is None or not isinstance(t.input_domain, SizedDomain):
            deviations = "; ".join(kernel_deviations(f, PairwiseSum if isinstance(f, PairwiseSum)
                                                     else Fold))
            return Decision(False, {"function": repr(f)}, "function is neither a left fold from "
                            "0.0 nor a pairwise sum (running its own code: "
                            f"{deviations or 'yes'}) nor the builtin math.fsum, on a sized "
                            "domain; the error bound does not apply", unsupported=True)
        return Decision(True, detail=f"{'math.fsum' if kind == FSUM else type(f).__name__} over "
                                     "a SizedDomain")
    return ComputedGoal(f"function ({summation}) is a left fold from 0.0 or a pairwise sum, "
                        "whose only arithmetic is its addition, or the builtin math.fsum",
                        "structure", decide)


def _arguments(counterexample: dict[str, Any], summation: str) -> dict[str, Any]:
    return {"size": int(counterexample.get("size", 3)), "lower": float(counterexample.get("lower", 0)),
            "upper": float(counterexample.get("upper", 1)), "summation": summation}


OVERFLOW_CANDIDATES = [(size, exponent) for exponent in (1023, 1022, 1021, 1020)
                       for size in (2, 4, 8)]
"""Bounds ``+-2^e`` with ``size`` rows: near the largest float, where an admitted ``size * 2^e``
beyond it overflows."""


def _replay_overflow(constructor: Constructor, summation: str):
    """Rows at the input domain's extremes (``[hi] * n``, and ``hi``s then ``lo``s) under bounds
    ``+-2^e`` that the constructor admits: a wider domain than ``[L, U]`` (e.g. unbounded, so the
    extremes are ``+-inf``) or an overflow check that admits ``n 2^e`` past the largest float
    gives an infinite or NaN sum."""
    def replay(_: dict[str, Any]) -> Replay:
        for size, exponent in OVERFLOW_CANDIDATES:
            arguments = {"size": size, "lower": -2.0 ** exponent, "upper": 2.0 ** exponent,
                         "summation": summation}
            try:
                t = constructor(**arguments)
            except DPCertError:
                continue  # refused: its sums are not claimed
            low, high = t.input_domain.inner.element.bounds or (-math.inf, math.inf)
            for data in ([float(high)] * size,
                         [float(high)] * (size // 2) + [float(low)] * (size - size // 2)):
                try:
                    output = t(data)
                except Exception as error:  # noqa: BLE001 - no output breaks the claim too
                    return output_report(constructor, arguments, data,
                                         f"{type(error).__name__}: {error}", True, "raises",
                                         finite=True)
                if not (math.isfinite(output) and t.output_domain.member(output)):
                    return output_report(constructor, arguments, data, output, True,
                                         f"not finite; in {t.output_domain}: "
                                         f"{t.output_domain.member(output)}", finite=True)
        return output_report(constructor, arguments, data, output, False,
                             "every admitted sum near the largest float is finite")
    return replay


CANDIDATE_PAIRS = {
    "sequential": (3, [1.0, 0.9999999999999999, 0.9999999999999999],
                   [0.0, 0.9999999999999999, 0.9999999999999999]),
    "pairwise": (4, [0.0, 0.23723352615554094, 1.0, 1.1102230246251565e-16],
                 [1.0, 0.23723352615554094, 1.0, 1.1102230246251565e-16]),
}
"""One substitution in ``[0, 1]`` whose float sums differ by ``1 + 2^-52`` > ``U - L``."""


SEARCHED_PAIRS = 2000
"""Seeded substitutions a rounding replay tries after the known pair."""


def _replay_rounding(constructor: Constructor, summation: str):
    """Neighbours in ``[0, 1]`` whose float sums differ by one ulp more than ``U - L``, then
    seeded ones (:func:`substitution_pair`): :func:`replay_float_pairs`."""
    def replay(_: dict[str, Any]) -> Replay:
        size, v, w = CANDIDATE_PAIRS[summation]
        rng = random.Random(0)
        pairs = [(0.0, 1.0, v, w), *(substitution_pair(rng) for _ in range(SEARCHED_PAIRS))]
        return replay_float_pairs(constructor, pairs, lambda lower, upper, v: {
            "size": len(v), "lower": lower, "upper": upper, "summation": summation})
    return replay


def _replay_substitution(constructor: Constructor, summation: str):
    """``v = [a] + [lower] * (n - 1)`` and ``w`` with ``b`` in place of ``a``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        arguments = _arguments(counterexample, summation)
        t = constructor(**arguments)
        filler = [arguments["lower"]] * (arguments["size"] - 1)
        v, w = [float(counterexample["a"])] + filler, [float(counterexample["b"])] + filler
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        claimed = t.map(d_in)
        return constructor_report(constructor, arguments, v, w, d_in, claimed, observed,
                                  observed > Fraction(claimed))
    return replay


def _output_domain_goals(constructor: Constructor, summation: str) -> list[Any]:
    t, params, assumptions = _symbolic(constructor, summation)
    n, lower, upper = params["size"], params["lower"], params["upper"]
    if t.function is math.fsum:
        return _fsum_output_goals(constructor, summation)
    if not isinstance(t.function, (Fold, PairwiseSum)):
        return [_is_sum(constructor, summation)]
    add = _combine(t.function)
    bound = magnitude(lower, upper)
    power = POW2_UP(bound)
    x, a, b = z3.Reals("x a b")
    i, j = z3.Ints("i j")
    total = (i + j) * power
    facts = [power >= bound, power > 0]
    rounded = FL(add(a, b))
    rounding_facts = [rounded <= FL(total), FL(-total) <= rounded,  # fl is monotone
                      FL(total) == total, FL(-total) == -total]  # and fixes (i + j) 2^e
    names = {**params, "x": x, "a": a, "b": b, "i": i, "j": j}
    replay = _replay_overflow(constructor, summation)
    return [
        _is_sum(constructor, summation),
        Z3Goal("a row is within P = pow2_up(max(|L|, |U|)) of 0 (and 0.0 within 0 P)",
               z3.And(ops.absolute(x) <= power, is_true(ops.eq(getattr(t.function, "init", 0.0), 0))),
               [*assumptions, *facts, row_allowed(t, x)], names, replay),
        Z3Goal("one addition of partial sums within i P and j P, i + j <= n, lands within "
               "(i + j) P <= the largest finite float (IEEE-754's, obligations.ieee): finite, "
               "so never NaN",
               z3.And(ops.absolute(rounded) <= total, total <= LARGEST_FINITE),
               [*assumptions, *facts, *rounding_facts, i >= 0, j >= 0, i + j <= n,
                ops.absolute(a) <= i * power, ops.absolute(b) <= j * power],
               names, replay),
    ]


def _fsum_output_goals(constructor: Constructor, summation: str) -> list[Any]:
    """``math.fsum`` (:data:`FSUM_SPEC`): every exact prefix sum of ``k <= n`` rows is within
    ``k P <= n P <= LARGEST_FINITE``, so fsum raises no ``OverflowError`` and returns the float
    nearest a real in the float range: finite, not NaN, and in the output domain."""
    t, params, assumptions = _symbolic(constructor, summation)
    n = params["size"]
    power = POW2_UP(magnitude(params["lower"], params["upper"]))
    x, a, h = z3.Reals("x a h")
    i = z3.Int("i")
    facts = [power >= magnitude(params["lower"], params["upper"]), power > 0]
    names = {**params, "x": x, "a": a, "h": h, "i": i}
    replay = _replay_overflow(constructor, summation)
    return [
        _is_sum(constructor, summation),
        Z3Goal("a row is within P = pow2_up(max(|L|, |U|)) of 0",
               ops.absolute(x) <= power, [*assumptions, *facts, row_allowed(t, x)], names, replay),
        Z3Goal("induction on the prefix: an exact prefix sum of i rows within i P, plus a row "
               "within P, is within (i + 1) P <= n P <= the largest finite float (IEEE-754's, "
               "obligations.ieee): no prefix leaves the float range, so fsum does not raise",
               z3.And(ops.absolute(a + x) <= (i + 1) * power, (i + 1) * power <= LARGEST_FINITE),
               [*assumptions, *facts, i >= 0, i + 1 <= n, ops.absolute(a) <= i * power,
                ops.absolute(x) <= power], names, replay),
        Z3Goal(f"fsum's value, the float nearest an exact sum in the float range, is finite, not "
               f"NaN: in the output domain {t.output_domain}",
               is_true(t.output_domain.contains(h)),
               [*assumptions, ops.absolute(h) <= LARGEST_FINITE], names, replay),
    ]


def _power_of_two(q: Fraction) -> bool:
    return q > 0 and q.numerator & (q.numerator - 1) == 0 and q.denominator & (q.denominator - 1) == 0


def pow2_samples() -> list[Fraction]:
    """Where ``pow2_up`` is evaluated: 0, every binade's least and greatest float (every 16th
    binade, and the extremes), and seeded random floats."""
    rng = random.Random(0)
    exponents = sorted({*range(-1074, 1024, 16), -1074, -1022, -1, 0, 1, 1022, 1023})
    values = [Fraction(0), LARGEST_FINITE]
    for e in exponents:
        low = Fraction(2) ** e
        values += [low, Fraction(math.nextafter(float(low), 0.0)) if e > -1074 else low]
    values += [Fraction(rng.uniform(0, 2) * 2.0 ** rng.randint(-1074, 1023)) for _ in range(40)]
    return values


def _pow2_facts() -> Decision:
    """``pow2_up(x)`` on the samples is a power of two, ``>= x``, and below ``2x`` (or the least
    subnormal): the facts the overflow argument states of the uninterpreted ``POW2_UP``."""
    for x in pow2_samples():
        power = Fraction(pow2_up(x))
        if not (_power_of_two(power) and power >= x
                and (power < 2 * x or power == SMALLEST_SUBNORMAL)):
            return Decision(False, {"x": str(x), "pow2_up(x)": str(power)},
                            f"pow2_up({float(x)!r}) = {float(power)!r} is not the least power of "
                            "two at or above it")
    return Decision(True, detail=f"evaluated on {len(pow2_samples())} floats")


def _replay_pow2(_: dict[str, Any]) -> Replay:
    wrong = _pow2_facts()
    return plain_report(not wrong.proved, "pow2_up, run on the sampled floats",
                        wrong.detail or "the least power of two at or above each sample")


ACCURACY_VECTORS = ([1.0], [1.0, 2.0], [0.5, -1.5, 2.0], [2.0, 2.0, -1.5, 0.25],
                    [0.1, 0.2, 0.3, -1.5, 2.0], [2.0, -1.5, 0.1, 0.7, 1.9, -0.3])
"""Rows in ``[-1.5, 2.0]``, one vector of each size ``1 .. 6``: dropping or repeating any row
moves the sum far beyond the rounding error."""


def summation_error_bound(rows: list[float]) -> Fraction:
    """``gamma_(n-1) sum |x_i|``, ``gamma_k = k u / (1 - k u)``: Higham's bound for any order of
    ``n - 1`` round-to-nearest additions (a sum tree), with ``u`` from :mod:`obligations.ieee`."""
    k = len(rows) - 1
    gamma = k * UNIT_ROUNDOFF / (1 - k * UNIT_ROUNDOFF)
    return gamma * sum(abs(Fraction(x)) for x in rows)


def _inaccurate(constructor: Constructor, summation: str) -> tuple[list[float], Any] | None:
    """The first accuracy vector whose real sum is off the exact sum by more than the bound."""
    for rows in ACCURACY_VECTORS:
        t = constructor(size=len(rows), lower=-1.5, upper=2.0, summation=summation)
        try:
            total = t(list(rows))
        except Exception as error:  # noqa: BLE001 - a raise is no sum at all
            return list(rows), f"raised {type(error).__name__}: {error}"
        if not math.isfinite(total) or \
                abs(Fraction(total) - sum(map(Fraction, rows))) > summation_error_bound(rows):
            return list(rows), total
    return None


def _accurate_sums(constructor: Constructor) -> list[Any]:
    """The running function sums its rows: on one vector of each size ``1 .. 6``, each order's
    result is within Higham's bound of the exact sum (a kernel that drops, repeats or reorders
    rows into another value is refuted). Evaluated."""
    def goal(summation: str) -> ComputedGoal:
        def decide() -> Decision:
            found = _inaccurate(constructor, summation)
            if found is None:
                return Decision(True, detail=f"{len(ACCURACY_VECTORS)} vectors within "
                                "gamma_(n-1) sum |x_i| of the exact sum")
            rows, total = found
            return Decision(False, {"rows": str(rows)}, f"sum of {rows} gave {total!r}")

        def replay(_: dict) -> Replay:
            found = _inaccurate(constructor, summation)
            if found is None:
                return plain_report(False, "every accuracy vector sums within the bound")
            rows, total = found
            call = (f"{constructor.name}(size={len(rows)}, lower=-1.5, upper=2.0, "
                    f"summation={summation!r})")
            return plain_report(True, f"{call} on {rows} gives {total!r}",
                                f"the exact sum is {float(sum(map(Fraction, rows)))!r}, and any "
                                f"order of float additions is within "
                                f"{float(summation_error_bound(rows)):.3g} of it")
        return ComputedGoal(f"the function sums its rows ({summation}): within gamma_(n-1) "
                            "sum |x_i| of the exact sum on 6 vectors", "evaluated", decide, replay)
    return [goal(summation) for summation in SUMMATION_ORDERS]


def _excluded(constructor: Constructor) -> list[ComputedGoal]:
    """Arguments the proof (float bounds, finite, ``1 <= size``) does not cover are refused."""
    base = {"size": 3, "lower": -1.5, "upper": 2.0, "summation": "pairwise"}
    return excluded_goals(constructor, [
        ({**base, "lower": -1}, "an int lower bound (the bounds are floats)"),
        ({**base, "upper": 2}, "an int upper bound (the bounds are floats)"),
        ({**base, "upper": math.inf}, "an infinite bound"),
        ({**base, "lower": -math.inf, "upper": math.inf}, "infinite bounds"),
        ({**base, "size": 0}, "size 0 (size >= 1)"),
        ({**base, "summation": "kahan"}, "an unknown summation order")],
        inputs=[[], [0.5, -1.5, 2.0], [2.0, 2.0, 2.0]])


def _running_sums(constructor: Constructor) -> list[Any]:
    """The running function of each order on ``n`` rows, ``n = 1 .. 6`` (so splits of odd and
    even blocks, and the base cases), at the bounds and inside: the symbolic goals read its
    addition and split, these runs execute the body that recurses or folds."""
    goals: list[Any] = []
    for summation in SUMMATION_ORDERS:
        for size in range(1, 7):
            rows = [(-1.5, 2.0, 0.25, 2.0, -1.5, 0.5)[:size], [2.0] * size, [-1.5] * size]
            goals.append(witness_goal(constructor, {"size": size, "lower": -1.5, "upper": 2.0,
                                                    "summation": summation}, inputs=rows))
    return goals


def _exact_sum_goals(constructor: Constructor, summation: str) -> list[Any]:
    t, params, assumptions = _symbolic(constructor, summation)
    add = _combine(t.function)
    s, a, b = z3.Reals("s a b")
    names = {**params, "s": s, "a": a, "b": b}
    return [
        Z3Goal("the addition is one exact + on reals (so the exact sum ignores order and "
               "grouping, the premise of lemma.sized_path)",
               z3.And(add(s, a) == s + a, add(add(s, a), b) == add(add(s, b), a)),
               assumptions, names),
        Z3Goal("exact reals: one substitution a -> b of a row moves the sum by at most U - L",
               ops.absolute(add(s, a) - add(s, b)) <= upper_minus_lower(params),
               [*assumptions, row_allowed(t, a), row_allowed(t, b)], names,
               _replay_substitution(constructor, summation)),
    ]


def upper_minus_lower(params: dict[str, Any]) -> Any:
    return params["upper"] - params["lower"]


def _ln_facts(*pairs: tuple[Any, Any]) -> list[Any]:
    """Stated (textbook, not proved here) facts of the natural logarithm ``LN`` on the pairs
    ``(x, y)`` of positive reals used: ``LN`` is increasing, ``LN(1) = 0``, ``LN(x y) = LN x + LN y``
    (used as ``2 LN(n - m) + LN 2 = LN(2 (n - m)^2)``)."""
    return [LN(z3.RealVal(1)) == 0,
            *[z3.Implies(z3.And(0 < x, x <= y), LN(x) <= LN(y)) for x, y in pairs]]


def _depth_goals(constructor: Constructor) -> list[Any]:
    """Pairwise: the depth ``D(n) = 1 + max(D(m), D(n - m))`` (``m = split(n)``, ``D(1) = 0``)
    satisfies ``D(n) ln 2 <= 2 ln n``, by induction on ``n``; then ``D(n) <= 2 log2_up(n)``."""
    t, params, _ = _symbolic(constructor, "pairwise")
    split = t.function.split
    n = float_model.int_parameter("n")  # a Python int: the split runs its own //
    m = split(n)
    dm, dc, dn, l2, lm, lc, ln_n = z3.Reals("D_m D_c D_n l2 Lm Lc Ln")
    real_n, real_m, real_c = z3.ToReal(n), z3.ToReal(m), z3.ToReal(n - m)
    ln_premises = [*_ln_facts((real_m, real_c), (2 * real_c * real_c, real_n * real_n)),
                   LN(2 * real_c * real_c) == LN(z3.RealVal(2)) + 2 * LN(real_c),
                   LN(real_n * real_n) == 2 * LN(real_n)]
    size, size_natural = natural("size")
    depth, log2 = z3.Reals("D log2_n")
    return [
        Z3Goal("the split of n >= 2 rows gives halves 1 <= m <= n - m with 2 (n - m)^2 <= n^2",
               z3.And(1 <= m, m <= n - m, 2 * (n - m) * (n - m) <= n * n), [n >= 2], {"n": n}),
        Z3Goal("facts of ln: 1 <= m <= n - m and 2 (n - m)^2 <= n^2 give ln m <= ln(n - m) and "
               "ln 2 + 2 ln(n - m) <= 2 ln n, ln 2 >= 0",
               z3.And(LN(real_m) <= LN(real_c),
                      LN(z3.RealVal(2)) + 2 * LN(real_c) <= 2 * LN(real_n),
                      LN(z3.RealVal(2)) >= 0),
               [n >= 2, 1 <= m, m <= n - m, 2 * (n - m) * (n - m) <= n * n, *ln_premises,
                *_ln_facts((z3.RealVal(1), z3.RealVal(2)))], {"n": n}),
        Z3Goal("induction: D(m) ln 2 <= 2 ln m and D(n - m) ln 2 <= 2 ln(n - m) give "
               "D(n) ln 2 <= 2 ln n for D(n) = 1 + max(D(m), D(n - m)) (D(1) = 0 = 2 ln 1)",
               dn * l2 <= 2 * ln_n,
               [l2 >= 0, lm <= lc, l2 + 2 * lc <= 2 * ln_n, dm >= 0, dc >= 0,
                dm * l2 <= 2 * lm, dc * l2 <= 2 * lc, dn == 1 + ops.maximum(dm, dc)],
               {"D_m": dm, "D_c": dc, "D_n": dn, "l2": l2, "Lm": lm, "Lc": lc, "Ln": ln_n}),
        ComputedGoal("LN2_LOWER <= ln 2: below a partial sum of ln 2 = sum_k 1/(k 2^k)",
                     "exact", ln2_certificate),
        Z3Goal("D ln 2 <= 2 ln n, ln 2 >= LN2_LOWER > 0 and ln_up(n) >= ln n >= 0 "
               "(arith.ln_up) give D <= 2 log2_up(n), the code's log2 bound",
               depth <= 2 * log2_up(size),
               [*size_natural, size >= 1, LN(size) >= 0, depth >= 0,
                depth * LN(z3.RealVal(2)) <= 2 * LN(size),
                LN(z3.RealVal(2)) >= LN2_LOWER, ops.ln_up(size) >= LN(size)],
               {"size": size, "D": depth}),
    ]


LN2_TERMS = 64
"""Terms of ``ln 2 = -ln(1 - 1/2) = sum_(k >= 1) 1 / (k 2^k)`` summed for the lower bound."""


def ln2_certificate() -> Decision:
    """``LN2_LOWER <= ln 2``: every term of ``sum_k 1 / (k 2^k)`` is positive, so a partial sum,
    computed in exact rationals, is below ``ln 2``; the code's constant must be below that."""
    partial = sum(Fraction(1, k * 2 ** k) for k in range(1, LN2_TERMS + 1))
    if LN2_LOWER <= partial:
        return Decision(True, detail=f"LN2_LOWER = {LN2_LOWER} <= sum of {LN2_TERMS} terms "
                        f"{float(partial)!r}... <= ln 2")
    return Decision(False, {"LN2_LOWER": str(LN2_LOWER)}, f"LN2_LOWER exceeds the partial sum "
                    f"{float(partial)!r}, within 2^-{LN2_TERMS} of ln 2")


def _log2_ceiling() -> Decision:
    """``log2_up(2^53) <= 54``, computed exactly; ``log2_up`` is increasing in ``n``."""
    value = log2_up(SIZE_LIMIT)
    return Decision(value <= LOG2_CEILING, {"log2_up(2^53)": str(value)},
                    f"log2_up(2^53) = {float(value)}")


LOG2_CEILING = 54
"""An upper bound of ``log2_up(n)`` for ``n <= 2^53``, so ``uk = log2_up(n) 2^-52 < 1``."""


def _error_factor(summation: str, size: Any) -> Any:
    """OpenDP's error divided by ``n M``: ``n 2^-52`` sequential, ``uk / (1 - uk)`` pairwise."""
    if summation == "sequential":
        return size * MANTISSA_SCALE
    uk = log2_up(size) * MANTISSA_SCALE
    return uk / (1 - uk)


def _map_goals(constructor: Constructor, summation: str) -> list[Any]:
    """``|fl(v) - fl(w)| <= |fl(v) - s_v| + |s_v - s_w| + |s_w - fl(w)|``, split in a linear step
    with the rounding error ``E`` a variable and the nonlinear ``relaxation >= 2 g(D) n M``."""
    t, params, assumptions = _symbolic(constructor, summation)
    n, lower, upper = params["size"], params["lower"], params["upper"]
    s, h, big_a, g, depth, x = z3.Reals("s h A G D x")
    bound = magnitude(lower, upper)
    replay = _replay_rounding(constructor, summation)
    factor = _error_factor(summation, n)
    if summation == "sequential":
        depth_facts = [depth == n]  # n additions from 0.0
        depth_name = "D = n additions"
    else:
        depth_facts = [depth >= 0, depth <= 2 * log2_up(n), log2_up(n) <= LOG2_CEILING]
        depth_name = "D <= 2 log2_up(n) <= 108"
    return [
        Z3Goal("a row lies within M = max(|L|, |U|) of 0, so A = sum |x_i| <= n M",
               ops.absolute(x) <= bound, [*assumptions, row_allowed(t, x)], {**params, "x": x}),
        Z3Goal("a float sum within g(D) A of its exact sum, A <= n M, is within E = g(D) n M",
               ops.absolute(h - s) <= g * n * bound,
               [*assumptions, g >= 0, 0 <= big_a, big_a <= n * bound,
                ops.absolute(h - s) <= g * big_a], {**params, "h": h, "s": s, "A": big_a, "G": g}),
        Z3Goal(f"the growth factor g(D) of {summation} ({depth_name}) is at most OpenDP's error "
               "over n M", growth(depth) <= factor,
               [*assumptions, *depth_facts], {**params, "D": depth}, replay),
        Z3Goal("the code's relaxation map(0) is 2 E when E = (OpenDP's error over n M) n M",
               2 * g * n * bound <= t.map(0), [*assumptions, 0 <= g, g <= factor],
               {**params, "G": g}, replay),
        *_path_goals(constructor, summation, "fl"),
    ]


def _path_goals(constructor: Constructor, summation: str, rounded: str) -> list[Any]:
    """``|r(v) - r(w)| <= |r(v) - s_v| + |s_v - s_w| + |s_w - r(w)|`` for the rounded sum ``r``
    (``rounded`` names it), with the exact sums ``(d/2)(U - L)`` apart (lemma.sized_path) and each
    rounded sum within ``E``, ``2 E <= map(0)``."""
    t, params, assumptions = _symbolic(constructor, summation)
    upper, lower = params["upper"], params["lower"]
    d_in, d_in_natural = natural("d_in")
    d = z3.Real("d")
    sv, sw, hv, hw, e, c = z3.Reals("s_v s_w h_v h_w E C")
    k, j = z3.Real("k"), z3.Int("j")  # j: d = 2 j is even (lemma.sized_path)
    names = {**params, "d_in": d_in, "d": d, "h_v": hv, "h_w": hw, "s_v": sv, "s_w": sw, "E": e}
    replay = _replay_rounding(constructor, summation)
    return [
        Z3Goal("an even d <= d_in gives 0 <= d/2 <= floor(d_in/2) = f",
               z3.And(0 <= sized_path_steps(d), sized_path_steps(d) <= ops.floor(d_in / 2)),
               [*d_in_natural, d == 2 * z3.ToReal(j), j >= 0, d <= d_in], {**names, "j": j}),
        Z3Goal("so the exact change (d/2)(U - L) is at most f (U - L) = map(d_in) - map(0)",
               (upper - lower) * k <= t.map(d_in) - t.map(0),
               [*assumptions, *d_in_natural, 0 <= k, k <= ops.floor(d_in / 2)],
               {**names, "k": k}, replay),
        Z3Goal("triangle inequality: exact sums within C <= map(d_in) - map(0) "
               f"(lemma.sized_path), each {rounded} sum within E of its exact sum, 2 E <= map(0), "
               f"give |{rounded}(v) - {rounded}(w)| <= map(d_in)",
               ops.absolute(hv - hw) <= t.map(d_in),
               [ops.absolute(sv - sw) <= c, c <= t.map(d_in) - t.map(0),
                ops.absolute(hv - sv) <= e, ops.absolute(hw - sw) <= e, 2 * e <= t.map(0)],
               {**names, "C": c}, replay),
    ]


def _fsum_stability_goals(constructor: Constructor, summation: str) -> list[Any]:
    """``math.fsum`` (:data:`FSUM_SPEC`) under the map the ``summation`` build runs: the exact sum
    (a function of the multiset) moves by at most ``U - L`` per substitution; ``fsum(v)`` is within
    ``E = fsum_error(n, M)`` of it; ``2 E <= map(0)``, read from the running map (whose error term,
    if any, involves ``ln_up``: its stated facts are premises); then :func:`_path_goals`."""
    t, params, assumptions = _symbolic(constructor, summation)
    n, lower, upper = params["size"], params["lower"], params["upper"]
    bound = magnitude(lower, upper)
    s, h, big_a, a, b, x, y = z3.Reals("s h A a b x y")
    names = {**params, "s": s, "h": h, "A": big_a, "a": a, "b": b, "x": x, "y": y}
    replay = _replay_rounding(constructor, summation)
    two = z3.RealVal(2)
    log_facts = [*_ln_facts((z3.RealVal(1), n), (two, n)), LN(two) >= LN2_LOWER,
                 ops.ln_up(n) >= LN(n), float_model.plain(log2_up(n)) <= LOG2_CEILING]
    return [
        Z3Goal("exact reals: one substitution a -> b of a row moves the exact sum by at most U - L",
               ops.absolute((s + a) - (s + b)) <= upper_minus_lower(params),
               [*assumptions, row_allowed(t, a), row_allowed(t, b)], names,
               _replay_substitution(constructor, summation)),
        Z3Goal("a row lies within M = max(|L|, |U|) of 0, so |sum(v)| <= A = sum |x_i| <= n M",
               ops.absolute(x) <= bound, [*assumptions, row_allowed(t, x)], names),
        Z3Goal("fsum(v) = RN(s) with |RN(s) - s| <= u |s| (s a sum of floats in the float range, "
               "obligations.ieee), |s| <= A <= n M, and RN(s) = s for one row: within "
               "E = fsum_error(n, M)",
               ops.absolute(h - s) <= fsum_error(n, bound),
               [*assumptions, 0 <= big_a, big_a <= n * bound, ops.absolute(s) <= big_a,
                ops.absolute(h - s) <= UNIT_ROUNDOFF * ops.absolute(s),
                z3.Implies(n == 1, h == s)], names, replay),
        Z3Goal("the running map's map(0) covers 2 E = 2 fsum_error(n, M) (facts: ln increasing, "
               "ln 1 = 0, LN2_LOWER <= ln 2, arith.ln_up, log2_up(n) <= 54)",
               2 * fsum_error(n, bound) <= t.map(0),
               [*assumptions, *log_facts], params, replay),
        ComputedGoal("LN2_LOWER <= ln 2: below a partial sum of ln 2 = sum_k 1/(k 2^k)",
                     "exact", ln2_certificate),
        ComputedGoal("log2_up(2^53) <= 54, computed exactly; so log2_up(n) <= 54 for n <= 2^53, "
                     "with ln_up increasing in r", "exact", _log2_ceiling),
        *_path_goals(constructor, summation, "fsum"),
    ]


@reviewed
def sized_float_sum_obligations(constructor: Constructor = make_sized_bounded_float_checked_sum,
                                prefix: str = "sized_bounded_float_checked_sum"
                                ) -> tuple[Obligation, ...]:

    def output_domain_goals() -> list[Any]:
        return [ComputedGoal("pow2_up, the code that runs on numbers, meets the facts stated of "
                             "POW2_UP (a power of two, >= x, < 2x), evaluated on "
                             f"{len(pow2_samples())} floats", "exact", _pow2_facts, _replay_pow2),
                *_running_sums(constructor), *_excluded(constructor),
                *[g for s in SUMMATION_ORDERS for g in _output_domain_goals(constructor, s)]]

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(
            constructor, lambda: [_symbolic(constructor, s)[0] for s in SUMMATION_ORDERS],
            {"size": 3, "lower": 0.0, "upper": 1.0, "summation": "pairwise"})]

    def stability_goals() -> list[Any]:
        goals: list[Any] = [*_accurate_sums(constructor), metric_premise(
            lambda: constructor.build(size=1, lower=0.0, upper=1.0), SymmetricDistance,
            AbsoluteDistance, "the proof by lemma.sized_path")]
        for summation in SUMMATION_ORDERS:
            function = _symbolic(constructor, summation)[0].function
            goals.append(_is_sum(constructor, summation))
            if function is math.fsum:
                goals += _fsum_stability_goals(constructor, summation)
                continue
            if not isinstance(function, (Fold, PairwiseSum)):
                continue
            goals += [*_exact_sum_goals(constructor, summation),
                      *rounding_goals(_combine(function))]
            if isinstance(function, PairwiseSum):
                goals += [*_depth_goals(constructor),
                          ComputedGoal("log2_up(2^53) <= 54, computed exactly; so log2_up(n) <= 54 "
                                       "for n <= 2^53, with ln_up increasing in r (stated: it "
                                       "is the least float whose monotone certificate reaches r)",
                                       "exact", _log2_ceiling)]
            goals += _map_goals(constructor, summation)
        return goals

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector of n values in [lower, upper], function(v) is a float, not "
                   "NaN: every partial sum of k rows stays within k P <= n P <= FLOAT_MAX, "
                   "P = pow2_up(max(|L|, |U|)), which the overflow check guarantees. If the "
                   "function is the builtin math.fsum (stated: the float nearest the exact sum, "
                   "OverflowError only if an exact prefix sum leaves the float range), every "
                   "exact prefix sum is within k P <= n P <= FLOAT_MAX likewise.",
                   r"v \in [\mathtt{L}, \mathtt{U}]^n \implies |\mathtt{function}(v)| \le "
                   r"n P \le \mathtt{FLOAT\_MAX}",
                   output_domain_goals, cites=IEEE_ROUNDING + fsum_cites(constructor)),
        aggregate_compatibility(prefix, compatibility_goals, sized=True, atoms="float"),
        Obligation(f"{prefix}.stability", Kind.STABILITY,
                   "If d_sym(v, w) <= d_in for v, w of size n then |fl_sum(v) - fl_sum(w)| <= "
                   "map(d_in): the exact sums differ by at most (d_in/2)(U - L) "
                   "(lemma.sized_path), and each float sum is within g(D) n M of its exact sum "
                   "(D = n sequential; pairwise D ln 2 <= 2 ln n by induction, so D <= 2 log2_up(n)), "
                   "which OpenDP's error term bounds. If the function is the builtin math.fsum "
                   "(stated: the float nearest the exact sum), it is within u n M of the exact "
                   "sum (0 for one row), and the running map(0) is proved >= 2 u n M.",
                   r"d_{Sym}(v, w) \le d_{in} \implies |\hat{S}(v) - \hat{S}(w)| \le "
                   r"\lfloor d_{in}/2 \rfloor (\mathtt{U} - \mathtt{L}) + 2\,\mathrm{error}(n)",
                   stability_goals, uses=("lemma.sized_path", "arith.ln_up",
                                          f"{prefix}.map_rounding"),
                   cites=HIGHAM + LN_FACTS + fsum_cites(constructor)),
        _with_running_maps(constructor, map_rounding_obligation(
            prefix, lambda: _float_symbolic(constructor), lambda: natural_int("d_in"),
            replay_rounding(constructor, parameter_candidates(
                ("lower", "upper"), ("size",), {"summation": "pairwise"})),
            "floor(d_in / 2)(U - L) + 2 error(n)", uses=(ROUNDING_LEMMA, "arith.ln_up"))),
    )


def _with_running_maps(constructor: Constructor, obligation: Obligation) -> Obligation:
    """``obligation`` (the symbolic map_rounding) and, for each order, the map that runs on
    numbers evaluated against the proved code (:func:`running_map_goals`)."""
    return replace(obligation, goals=lambda: [
        *obligation.goals(),
        *[g for s in SUMMATION_ORDERS for g in running_map_goals(
            constructor, "size", {"summation": s}, _replay_rounding(constructor, s))]])


IMPORT = ("from mechanisms.make_sized_bounded_float_checked_sum import "
          "make_sized_bounded_float_checked_sum")


def catalogue_entry() -> Entry:
    return Entry("make_sized_bounded_float_checked_sum", make_sized_bounded_float_checked_sum,
                 sized_float_sum_obligations(),
                 "float sum of n values in [lower, upper], map with rounding error",
                 (example("make_sized_bounded_float_checked_sum(3, 0.0, 1.0, 'sequential')", IMPORT),
                  example("make_sized_bounded_float_checked_sum(4, -1.0, 1.0)", IMPORT)),
                 proof=True)
