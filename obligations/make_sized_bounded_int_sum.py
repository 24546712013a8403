"""Obligations of ``make_sized_bounded_int_sum``, for all integers ``lower <= upper`` and
``size >= 0``, and every ``d_in``.

Exact: Python ints and Z3 Ints are both the unbounded integers. The checked forms run the
constructor's own ``build`` on Z3 Int arguments; the stability proof uses ``lemma.sized_path``
(two vectors of one size at symmetric distance ``d`` are ``d / 2`` substitutions apart), as
``make_bounded_mean`` does. Shape, type and range helpers come from the unsized sum's obligations.
"""

from __future__ import annotations

from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Constructor, Fold
from mechanisms.domains import SizedDomain
from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import Entry, Kind, Obligation, Replay, Z3Goal, example
from obligations.compatibility import aggregate_compatibility, compatibility_goal, metric_premise
from obligations.lemmas import sized_path_steps
from obligations.make_bounded_int_sum import (DEFAULTS, concrete, fold_shape, order_goal,
                                              output_domain_goals, row_allowed, symbolic)
from obligations.reports import constructor_report
from obligations.symbols import natural


def _replay_substitution(constructor: Constructor) -> Callable[[dict], Replay]:
    """``v = [a] + [lower] * (size - 1)`` and ``w`` with ``b`` in place of ``a``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = concrete(constructor, counterexample)
        filler = [arguments["lower"]] * (arguments["size"] - 1)
        v, w = [int(counterexample["a"])] + filler, [int(counterexample["b"])] + filler
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, arguments, v, w, d_in, t.map(d_in), observed,
                                  observed > t.map(d_in))
    return replay


def _replay_path(constructor: Constructor) -> Callable[[dict], Replay]:
    """``d / 2`` rows moved from ``lower`` to ``upper``: the sum changes by ``(d/2)(U - L)``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = concrete(constructor, counterexample)
        size, moved = arguments["size"], int(counterexample["d"]) // 2
        v = [arguments["lower"]] * size
        w = [arguments["upper"]] * moved + [arguments["lower"]] * (size - moved)
        d_in = int(counterexample["d_in"])
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, arguments, v, w, d_in, t.map(d_in), observed,
                                  observed > t.map(d_in))
    return replay


def sized_bounded_int_sum_obligations(constructor: Constructor = make_sized_bounded_int_sum,
                                      prefix: str = "sized_bounded_int_sum"
                                      ) -> tuple[Obligation, ...]:

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(constructor, lambda: [symbolic(constructor)[0]], dict(DEFAULTS))]

    def stability_goals() -> list[Any]:
        t, params, assumptions = symbolic(constructor)
        shape = fold_shape(constructor, SizedDomain)
        if not isinstance(t.function, Fold):
            return [shape]
        fold = t.function
        s, a, b = z3.Ints("s a b")
        d_in, d_in_natural = natural("d_in")
        d, d_natural = natural("d")
        sum_with = lambda x: fold.finalize(fold.step(s, x), **fold.params)  # noqa: E731
        halves, parity, moved = z3.Ints("q r p")
        # every natural d_in is 2q + r (r in {0, 1}) and every even d is 2p: naming the halves
        # restates the quantifier, it does not narrow it, and keeps Z3 off floor(d_in / 2)
        halving = [d_in == 2 * halves + parity, z3.Or(parity == 0, parity == 1), halves >= 0,
                   d == 2 * moved, moved >= 0]
        return [
            shape,
            metric_premise(lambda: concrete(constructor, {})[0], SymmetricDistance,
                           AbsoluteDistance, "the proof by lemma.sized_path"),
            order_goal(constructor),
            Z3Goal("premise of lemma.sized_path: one substitution a -> b moves the sum by at most "
                   "c = map(2)",
                   ops.absolute(sum_with(a) - sum_with(b)) <= t.map(2),
                   [*assumptions, params["size"] >= 1, row_allowed(t, a), row_allowed(t, b)],
                   {**params, "s": s, "a": a, "b": b}, _replay_substitution(constructor)),
            Z3Goal("map(d_in) bounds the lemma's c * steps(d) for every even d <= d_in, "
                   "d <= 2 size",
                   t.map(2) * sized_path_steps(d) <= t.map(d_in),
                   [*assumptions, *d_in_natural, *d_natural, d <= d_in, d <= 2 * params["size"],
                    *halving],
                   {**params, "d_in": d_in, "d": d}, _replay_path(constructor)),
        ]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector of size ints in [lower, upper], function(v) is an int "
                   "(Python type int; indeed in [size L, size U]).",
                   r"v \in ([\mathtt{L}, \mathtt{U}] \cap \mathbb{Z})^n \implies "
                   r"\mathtt{function}(v) \in \mathbb{Z}",
                   lambda: output_domain_goals(constructor, lambda p: p["size"])),
        aggregate_compatibility(prefix, compatibility_goals, sized=True, atoms="int"),
        Obligation(f"{prefix}.stability", Kind.STABILITY,
                   "If d_sym(v, w) <= d_in for v, w of one size then |function(v) - function(w)| "
                   "<= map(d_in) = (d_in // 2) (U - L): one substitution moves the sum by at most "
                   "U - L, and v, w are d/2 substitutions apart (lemma.sized_path).",
                   r"d_{Sym}(v, w) \le d_{in} \implies |f(v) - f(w)| \le "
                   r"\lfloor d_{in} / 2 \rfloor (\mathtt{U} - \mathtt{L})",
                   stability_goals, uses=("lemma.sized_path",)),
    )


IMPORT = "from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum"


def catalogue_entry() -> Entry:
    return Entry("make_sized_bounded_int_sum", make_sized_bounded_int_sum,
                 sized_bounded_int_sum_obligations(),
                 "sum of exactly size ints in [lower, upper]",
                 (example("make_sized_bounded_int_sum(3, -3, 5)", IMPORT),
                  example("make_sized_bounded_int_sum(4, 0, 10)", IMPORT)), proof=True)
