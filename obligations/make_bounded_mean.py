"""Obligations of ``make_bounded_mean``, for all reals ``lower <= upper`` and all ``n >= 1``.

Arithmetic is modelled as exact real arithmetic, as in the seed proof: the float sum rounds and
float addition is not associative, so every verdict here carries that assumption. The checked
forms run the constructor's ``build`` on Z3 reals: its fold (``step``, ``finalize``), its domains
and its map.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import z3

from mechanisms import ops
from mechanisms.core import Constructor, Fold
from mechanisms.domains import SizedDomain
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from mechanisms.make_bounded_mean import make_bounded_mean
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import aggregate_compatibility, compatibility_goal, metric_premise
from obligations.lemmas import sized_path_steps
from obligations.reports import constructor_report, output_report
from obligations.symbols import natural

EXACT_REALS = "exact real arithmetic, not float"


def row_allowed(t: Any, x: Any) -> Any:
    """``x`` may be a row of the built input domain (its own membership test, on Z3 terms)."""
    return is_true(t.input_domain.inner.element.contains(x))


def _symbolic(constructor: Constructor) -> tuple[Any, dict[str, Any], list[Any]]:
    params = {"lower": z3.Real("lower"), "upper": z3.Real("upper"), "n": z3.Int("n")}
    return constructor.build(**params), params, constructor.assumptions(**params)


def _concrete(constructor: Constructor, counterexample: dict[str, Any]) -> tuple[Any, dict]:
    arguments = {"lower": float(counterexample.get("lower", 0)),
                 "upper": float(counterexample.get("upper", 1)),
                 "n": int(counterexample.get("n", 1))}
    return constructor(**arguments), arguments


def _is_fold(constructor: Constructor) -> ComputedGoal:
    def decide() -> Decision:
        t = constructor.build(lower=0.0, upper=1.0, n=1)
        if not isinstance(t.function, Fold):
            return Decision(False, {"function": repr(t.function)},
                            "function is not a Fold over the rows; the inductive proof does not "
                            "apply", unsupported=True)
        if not isinstance(t.input_domain, SizedDomain):
            return Decision(False, {"input_domain": str(t.input_domain)},
                            "the input domain is not sized; lemma.sized_path does not apply",
                            unsupported=True)
        return Decision(True, detail="function is Fold(step, finalize) on a SizedDomain")
    return ComputedGoal("function folds one step over the rows of a sized vector, then finalizes",
                        "structure", decide)


def _replay_substitution(constructor: Constructor):
    """``v = [a] + [lower] * (n - 1)`` and ``w`` with ``b`` in place of ``a``: one substitution."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = _concrete(constructor, counterexample)
        filler = [arguments["lower"]] * (arguments["n"] - 1)
        v, w = [float(counterexample["a"])] + filler, [float(counterexample["b"])] + filler
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        claimed = t.map(d_in)
        return constructor_report(constructor, arguments, v, w, d_in, claimed, observed,
                                observed > Fraction(claimed))
    return replay


def _replay_mean_range(constructor: Constructor):
    """``n`` copies of ``total / n``: a vector of the input domain whose sum is ``total``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = _concrete(constructor, counterexample)
        n = arguments["n"]
        v = [float(Fraction(counterexample.get("total", 0)) / n)] * n
        output = t(v)
        in_range = arguments["lower"] <= output <= arguments["upper"]
        confirmed = not (in_range and t.output_domain.member(output))
        return output_report(constructor, arguments, v, output, confirmed,
                             f"in [lower, upper]: {in_range}; "
                             f"in {t.output_domain}: {t.output_domain.member(output)}")
    return replay


def _replay_path(constructor: Constructor):
    """``d / 2`` entries moved from ``lower`` to ``upper``: ``|mean change| = (d/2)(U - L)/n``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = _concrete(constructor, counterexample)
        n, moved = arguments["n"], int(counterexample["d"]) // 2
        v = [arguments["lower"]] * n
        w = [arguments["upper"]] * moved + [arguments["lower"]] * (n - moved)
        d_in = int(counterexample["d_in"])
        observed = t.output_metric.distance(t(v), t(w))
        claimed = t.map(d_in)
        return constructor_report(constructor, arguments, v, w, d_in, claimed, observed,
                                observed > Fraction(claimed))
    return replay


