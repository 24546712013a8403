"""Obligations of ``make_sized_bounded_int_sum``, for all integers ``lower <= upper`` and
``size >= 0``, and every ``d_in``.

Exact: Python ints and Z3 Ints are both the unbounded integers. The checked forms run the
constructor's own ``build`` on Z3 Int arguments with Python's arithmetic (``/`` true division,
``//`` the floor; ``sized_bounded_int_sum.map_rounding`` proves a map that leaves ``int`` is
never below its exact value); the stability proof uses ``lemma.sized_path``
(two vectors of one size at symmetric distance ``d`` are ``d / 2`` substitutions apart), as
``make_bounded_mean`` does.

The shape, type and range helpers below take any int sum (sized or not); the unsized
``make_bounded_int_sum`` itself rests on the kernel's fold rule alone.
"""

from __future__ import annotations

from typing import Any, Callable

import z3

from mechanisms import float_model, ops
from mechanisms.core import Constructor, Fold
from mechanisms.domains import SizedDomain
from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import aggregate_compatibility, compatibility_goal, metric_premise
from obligations.lemmas import sized_path_steps
from obligations.reports import constructor_report, output_report, plain_report
from obligations.witnesses import excluded_goals, witness_goal
from obligations.int_maps import int_map_rounding, large_candidates
from obligations.symbols import natural_int
from obligations.kernel.reviewed import reviewed


DEFAULTS = {"size": 2, "lower": -1, "upper": 2}
"""Concrete arguments for structural checks and for replays where a model leaves one open."""


def symbolic(constructor: Constructor) -> tuple[Any, dict[str, Any], list[Any]]:
    """The constructor's ``build`` on Z3 Int arguments, and its preconditions on them."""
    params = {name: float_model.int_parameter(name) for name in constructor.signature.parameters}
    return constructor.build(**params), params, constructor.assumptions(**params)


def concrete(constructor: Constructor, counterexample: dict[str, Any]) -> tuple[Any, dict]:
    """The real constructor on a model's arguments (``DEFAULTS`` where the model has none)."""
    arguments = {name: int(counterexample.get(name, DEFAULTS[name]))
                 for name in constructor.signature.parameters}
    return constructor(**arguments), arguments


def row_allowed(t: Any, x: Any) -> Any:
    """``x`` may be a row of the built (sized or unsized) vector domain, by its own test."""
    vectors = t.input_domain.inner if isinstance(t.input_domain, SizedDomain) else t.input_domain
    return is_true(vectors.element.contains(x))


def fold_shape(constructor: Constructor, domain: type) -> ComputedGoal:
    """Structural premise: the function is a ``Fold`` and the input domain is a ``domain``."""
    def decide() -> Decision:
        t = concrete(constructor, {})[0]
        if not isinstance(t.function, Fold):
            return Decision(False, {"function": repr(t.function)}, "function is not a Fold over "
                            "the rows; the inductive proof does not apply", unsupported=True)
        if type(t.input_domain) is not domain:
            return Decision(False, {"input_domain": str(t.input_domain)}, f"the input domain is "
                            f"not a {domain.__name__}; the path argument does not apply",
                            unsupported=True)
        return Decision(True, detail=f"function is Fold(step, finalize) on a {domain.__name__}")
    return ComputedGoal(f"function folds one step over the rows of a {domain.__name__}",
                        "structure", decide)


def rows_with_sum(total: int, k: int, lower: int, upper: int) -> list[int]:
    """``k`` ints in ``[lower, upper]`` that sum to ``total`` (given ``kL <= total <= kU``)."""
    rows, extra = [lower] * k, total - k * lower
    for i in range(k):
        rows[i] += min(extra, upper - lower)
        extra -= rows[i] - lower
    return rows


def _replay_int_type(constructor: Constructor) -> Callable[[dict], Replay]:
    """Run the real sum on all-``lower`` and all-``upper`` vectors; any non-int output confirms."""
    def replay(_: dict) -> Replay:
        t, arguments = concrete(constructor, {})
        k = arguments.get("size", 2)
        for data in ([arguments["lower"]] * k, [arguments["upper"]] * k):
            output = t(data)
            if type(output) is not int or not t.output_domain.member(output):
                return output_report(constructor, arguments, data, output, True,
                                     f"type {type(output).__name__}, not int; "
                                     f"member of {t.output_domain}: "
                                     f"{t.output_domain.member(output)}")
        return plain_report(False, "the real sum returned ints on the all-lower and all-upper rows")
    return replay


def int_type_goal(constructor: Constructor) -> ComputedGoal:
    """The fold stays in ``int``: ``init`` is a Python int, and ``step`` on Z3 Int terms and then
    ``finalize`` give Int-sorted terms (``+``, ``-``, ``*`` of ints are ints)."""
    def decide() -> Decision:
        t = symbolic(constructor)[0]
        if not isinstance(t.function, Fold):
            return Decision(False, {"function": repr(t.function)}, "not a Fold", unsupported=True)
        fold = t.function
        total = fold.finalize(fold.step(z3.Int("total"), z3.Int("x")), **fold.params)
        sorts = {"init": type(fold.init).__name__,
                 "finalize(step(total, x))": str(total.sort()) if ops.is_z3(total)
                 else type(total).__name__}
        if type(fold.init) is int and ops.is_z3(total) and total.sort() == z3.IntSort():
            return Decision(True, detail=f"init is int, finalize(step(Int, Int)) is Int: {sorts}")
        return Decision(False, sorts, "the fold can leave int")
    return ComputedGoal("the output is an int: int init, Int-sorted step and finalize on Int "
                        "terms", "structure", decide, _replay_int_type(constructor))


