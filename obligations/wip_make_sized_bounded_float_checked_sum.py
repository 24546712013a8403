"""Obligations of ``make_sized_bounded_float_checked_sum``, for all reals ``lower <= upper``, every
size ``1 <= n <= 2^53`` that passes the overflow check, and both summation orders.

Float addition is modelled, not bit-blasted: the *standard model* ``fl(a + b) = (a + b)(1 + delta)``
with ``|delta| <= u = 2^-53`` (round to nearest, no overflow; Higham 2002, section 2.2), and for
overflow the facts that rounding is monotone and fixes every float (``k * 2^e`` with ``k <= 2^53``
is a float below ``FLOAT_MAX``). The checked forms run the constructor's own ``build`` on Z3 terms:
its addition step, its pairwise split, its map, its preconditions; the error bound is proved by
induction over the additions with ``g(k) = k u / (1 - k u / 2)``, which satisfies
``g(k)(1 + u) + u <= g(k + 1)`` and bounds Higham's ``gamma_k``-style accumulation.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import z3

from mechanisms import ops
from mechanisms.core import Constructor, Fold
from mechanisms.domains import SizedDomain
from mechanisms.make_sized_bounded_float_checked_sum import (FLOAT_MAX, LOG2_UP, POW2_UP,
                                                             PairwiseSum, magnitude,
                                                             make_sized_bounded_float_checked_sum)
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.lemmas import sized_path_steps
from obligations.reports import constructor_report, output_report
from obligations.symbols import natural

STANDARD_MODEL = "standard rounding model of IEEE-754 addition, no overflow"
HIGHAM = ("Higham 2002, Accuracy and Stability of Numerical Algorithms, §2.2 (standard model) "
          "and §4.2 (summation error)",)
UNIT_ROUNDOFF = Fraction(1, 2 ** 53)
SUMMATION_ORDERS = ("sequential", "pairwise")
FL = z3.Function("fl", z3.RealSort(), z3.RealSort())
"""Round to nearest float64, as an uninterpreted function with the facts stated per goal."""
LOG2 = z3.Function("log2", z3.RealSort(), z3.RealSort())
"""The exact base-2 logarithm, uninterpreted, with the facts stated per goal."""


def growth(k: Any) -> Any:
    """``g(k) = k u / (1 - k u / 2)``: the relative error bound after ``k`` nested additions."""
    return k * UNIT_ROUNDOFF / (1 - k * UNIT_ROUNDOFF / 2)


def row_allowed(t: Any, x: Any) -> Any:
    return is_true(t.input_domain.inner.element.contains(x))


def _symbolic(constructor: Constructor, summation: str) -> tuple[Any, dict[str, Any], list[Any]]:
    """The build on a symbolic size (an integer-valued real, so maps divide exactly) and bounds."""
    size, size_natural = natural("size")
    params = {"size": size, "lower": z3.Real("lower"), "upper": z3.Real("upper")}
    built = constructor.build(**params, summation=summation)
    return built, params, [*size_natural, *constructor.assumptions(**params, summation=summation)]


def _combine(function: Any) -> Any:
    """The addition the function performs: the Fold's step or the pairwise combine."""
    return function.step if isinstance(function, Fold) else function.combine


def _is_sum(constructor: Constructor, summation: str) -> ComputedGoal:
    def decide() -> Decision:
        t = constructor.build(size=1, lower=0.0, upper=1.0, summation=summation)
        f = t.function
        folds = isinstance(f, Fold) and f.init == 0.0 and f.finalize(Fraction(7)) == 7
        if not (folds or isinstance(f, PairwiseSum)) or not isinstance(t.input_domain, SizedDomain):
            return Decision(False, {"function": repr(f)}, "function is neither a left fold from "
                            "0.0 nor a pairwise sum on a sized domain; the inductive error bound "
                            "does not apply", unsupported=True)
        return Decision(True, detail=f"{type(f).__name__} over a SizedDomain")
    return ComputedGoal(f"function ({summation}) is a left fold from 0.0 or a pairwise sum, "
                        "whose only arithmetic is its addition", "structure", decide)


