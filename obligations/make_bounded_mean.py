"""Obligations of ``make_bounded_mean``, for all float bounds ``lower <= upper`` and every
``1 <= n <= 2^53`` that passes the overflow check, under IEEE-754 binary64 as the code runs it.

The checked forms run the constructor's ``build`` on Z3 terms: its fold (``step``, ``finalize``),
its domains and its map. Float addition follows the standard model (cited: Higham 2002, §2.2),
as in ``make_sized_bounded_float_checked_sum``, whose inductive error bound is reused on the
mean's own addition step (:func:`rounding_goals`). The division ``finalize`` is run under
:func:`float_model.rounding_model`, so its rounding (with underflow) comes from the code, not from
a restatement. ``map_rounding`` shows the float map is at least its exact formula, the one the
stability proof uses.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import float_model, ops
from mechanisms.core import Constructor, Fold
from mechanisms.domains import SizedDomain
from mechanisms.make_bounded_mean import make_bounded_mean
from mechanisms.float_model import POW2_UP
from mechanisms.make_sized_bounded_float_checked_sum import magnitude
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import aggregate_compatibility, compatibility_goal, metric_premise
from obligations.ieee import LARGEST_FINITE, PRECISION
from obligations.lemmas import sized_path_steps
from obligations.float_sums import (FL, HIGHAM, IEEE_ROUNDING, growth, rounding_goals,
                                    replay_float_pairs, running_map_goals, substitution_pair)
from obligations.reports import constructor_report, output_report
from obligations.rounding import (map_rounding_obligation, natural_d_in, parameter_candidates,
                                  replay_rounding)
from obligations.symbols import natural
from obligations.witnesses import excluded_goals, witness_goal
from obligations.kernel.reviewed import reviewed

ROUNDING_PAIRS = [(0.0, 1.0, [0.0, 1.0, 0.5], [0.0, 0.0, 0.5]),
                  (0.0, 1.0, [1.0, 0.9999999999999999, 0.9999999999999999],
                   [0.0, 0.9999999999999999, 0.9999999999999999])]
"""Neighbours under ``[lower, upper]`` whose float means differ by more than ``(U - L) / n``."""
SEARCHED_PAIRS = 2000
"""Seeded substitutions a replay tries after ``ROUNDING_PAIRS``."""
TWO_U = Fraction(1, 2 ** (PRECISION - 1))
"""``2u = 2^-52``, binary64's (the checker's IEEE-754 facts, :mod:`obligations.ieee`)."""


def row_allowed(t: Any, x: Any) -> Any:
    """``x`` may be a row of the built input domain (its own membership test, on Z3 terms)."""
    return is_true(t.input_domain.inner.element.contains(x))


def _symbolic(constructor: Constructor, floats: bool = False) -> tuple[Any, dict[str, Any], list]:
    """The build on bounds (float terms under the rounding model when ``floats``) and a natural
    ``n``, with the preconditions."""
    n, n_natural = natural("n")
    make = float_model.float_parameter if floats else z3.Real
    params = {"lower": make("lower"), "upper": make("upper"), "n": n}
    names = {k: float_model.plain(v) for k, v in params.items()}
    return constructor.build(**params), names, [*n_natural, *constructor.assumptions(**params)]


def _concrete(constructor: Constructor, counterexample: dict[str, Any]) -> tuple[Any, dict]:
    arguments = {"lower": float(counterexample.get("lower", 0)),
                 "upper": float(counterexample.get("upper", 1)),
                 "n": max(1, int(counterexample.get("n", 1)))}
    return constructor(**arguments), arguments


def _is_fold(constructor: Constructor) -> ComputedGoal:
    def decide() -> Decision:
        t = constructor.build(lower=0.0, upper=1.0, n=1)
        if not isinstance(t.function, Fold) or t.function.init != 0.0:
            return Decision(False, {"function": repr(t.function)},
                            "function is not a Fold from 0.0 over the rows; the inductive proof "
                            "does not apply", unsupported=True)
        if not isinstance(t.input_domain, SizedDomain):
            return Decision(False, {"input_domain": str(t.input_domain)},
                            "the input domain is not sized; lemma.sized_path does not apply",
                            unsupported=True)
        return Decision(True, detail="function is Fold(step, finalize) from 0.0 on a SizedDomain")
    return ComputedGoal("function folds one step over the rows of a sized vector from 0.0, "
                        "then finalizes", "structure", decide)


def _replay_overflow(constructor: Constructor):
    """Rows at the input domain's extremes under bounds ``+-2^1021`` with ``n = 4``."""
    def replay(_: dict[str, Any]) -> Replay:
        arguments = {"lower": -2.0 ** 1021, "upper": 2.0 ** 1021, "n": 4}
        t = constructor(**arguments)
        low, high = t.input_domain.inner.element.bounds or (-math.inf, math.inf)
        data = [float(high), float(high), float(low), float(low)]
        output = t(data)
        bad = math.isnan(output) or math.isinf(output) or not t.output_domain.member(output)
        return output_report(constructor, arguments, data, output, bad,
                             f"finite and in {t.output_domain}: {not bad}")
    return replay