def _replay_output_range(constructor: Constructor) -> Callable[[dict], Replay]:
    """``k`` rows in ``[L, U]`` that sum to the model's ``total``, run through the real code."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = concrete(constructor, counterexample)
        k = arguments.get("size", int(counterexample.get("k", 0)))
        data = rows_with_sum(int(counterexample["total"]), k, arguments["lower"],
                             arguments["upper"])
        output = t(data)
        return output_report(constructor, arguments, data, output,
                             not t.output_domain.member(output),
                             f"member of {t.output_domain}: {t.output_domain.member(output)}")
    return replay


def running_sum_goal(constructor: Constructor) -> Any:
    """The running function on witness vectors (empty, one row, several; for a sized sum,
    ``size`` rows): the symbolic goals read the fold's parts, these runs execute its body."""
    arguments = {name: DEFAULTS[name] for name in constructor.signature.parameters}
    lower, upper = arguments["lower"], arguments["upper"]
    if "size" in arguments:
        k = arguments["size"]
        inputs = [[lower] * k, [upper] * k, rows_with_sum(0, k, lower, upper)]
    else:
        inputs = [[], [upper], [lower, upper, 0, upper]]
    return witness_goal(constructor, arguments, inputs=inputs)


def excluded_arguments(constructor: Constructor) -> list[ComputedGoal]:
    """Arguments the proof (integer bounds, ``L <= U``, a sized sum's ``size >= 0``) does not
    cover are refused."""
    arguments = {name: DEFAULTS[name] for name in constructor.signature.parameters}
    cases = [({**arguments, "lower": 0, "upper": 2.5}, "a float upper bound (the bounds are ints)"),
             ({**arguments, "lower": -1.0, "upper": 2},
              "a float lower bound (the bounds are ints)"),
             ({**arguments, "lower": 3, "upper": 1}, "lower > upper")]
    if "size" in arguments:
        cases.append(({**arguments, "size": -1}, "a negative size"))
    return excluded_goals(constructor, cases, inputs=[[], [0], [0, 1], [2, -1, 5]])


def output_domain_goals(constructor: Constructor, rows: Callable[[dict], Any]) -> list[Any]:
    """The fold is int-typed, and by induction on the rows consumed, a total of ``k`` rows lies in
    ``[kL, kU]``; every such total (``k = rows(params)``) finalizes into the output domain."""
    t, params, assumptions = symbolic(constructor)
    if not isinstance(t.function, Fold):
        return [fold_shape(constructor, type(t.input_domain))]
    fold, lower, upper = t.function, params["lower"], params["upper"]
    total, k, x = z3.Int("total"), z3.Int("k"), z3.Int("x")
    in_range = lambda s, k: z3.And(k * lower <= s, s <= k * upper)  # noqa: E731
    names = {**params, "total": total, "k": k, "x": x}
    rows_k = rows({**params, "k": k})
    finalized = fold.finalize(total, **fold.params)
    return [
        running_sum_goal(constructor),
        *excluded_arguments(constructor),
        int_type_goal(constructor),
        Z3Goal("base: the initial total is the sum of no rows, 0",
               is_true(ops.eq(fold.init, 0)), assumptions, names),
        Z3Goal("step: k rows in [L, U] sum to [kL, kU], so k + 1 rows to [(k+1)L, (k+1)U]",
               in_range(fold.step(total, x), k + 1),
               [*assumptions, k >= 0, in_range(total, k), row_allowed(t, x)], names),
        Z3Goal("finalize: every total of the input domain's vectors is in the output domain",
               is_true(t.output_domain.contains(finalized)),
               [*assumptions, k >= 0, rows_k >= 0, in_range(total, rows_k)], names,
               _replay_output_range(constructor)),
    ]


def order_goal(constructor: Constructor) -> Z3Goal:
    """The fold ignores row order, so the function depends on the multiset of rows only."""
    t, params, assumptions = symbolic(constructor)
    fold = t.function
    s, a, b = z3.Ints("s a b")
    return Z3Goal("the fold ignores row order: step(step(s, a), b) = step(step(s, b), a)",
                  fold.step(fold.step(s, a), b) == fold.step(fold.step(s, b), a),
                  [*assumptions, row_allowed(t, a), row_allowed(t, b)],
                  {**params, "s": s, "a": a, "b": b})


def ordered_bounds(arguments: dict[str, Any]) -> dict[str, Any]:
    """``lower <= upper`` (swapped if need be): the precondition a replay must meet."""
    low, high = sorted((arguments["lower"], arguments["upper"]))
    return {**arguments, "lower": low, "upper": high}


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