def _arguments(counterexample: dict[str, Any], summation: str) -> dict[str, Any]:
    return {"size": int(counterexample.get("size", 3)), "lower": float(counterexample.get("lower", 0)),
            "upper": float(counterexample.get("upper", 1)), "summation": summation}


def _replay_overflow(constructor: Constructor, summation: str):
    """Rows at the input domain's extremes, ``[hi, hi, lo, lo]``, under bounds ``+-2^1021`` with
    4 rows (``4 * 2^1021`` is finite): a wider domain than ``[L, U]`` overflows to NaN here."""
    def replay(_: dict[str, Any]) -> Replay:
        arguments = {"size": 4, "lower": -2.0 ** 1021, "upper": 2.0 ** 1021, "summation": summation}
        t = constructor(**arguments)
        low, high = t.input_domain.inner.element.bounds
        data = [float(high), float(high), float(low), float(low)]
        output = t(data)
        return output_report(constructor, arguments, data, output,
                             not t.output_domain.member(output),
                             f"in {t.output_domain}: {t.output_domain.member(output)}")
    return replay


CANDIDATE_PAIRS = {
    "sequential": (3, [1.0, 0.9999999999999999, 0.9999999999999999],
                   [0.0, 0.9999999999999999, 0.9999999999999999]),
    "pairwise": (4, [0.0, 0.23723352615554094, 1.0, 1.1102230246251565e-16],
                 [1.0, 0.23723352615554094, 1.0, 1.1102230246251565e-16]),
}
"""One substitution in ``[0, 1]`` whose float sums differ by ``1 + 2^-52`` > ``U - L``."""