def _replay_substitution(constructor: Constructor):
    """``v = [a] + [lower] * (n - 1)`` and ``w`` with ``b`` in place of ``a``: one substitution."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = _concrete(constructor, counterexample)
        filler = [arguments["lower"]] * (arguments["n"] - 1)
        v = [float(Fraction(counterexample.get("a", 0)))] + filler
        w = [float(Fraction(counterexample.get("b", 0)))] + filler
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        claimed = t.map(d_in)
        return constructor_report(constructor, arguments, v, w, d_in, claimed, observed,
                                  Fraction(observed) > Fraction(claimed))
    return replay


def _replay_rounding(constructor: Constructor):
    """Known neighbour pairs, then seeded ones (:func:`substitution_pair`):
    :func:`replay_float_pairs` on the float means."""
    def replay(_: dict[str, Any]) -> Replay:
        rng = random.Random(0)
        pairs = [*ROUNDING_PAIRS, *(substitution_pair(rng) for _ in range(SEARCHED_PAIRS))]
        return replay_float_pairs(constructor, pairs, lambda lower, upper, v: {
            "lower": lower, "upper": upper, "n": len(v)})
    return replay


def _running_means(constructor: Constructor) -> list[Any]:
    """The running function on ``n = 1 .. 6`` rows under ``[-1.5, 2.0]``, at the bounds and
    inside: the symbolic goals read its step and finalize, these runs execute the fold itself
    (with the parameters it passes to finalize)."""
    return [witness_goal(constructor, {"lower": -1.5, "upper": 2.0, "n": n},
                         inputs=[[-1.5, 2.0, 0.25, 2.0, -1.5, 0.5][:n], [2.0] * n, [-1.5] * n])
            for n in range(1, 7)] + excluded_goals(constructor, [
                ({"lower": -1, "upper": 2.0, "n": 3}, "an int lower bound (the bounds are floats)"),
                ({"lower": -1.5, "upper": 2, "n": 3}, "an int upper bound (the bounds are floats)")],
                inputs=[[-1.5, 2.0, 0.25], [2.0] * 3])


def _on_terms(build_goals: Callable[[], list[Any]]) -> list[Any]:
    """``build_goals()``, which runs the constructor's code (build, step, finalize, map) on solver
    terms; if that code raises, one goal that is *unknown (unsupported)*: the symbolic proof has
    no model of code that does not run on terms (what it does on numbers, the running-function
    goals test)."""
    try:
        return build_goals()
    except Exception as error:  # noqa: BLE001 - any raise of the code under proof
        raised = f"{type(error).__name__}: {error}"

        def decide() -> Decision:
            return Decision(False, {"raised": raised}, "the code raised on solver terms "
                            f"({raised}); the symbolic proof does not apply", unsupported=True)
        return [ComputedGoal("the constructor's code runs on solver terms", "structure", decide)]


def _output_domain_goals(constructor: Constructor) -> list[Any]:
    t, params, assumptions = _symbolic(constructor)
    if not isinstance(t.function, Fold):
        return [_is_fold(constructor)]
    fold, n = t.function, params["n"]
    power = POW2_UP(magnitude(params["lower"], params["upper"]))
    x, a, b, h = z3.Reals("x a b h")
    i, j = z3.Ints("i j")
    total = (i + j) * power
    facts = [power >= magnitude(params["lower"], params["upper"]), power > 0]
    rounded = FL(fold.step(a, b))
    rounding_facts = [rounded <= FL(total), FL(-total) <= rounded,  # fl is monotone
                      FL(total) == total, FL(-total) == -total]  # and fixes (i + j) 2^e
    with float_model.rounding_model() as model:
        mean = float_model.plain(fold.finalize(float_model.as_float(h), **fold.params))
        division_facts = list(model.facts)
    names = {**params, "x": x, "a": a, "b": b, "i": i, "j": j, "h": h}
    replay = _replay_overflow(constructor)
    return [
        _is_fold(constructor),
        Z3Goal("a row is within P = pow2_up(max(|L|, |U|)) of 0", ops.absolute(x) <= power,
               [*assumptions, *facts, row_allowed(t, x)], names, replay),
        Z3Goal("one addition of partial sums within i P and j P, i + j <= n, lands within "
               "(i + j) P <= FLOAT_MAX: finite, so never NaN",
               z3.And(ops.absolute(rounded) <= total, total <= LARGEST_FINITE),
               [*assumptions, *facts, *rounding_facts, i >= 0, j >= 0, i + j <= n,
                ops.absolute(a) <= i * power, ops.absolute(b) <= j * power], names, replay),
        Z3Goal("finalize, run in binary64 on a sum |h| <= n P <= FLOAT_MAX, returns a float "
               "within FLOAT_MAX (P is a power of two, so P <= 2^1023): finite, never NaN",
               z3.And(ops.absolute(mean) <= LARGEST_FINITE, is_true(t.output_domain.contains(mean))),
               [*assumptions, *facts, *division_facts, ops.absolute(h) <= n * power,
                power <= 2 ** 1023], names, replay),
    ]


def _stability_goals(constructor: Constructor) -> list[Any]:
    t, params, assumptions = _symbolic(constructor)
    if not isinstance(t.function, Fold):
        return [_is_fold(constructor)]
    fold, lower, upper, n = t.function, params["lower"], params["upper"], params["n"]
    bound = magnitude(lower, upper)
    s, a, b, h, g, big_a, hv, hw, sv, sw, e, c = z3.Reals("s a b h G A h_v h_w s_v s_w E C")
    yv, yw = z3.Reals("y_v y_w")
    d_in, d_in_natural = natural("d_in")
    d, d_natural = natural("d")
    error = n * n * TWO_U * bound
    u = float_model.UNIT_ROUNDOFF
    with float_model.rounding_model() as model:
        mean = float_model.plain(fold.finalize(float_model.as_float(h), **fold.params))
        division_facts = list(model.facts)
    with float_model.exact_model():
        exact_map = t.map(d_in)
    names = {**params, "d_in": d_in, "h_v": hv, "h_w": hw, "s_v": sv, "s_w": sw, "E": e}
    replay = _replay_rounding(constructor)
    near = lambda y, h: (ops.absolute(y - h / n)  # noqa: E731
                         <= u * (n * bound + e) / n + float_model.UNDERFLOW)
    return [
        _is_fold(constructor),
        metric_premise(lambda: constructor.build(lower=0.0, upper=1.0, n=1), SymmetricDistance,
                       AbsoluteDistance, "the proof by lemma.sized_path"),
        Z3Goal("the addition is one exact + on reals (the exact sum ignores order, the premise "
               "of lemma.sized_path)",
               z3.And(fold.step(s, a) == s + a,
                      fold.step(fold.step(s, a), b) == fold.step(fold.step(s, b), a)),
               assumptions, {**params, "s": s, "a": a, "b": b}),
        Z3Goal("exact reals: one substitution a -> b of a row moves the sum by at most U - L",
               ops.absolute(fold.step(s, a) - fold.step(s, b)) <= upper - lower,
               [*assumptions, row_allowed(t, a), row_allowed(t, b)],
               {**params, "s": s, "a": a, "b": b}, _replay_substitution(constructor)),
        *rounding_goals(fold.step),
        Z3Goal("n additions from 0.0: the growth factor g(n) is at most n 2^-52 for n <= 2^53",
               growth(n) <= n * TWO_U, assumptions, params),
        Z3Goal("a row lies within M of 0, so a float sum within g(n) A of its exact sum, "
               "A <= n M, g(n) <= n 2^-52, is within e(n) = n^2 2^-52 M",
               ops.absolute(h - s) <= error,
               [*assumptions, 0 <= g, g <= n * TWO_U, 0 <= big_a, big_a <= n * bound,
                ops.absolute(h - s) <= g * big_a],
               {**params, "h": h, "s": s, "G": g, "A": big_a}),
        Z3Goal("the division finalize(h), run in binary64, is within u |h| / n + 2^-1075 of "
               "h / n; for |h| <= n M + E that is u (n M + E) / n + 2^-1075",
               near(mean, h),
               [*assumptions, *division_facts, e >= 0, ops.absolute(h) <= n * bound + e],
               {**params, "h": h, "E": e}, replay),
        Z3Goal("an even d <= d_in: the exact sums are d/2 substitutions apart "
               "(lemma.sized_path), so they differ by at most C = (d_in / 2)(U - L)",
               sized_path_steps(d) * (upper - lower) <= d_in * (upper - lower) / 2,
               [*assumptions, *d_in_natural, *d_natural, d <= d_in], {**names, "d": d}),
        Z3Goal("triangle inequality: exact sums within C, each float sum within E <= e(n) of "
               "its exact sum (|s| <= n M), each mean within the division's error of h / n, "
               "give |y_v - y_w| <= the exact map(d_in)",
               ops.absolute(yv - yw) <= exact_map,
               [*assumptions, *d_in_natural, 0 <= e, e <= error,
                ops.absolute(sv - sw) <= c, c == d_in * (upper - lower) / 2,
                ops.absolute(hv - sv) <= e, ops.absolute(hw - sw) <= e,
                ops.absolute(sv) <= n * bound, ops.absolute(sw) <= n * bound,
                near(yv, hv), near(yw, hw)],
               {**names, "C": c, "y_v": yv, "y_w": yw}, replay),
    ]


@reviewed
def bounded_mean_obligations(constructor: Constructor = make_bounded_mean,
                             prefix: str = "bounded_mean") -> tuple[Obligation, ...]:

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(constructor, lambda: [_symbolic(constructor)[0]],
                                   {"lower": 0.0, "upper": 1.0, "n": 2})]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector of n values in [lower, upper], function(v) is a finite "
                   "float, never NaN: every partial sum of k rows stays within k P <= n P <= "
                   "FLOAT_MAX (the overflow check), and dividing it by n stays finite.",
                   r"v \in [\mathtt{L}, \mathtt{U}]^n \implies |\mathtt{function}(v)| \le "
                   r"\mathtt{FLOAT\_MAX}",
                   lambda: [*_running_means(constructor),
                            *_on_terms(lambda: _output_domain_goals(constructor))],
                   cites=IEEE_ROUNDING),
        aggregate_compatibility(prefix, compatibility_goals, sized=True, atoms="float"),
        Obligation(f"{prefix}.stability", Kind.STABILITY,
                   "If d_sym(v, w) <= d_in for v, w of size n then |function(v) - function(w)| "
                   "<= map(d_in): the exact sums differ by at most (d_in/2)(U - L) "
                   "(lemma.sized_path), each float sum is within e(n) = n^2 2^-52 M of its exact "
                   "sum, and each division by n adds at most u (n M + e(n)) / n + 2^-1075.",
                   r"d_{Sym}(v, w) \le d_{in} \implies |f(v) - f(w)| \le "
                   r"\frac{d_{in} (\mathtt{U} - \mathtt{L})}{2n} + \frac{2 e(n)}{n} + "
                   r"2u\left(M + \frac{e(n)}{n}\right) + 2^{-1074}",
                   lambda: _on_terms(lambda: _stability_goals(constructor)),
                   uses=("lemma.sized_path", f"{prefix}.map_rounding"), cites=HIGHAM),
        _with_running_map(constructor, map_rounding_obligation(
            prefix, lambda: _symbolic(constructor, floats=True), natural_d_in,
            replay_rounding(constructor, parameter_candidates(("lower", "upper"), ("n",))),
            "d_in (U - L) / (2n) + relaxation")),
    )


def _with_running_map(constructor: Constructor, obligation: Obligation) -> Obligation:
    """``obligation`` (the symbolic map_rounding) and the map that runs on numbers evaluated
    against the proved code (:func:`running_map_goals`)."""
    return replace(obligation, goals=lambda: [
        *obligation.goals(),
        *running_map_goals(constructor, "n", {}, _replay_rounding(constructor))])


IMPORT = "from mechanisms.make_bounded_mean import make_bounded_mean"


def catalogue_entry() -> Entry:
    return Entry("make_bounded_mean", make_bounded_mean, bounded_mean_obligations(),
                 "mean of n values in [lower, upper], map with rounding error",
                 (example("make_bounded_mean(0.0, 1.0, 3)", IMPORT),), proof=True)
