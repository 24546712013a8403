"""Obligations of ``make_sized_bounded_int_sum``, for all integers ``lower <= upper`` and
``size >= 0``, and every ``d_in``.

Exact: Python ints and Z3 Ints are both the unbounded integers. The checked forms run the
constructor's own ``build`` on Z3 Int arguments with Python's arithmetic (``/`` true division,
``//`` the floor; ``sized_bounded_int_sum.map_rounding`` proves a map that leaves ``int`` is
never below its exact value); the stability proof uses ``lemma.sized_path``
(two vectors of one size at symmetric distance ``d`` are ``d / 2`` substitutions apart), as
``make_bounded_mean`` does. Shape, type and range helpers come from the unsized sum's obligations.
"""

from __future__ import annotations

from typing import Any, Callable

import z3

from mechanisms import float_model, ops
from mechanisms.core import Constructor, Fold
from mechanisms.domains import SizedDomain
from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import Entry, Kind, Obligation, Replay, Z3Goal, example
from obligations.compatibility import aggregate_compatibility, compatibility_goal, metric_premise
from obligations.lemmas import sized_path_steps
from obligations.make_bounded_int_sum import (DEFAULTS, concrete, fold_shape, order_goal,
                                              ordered_bounds, output_domain_goals, row_allowed,
                                              symbolic)
from obligations.reports import constructor_report
from obligations.int_maps import int_map_rounding, large_candidates
from obligations.symbols import natural_int
from obligations.kernel.reviewed import reviewed


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


@reviewed
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
        d_in, d_in_natural = natural_int("d_in")
        d, d_natural = natural_int("d")
        sum_with = lambda x: fold.finalize(fold.step(s, x), **fold.params)  # noqa: E731
        moved = float_model.int_parameter("p")
        # every even d is 2p (lemma.sized_path): the lemma's steps(d) = p, and the map is
        # compared with c p, an integer product; 2p <= d_in is stated as p <= d_in // 2 (the
        # same integers p), so Z3 stays in integer arithmetic and meets the map's own // 2
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
            Z3Goal("lemma.sized_path: an even d = 2p takes steps(d) = p substitutions",
                   sized_path_steps(d) == moved, [*d_natural, moved >= 0, d == 2 * moved],
                   {"d": d, "p": moved}),
            Z3Goal("map(d_in) bounds the lemma's c * p for every even d = 2p <= d_in with "
                   "d <= 2 size (two vectors of size rows are at most 2 size apart)",
                   t.map(2) * moved <= t.map(d_in),
                   [*assumptions, *d_in_natural, moved >= 0, moved <= d_in // 2,
                    moved <= params["size"]],
                   {**params, "d_in": d_in, "p": moved, "d": 2 * moved},
                   _replay_path(constructor)),
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
        int_map_rounding(constructor, prefix, "(d_in // 2) (U - L)", ("size", "lower", "upper"),
                         {}, large_candidates(("size", "lower", "upper"), {}, _small_size),
                         sized_pair),
    )


def _small_size(arguments: dict[str, Any]) -> dict[str, Any]:
    """Ordered bounds and a size a replay can build vectors of (1 to 8)."""
    return {**ordered_bounds(arguments), "size": abs(arguments["size"]) % 8 + 1}


def sized_pair(t: Any, arguments: dict[str, Any], d_in: int) -> tuple[list, list] | None:
    """All-``lower`` rows, and the same with ``min(d_in // 2, size)`` rows moved to ``upper``:
    symmetric distance ``2 min(d_in // 2, size) <= d_in``, the sum moved by that many ``U - L``."""
    size, lower, upper = arguments["size"], arguments["lower"], arguments["upper"]
    moved = min(d_in // 2, size)
    return [lower] * size, [upper] * moved + [lower] * (size - moved)


IMPORT = "from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum"


def catalogue_entry() -> Entry:
    return Entry("make_sized_bounded_int_sum", make_sized_bounded_int_sum,
                 sized_bounded_int_sum_obligations(),
                 "sum of exactly size ints in [lower, upper]",
                 (example("make_sized_bounded_int_sum(3, -3, 5)", IMPORT),
                  example("make_sized_bounded_int_sum(4, 0, 10)", IMPORT)), proof=True)