def _replay_rounding(constructor: Constructor, summation: str):
    """Neighbours in ``[0, 1]`` whose float sums differ by one ulp more than ``U - L``, then the
    model's own parameters with ``v = [U] + [L] * (n - 1)`` and ``w = [L] * n``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        size, v, w = CANDIDATE_PAIRS[summation]
        arguments = {"size": size, "lower": 0.0, "upper": 1.0, "summation": summation}
        t = constructor(**arguments)
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        claimed = t.map(d_in)
        return constructor_report(constructor, arguments, v, w, d_in, claimed, observed,
                                  observed > Fraction(claimed))
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
               "(i + j) P <= FLOAT_MAX: finite, so never NaN",
               z3.And(ops.absolute(rounded) <= total, total <= FLOAT_MAX),
               [*assumptions, *facts, *rounding_facts, i >= 0, j >= 0, i + j <= n,
                ops.absolute(a) <= i * power, ops.absolute(b) <= j * power],
               names, replay),
    ]


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


def _rounding_goals(constructor: Constructor, summation: str) -> list[Z3Goal]:
    """Operands ``a``, ``b`` (exact ``s``, float ``h``, ``|s| <= A``) carry errors ``<= E_a, E_b``
    with ``E = g(k) A``; one rounded addition ``add(h_a, h_b)(1 + delta)`` leaves at most
    ``g(k + 1)(A_a + A_b)`` (a row is exact: error 0, ``A = |x|``). Split in four small steps."""
    t, params, assumptions = _symbolic(constructor, summation)
    add = _combine(t.function)
    sa, sb, ha, hb, big_a, big_b, ea, eb, delta, k, r, bound, g = z3.Reals(
        "s_a s_b h_a h_b A_a A_b E_a E_b delta k r R G")
    u = UNIT_ROUNDOFF
    total, exact = big_a + big_b, add(sa, sb)
    names = {"s_a": sa, "s_b": sb, "h_a": ha, "h_b": hb, "A_a": big_a, "A_b": big_b,
             "E_a": ea, "E_b": eb, "delta": delta, "k": k, "r": r, "R": bound, "G": g}
    return [
        Z3Goal("the unrounded sum of the float operands is within E_a + E_b of the exact sum, "
               "and within A_a + A_b + E_a + E_b of 0",
               z3.And(ops.absolute(add(ha, hb) - exact) <= ea + eb,
                      ops.absolute(add(ha, hb)) <= total + ea + eb),
               [ops.absolute(sa) <= big_a, ops.absolute(sb) <= big_b,
                ops.absolute(ha - sa) <= ea, ops.absolute(hb - sb) <= eb], names),
        Z3Goal("the rounding term: |r delta| <= u R when |r| <= R and |delta| <= u",
               ops.absolute(r * delta) <= u * bound,
               [ops.absolute(delta) <= u, ops.absolute(r) <= bound], names),
        Z3Goal("so with E_a + E_b = G (A_a + A_b): |add(h_a, h_b)(1 + delta) - exact| <= "
               "(G (1 + u) + u)(A_a + A_b)",
               ops.absolute(add(ha, hb) * (1 + delta) - exact) <= (g * (1 + u) + u) * total,
               [g >= 0, ops.absolute(add(ha, hb) - exact) <= g * total,
                ops.absolute(add(ha, hb) * delta) <= u * (1 + g) * total], names),
        Z3Goal("g(k)(1 + u) + u <= g(k + 1), g(k) = k u / (1 - k u / 2), for (k + 1) u <= 1",
               growth(k) * (1 + u) + u <= growth(k + 1), [k >= 0, (k + 1) * u <= 1], names),
    ]


def _depth_goals(constructor: Constructor) -> list[Any]:
    """Pairwise: the depth ``D(n) = 1 + max(D(m), D(n - m))`` (``m = split(n)``, ``D(1) = 0``) is
    at most ``2 log2 n``, by induction on ``n``."""
    t, params, _ = _symbolic(constructor, "pairwise")
    split = t.function.split
    n = z3.Int("n")
    m = split(n)
    c, dm, dc, dn = z3.Reals("c D_m D_c D_n")
    log_facts = [LOG2(1) == 0, LOG2(2) == 1,
                 z3.Implies(m <= n - m, LOG2(z3.ToReal(m)) <= LOG2(z3.ToReal(n - m))),
                 z3.Implies(2 * (n - m) * (n - m) <= n * n,
                            LOG2(z3.ToReal(n - m)) + Fraction(1, 2) <= LOG2(z3.ToReal(n)))]
    return [
        Z3Goal("the split of n >= 2 rows gives halves 1 <= m <= n - m, and 2 (n - m)^2 <= n^2 "
               "for n >= 3",
               z3.And(1 <= m, m <= n - m, z3.Implies(n >= 3, 2 * (n - m) * (n - m) <= n * n)),
               [n >= 2], {"n": n}),
        Z3Goal("induction: D(m) <= 2 log2 m and D(n - m) <= 2 log2(n - m) give "
               "D(n) = 1 + max(D(m), D(n - m)) <= 2 log2 n",
               dn <= 2 * LOG2(z3.ToReal(n)),
               [n >= 2, 1 <= m, m <= n - m, z3.Implies(n >= 3, 2 * (n - m) * (n - m) <= n * n),
                *log_facts, dm >= 0, dc >= 0,
                z3.Implies(m == 1, dm == 0), dm <= 2 * LOG2(z3.ToReal(m)),
                z3.Implies(n - m == 1, dc == 0), dc <= 2 * LOG2(z3.ToReal(n - m)),
                dn == 1 + ops.maximum(dm, dc)],
               {"n": n, "D_m": dm, "D_c": dc, "D_n": dn}),
    ]


def _map_goal(constructor: Constructor, summation: str) -> Z3Goal:
    """``|fl(v) - fl(w)| <= |fl(v) - s_v| + |s_v - s_w| + |s_w - fl(w)|`` and each term bounded."""
    t, params, assumptions = _symbolic(constructor, summation)
    n, lower, upper = params["size"], params["lower"], params["upper"]
    d_in, d_in_natural = natural("d_in")
    d, d_natural = natural("d")
    sv, sw, hv, hw, av, aw, depth = z3.Reals("s_v s_w h_v h_w A_v A_w depth")
    total = n * magnitude(lower, upper)
    if summation == "sequential":
        depth_facts = [depth == n]  # n additions from 0.0
    else:
        depth_facts = [depth >= 0, depth <= 2 * LOG2(n), LOG2(n) <= LOG2_UP(n), LOG2_UP(n) <= 54]
    return Z3Goal(
        f"map(d_in) bounds the exact change (d/2)(U - L) plus both rounding errors g(D) n M "
        f"({summation}: D = {'n' if summation == 'sequential' else 'pairwise depth <= 2 log2 n'})",
        ops.absolute(hv - hw) <= t.map(d_in),
        [*assumptions, *d_in_natural, *d_natural, d <= d_in, d <= 2 * n, z3.IsInt(d / 2),
         *depth_facts, 0 <= av, av <= total, 0 <= aw, aw <= total,
         ops.absolute(sv - sw) <= (upper - lower) * sized_path_steps(d),
         ops.absolute(hv - sv) <= growth(depth) * av, ops.absolute(hw - sw) <= growth(depth) * aw],
        {**params, "d_in": d_in, "d": d, "h_v": hv, "h_w": hw, "s_v": sv, "s_w": sw},
        _replay_rounding(constructor, summation))


def sized_float_sum_obligations(constructor: Constructor = make_sized_bounded_float_checked_sum,
                                prefix: str = "sized_bounded_float_checked_sum"
                                ) -> tuple[Obligation, ...]:

    def output_domain_goals() -> list[Any]:
        return [g for s in SUMMATION_ORDERS for g in _output_domain_goals(constructor, s)]

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(
            constructor, lambda: [_symbolic(constructor, s)[0] for s in SUMMATION_ORDERS],
            {"size": 3, "lower": 0.0, "upper": 1.0, "summation": "pairwise"})]

    def stability_goals() -> list[Any]:
        goals: list[Any] = [metric_premise(
            lambda: constructor.build(size=1, lower=0.0, upper=1.0), SymmetricDistance,
            AbsoluteDistance, "the proof by lemma.sized_path")]
        for summation in SUMMATION_ORDERS:
            function = _symbolic(constructor, summation)[0].function
            goals.append(_is_sum(constructor, summation))
            if not isinstance(function, (Fold, PairwiseSum)):
                continue
            goals += [*_exact_sum_goals(constructor, summation),
                      *_rounding_goals(constructor, summation)]
            if isinstance(function, PairwiseSum):
                goals += _depth_goals(constructor)
            goals.append(_map_goal(constructor, summation))
        return goals

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector of n values in [lower, upper], function(v) is a float, not "
                   "NaN: every partial sum of k rows stays within k P <= n P <= FLOAT_MAX, "
                   "P = pow2_up(max(|L|, |U|)), which the overflow check guarantees.",
                   r"v \in [\mathtt{L}, \mathtt{U}]^n \implies |\mathtt{function}(v)| \le "
                   r"n P \le \mathtt{FLOAT\_MAX}",
                   output_domain_goals, arithmetic=STANDARD_MODEL),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "Symmetric distance is defined on the sized vector domain, absolute distance "
                   "on the non-NaN float atoms.",
                   r"d_{Sym} \sim \mathrm{SizedDomain},\ d_{Abs} \sim \mathrm{AtomDomain}",
                   compatibility_goals),
        Obligation(f"{prefix}.stability", Kind.STABILITY,
                   "If d_sym(v, w) <= d_in for v, w of size n then |fl_sum(v) - fl_sum(w)| <= "
                   "map(d_in): the exact sums differ by at most (d_in/2)(U - L) "
                   "(lemma.sized_path), and each float sum is within g(D) n M of its exact sum "
                   "(D = n sequential, D <= 2 log2 n pairwise), which OpenDP's error term bounds.",
                   r"d_{Sym}(v, w) \le d_{in} \implies |\hat{S}(v) - \hat{S}(w)| \le "
                   r"\lfloor d_{in}/2 \rfloor (\mathtt{U} - \mathtt{L}) + 2\,\mathrm{error}(n)",
                   stability_goals, uses=("lemma.sized_path",), arithmetic=STANDARD_MODEL,
                   cites=HIGHAM),
    )


IMPORT = ("from mechanisms.make_sized_bounded_float_checked_sum import "
          "make_sized_bounded_float_checked_sum")


def catalogue_entry() -> Entry:
    return Entry("make_sized_bounded_float_checked_sum", make_sized_bounded_float_checked_sum,
                 sized_float_sum_obligations(),
                 "float sum of n values in [lower, upper], map with rounding error",
                 (example("make_sized_bounded_float_checked_sum(3, 0.0, 1.0, 'sequential')", IMPORT),
                  example("make_sized_bounded_float_checked_sum(4, -1.0, 1.0)", IMPORT)),
                 proof=True)