def bounded_mean_obligations(constructor: Constructor = make_bounded_mean,
                             prefix: str = "bounded_mean") -> tuple[Obligation, ...]:

    def output_domain_goals() -> list[Any]:
        t, params, assumptions = _symbolic(constructor)
        if not isinstance(t.function, Fold):
            return [_is_fold(constructor)]
        fold, lower, upper, n = t.function, params["lower"], params["upper"], params["n"]
        total, k, x = z3.Real("total"), z3.Int("k"), z3.Real("x")
        in_range = lambda s, k: z3.And(k * lower <= s, s <= k * upper)  # noqa: E731
        names = {**params, "total": total, "k": k, "x": x}
        return [
            _is_fold(constructor),
            Z3Goal("base: the initial total is the sum of no values, 0",
                   z3.RealVal(Fraction(fold.init)) == 0, assumptions, names),
            Z3Goal("step: k values in [L, U] sum to [kL, kU], so k + 1 values to [(k+1)L, (k+1)U]",
                   in_range(fold.step(total, x), k + 1),
                   [*assumptions, k >= 0, in_range(total, k), row_allowed(t, x)], names),
            Z3Goal("finalize: a total in [nL, nU] gives a mean in [L, U], inside the output domain",
                   z3.And(is_true(t.output_domain.contains(fold.finalize(total, **fold.params))),
                          lower <= fold.finalize(total, **fold.params),
                          fold.finalize(total, **fold.params) <= upper),
                   [*assumptions, in_range(total, n)], names, _replay_mean_range(constructor)),
        ]

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(constructor, lambda: [_symbolic(constructor)[0]],
                                   {"lower": 0.0, "upper": 1.0, "n": 2})]

    def stability_goals() -> list[Any]:
        t, params, assumptions = _symbolic(constructor)
        if not isinstance(t.function, Fold):
            return [_is_fold(constructor)]
        fold = t.function
        s, a, b = z3.Reals("s a b")
        d_in, d_in_natural = natural("d_in")
        d, d_natural = natural("d")
        mean_with = lambda x: fold.finalize(fold.step(s, x), **fold.params)  # noqa: E731
        return [
            _is_fold(constructor),
            metric_premise(lambda: constructor.build(lower=0.0, upper=1.0, n=1), SymmetricDistance,
                           AbsoluteDistance, "the proof by lemma.sized_path"),
            Z3Goal("premise of lemma.sized_path: the fold ignores row order, "
                   "step(step(s, a), b) = step(step(s, b), a)",
                   fold.step(fold.step(s, a), b) == fold.step(fold.step(s, b), a),
                   assumptions, {**params, "s": s, "a": a, "b": b}),
            Z3Goal("premise of lemma.sized_path: one substitution a -> b moves the mean by at "
                   "most c = map(2)",
                   ops.absolute(mean_with(a) - mean_with(b)) <= t.map(2),
                   [*assumptions, row_allowed(t, a), row_allowed(t, b)],
                   {**params, "s": s, "a": a, "b": b}, _replay_substitution(constructor)),
            Z3Goal("map(d_in) bounds the lemma's c * steps(d) for every even d <= d_in, d <= 2n",
                   t.map(2) * sized_path_steps(d) <= t.map(d_in),
                   [*assumptions, *d_in_natural, *d_natural, d <= d_in, d <= 2 * params["n"],
                    z3.IsInt(d / 2)],
                   {**params, "d_in": d_in, "d": d}, _replay_path(constructor)),
        ]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector of n values in [lower, upper], function(v) is a non-NaN "
                   "number (indeed in [lower, upper]); the overflow check keeps n * bound finite.",
                   r"v \in [\mathtt{L}, \mathtt{U}]^n \implies \mathtt{function}(v) \in "
                   r"[\mathtt{L}, \mathtt{U}]",
                   output_domain_goals, arithmetic=EXACT_REALS),
        aggregate_compatibility(prefix, compatibility_goals, sized=True, atoms="float"),
        Obligation(f"{prefix}.stability", Kind.STABILITY,
                   "If d_sym(v, w) <= d_in for v, w of size n then |function(v) - function(w)| <= "
                   "map(d_in) = d_in (U - L) / (2n): one substitution moves the mean by at most "
                   "(U - L) / n, and v, w are d/2 substitutions apart (lemma.sized_path).",
                   r"d_{Sym}(v, w) \le d_{in} \implies |f(v) - f(w)| \le "
                   r"d_{in} \cdot \frac{\mathtt{U} - \mathtt{L}}{2n}",
                   stability_goals, uses=("lemma.sized_path",), arithmetic=EXACT_REALS),
    )


IMPORT = "from mechanisms.make_bounded_mean import make_bounded_mean"


def catalogue_entry() -> Entry:
    return Entry("make_bounded_mean", make_bounded_mean, bounded_mean_obligations(),
                 "mean of n values in [lower, upper]",
                 (example("make_bounded_mean(0.0, 1.0, 3)", IMPORT),), proof=True)
