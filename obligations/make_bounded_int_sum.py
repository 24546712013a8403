"""Obligations of ``make_bounded_int_sum``, for all integers ``lower <= upper`` and every ``d_in``.

Python ints are unbounded, and Z3 Int terms are the unbounded integers, so the checked forms are
exact: no overflow, no bound on the vector length. They run the constructor's own ``build`` on
Z3 Int bounds with Python's arithmetic (:class:`mechanisms.float_model.IntTerm`: ``/`` is true
division, ``//`` the floor): its fold (``step``, ``finalize``, ``init``), its domains and its map.
A map that leaves ``int`` (true division, a float constant) rounds; ``<prefix>.map_rounding``
proves it is never below the exact value the stability proof bounds (:mod:`obligations.int_maps`).
The stability proof rests on the unsized path lemma, stated and proved here by induction
(``bounded_int_sum.unsized_path``): symmetric distance ``d`` is ``d`` insertions and deletions.

The helpers below (fold shape, int type, output range, concrete replays) are shared with
``obligations/make_sized_bounded_int_sum.py``.
"""

from __future__ import annotations

from typing import Any, Callable

import z3

from mechanisms import float_model, ops
from mechanisms.core import Constructor, Fold
from mechanisms.domains import SizedDomain, VectorDomain
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import aggregate_compatibility, compatibility_goal, metric_premise
from obligations.reports import (bound_assertion, constructor_report, output_report,
                                 plain_report, reproducer)
from obligations.witnesses import excluded_goals, witness_goal
from obligations.int_maps import int_map_rounding, large_candidates
from obligations.symbols import natural_int

DEFAULTS = {"size": 2, "lower": -1, "upper": 2}
"""Concrete arguments for structural checks and for replays where a model leaves one open."""


def unsized_path_steps(d: Any) -> Any:
    """Two vectors at symmetric distance ``d`` are ``d`` insertions and deletions apart."""
    return d


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
                                     f"member of {t.output_domain}: {t.output_domain.member(output)}")
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
        data = rows_with_sum(int(counterexample["total"]), k, arguments["lower"], arguments["upper"])
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
             ({**arguments, "lower": -1.0, "upper": 2}, "a float lower bound (the bounds are ints)"),
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


def _replay_insertion(constructor: Constructor) -> Callable[[dict], Replay]:
    """``v = []`` and ``w = [x]``: one insertion."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = concrete(constructor, counterexample)
        v, w = [], [int(counterexample["x"])]
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, arguments, v, w, d_in, t.map(d_in), observed,
                                  observed > t.map(d_in))
    return replay


def _replay_moves(constructor: Constructor) -> Callable[[dict], Replay]:
    """``v = []`` and ``w`` = ``d`` copies of the bound of largest magnitude."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = concrete(constructor, counterexample)
        far = max(arguments["lower"], arguments["upper"], key=abs)
        v, w = [], [far] * int(counterexample["d"])
        d_in = int(counterexample["d_in"])
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, arguments, v, w, d_in, t.map(d_in), observed,
                                  observed > t.map(d_in))
    return replay


def _replay_unsized_path(steps: Callable[[Any], Any]) -> Callable[[dict], Replay]:
    """``sum`` on ``[]`` and ``[1]`` (distance 1) changes by 1 = c with ``c = 1`` per move."""
    def replay(_: dict) -> Replay:
        v, w = [], [1]
        d = SymmetricDistance().distance(v, w)
        observed = abs(sum(v) - sum(w))
        return plain_report(observed > 1 * steps(d), "sum with one-move bound c = 1",
                            f"v = {v!r}, w = {w!r}, d_sym = {d}",
                            f"|f(v) - f(w)| = {observed} vs c * steps(d) = {steps(d)!r}",
                            *reproducer(f"from {steps.__module__} import {steps.__name__} as steps",
                                        "from mechanisms.metrics import SymmetricDistance",
                                        f"v, w = {v!r}, {w!r}",
                                        "observed = abs(sum(v) - sum(w))",
                                        "claimed = 1 * steps(SymmetricDistance().distance(v, w))",
                                        bound_assertion("|sum(v) - sum(w)|",
                                                        "c * steps(d_sym) with c = 1")))
    return replay


def unsized_path_lemma(prefix: str, steps: Callable[[Any], Any] = unsized_path_steps) -> Obligation:
    """Lemma: ``v, w`` at symmetric distance ``d`` are joined by ``steps(d)`` single insertions or
    deletions, so a function moved by at most ``c`` per move moves by at most ``c * steps(d)``."""

    def goals() -> list[Z3Goal]:
        p, n, d, delta, a, b = z3.Ints("P N D delta delta_a delta_b")
        fv, fu, fw, c, k = z3.Reals("f_v f_u f_w c k")
        plan = lambda p, n, d: z3.And(d == p + n, p >= 0, n >= 0)  # noqa: E731
        names = {"P": p, "N": n, "D": d}
        replay = _replay_unsized_path(steps)
        return [
            Z3Goal("invariant after adding one value z with delta = h_v(z) - h_w(z): D = P + N "
                   "(P deletions, N insertions)",
                   plan(p + ops.maximum(delta, 0), n + ops.maximum(-delta, 0),
                        d + ops.absolute(delta)),
                   [plan(p, n, d)], {**names, "delta": delta}, replay),
            Z3Goal("the plan has steps(D) moves: P + N = steps(D)",
                   p + n == steps(d), [plan(p, n, d)], names, replay),
            Z3Goal("one deletion of a surplus value (delta >= 1) or insertion of a deficit value "
                   "(delta <= -1) lowers D by exactly 1",
                   z3.And(ops.absolute(a - 1) == ops.absolute(a) - 1,
                          ops.absolute(b + 1) == ops.absolute(b) - 1),
                   [a >= 1, b <= -1], {"delta_a": a, "delta_b": b}, replay),
            Z3Goal("triangle inequality along the path: k moves then one more",
                   ops.absolute(fv - fw) <= (k + 1) * c,
                   [ops.absolute(fv - fu) <= k * c, ops.absolute(fu - fw) <= c, c >= 0, k >= 0],
                   {"c": c, "k": k}, replay),
        ]

    return Obligation(
        f"{prefix}.unsized_path", Kind.LEMMA,
        "Vectors v, w at symmetric distance d are d single insertions or deletions apart, each "
        "between vectors whose rows all come from v or w; so a function that moves by at most c "
        "under one insertion or deletion moves by at most c * d between v and w. Induction on "
        "the distinct values, as lemma.sized_path.",
        r"d_{Sym}(v, w) = d \implies |f(v) - f(w)| \le c \cdot d",
        goals)


def bounded_int_sum_obligations(constructor: Constructor = make_bounded_int_sum,
                                prefix: str = "bounded_int_sum",
                                path_steps: Callable[[Any], Any] = unsized_path_steps
                                ) -> tuple[Obligation, ...]:
    """``path_steps`` is the unsized path lemma's count of moves (a wrong one is a lemma twin)."""
    path = f"{prefix}.unsized_path"

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(constructor, lambda: [symbolic(constructor)[0]],
                                   {"lower": DEFAULTS["lower"], "upper": DEFAULTS["upper"]})]

    def stability_goals() -> list[Any]:
        t, params, assumptions = symbolic(constructor)
        shape = fold_shape(constructor, VectorDomain)
        if not isinstance(t.function, Fold):
            return [shape]
        fold = t.function
        s, x = z3.Int("s"), z3.Int("x")
        d_in, d_in_natural = natural_int("d_in")
        d, d_natural = natural_int("d")
        moved = ops.absolute(fold.finalize(fold.step(s, x), **fold.params)
                             - fold.finalize(s, **fold.params))
        return [
            shape,
            metric_premise(lambda: concrete(constructor, {})[0], SymmetricDistance,
                           AbsoluteDistance, path),
            order_goal(constructor),
            Z3Goal(f"premise of {path}: one insertion or deletion of a row x moves the sum by at "
                   "most c = map(1)",
                   moved <= t.map(1), [*assumptions, row_allowed(t, x)],
                   {**params, "s": s, "x": x}, _replay_insertion(constructor)),
            Z3Goal("map(d_in) bounds the lemma's c * steps(d) for every d <= d_in",
                   t.map(1) * path_steps(d) <= t.map(d_in),
                   [*assumptions, *d_in_natural, *d_natural, d <= d_in],
                   {**params, "d_in": d_in, "d": d}, _replay_moves(constructor)),
        ]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector of ints in [lower, upper], function(v) is an int (Python "
                   "type int; indeed in [kL, kU] for k rows).",
                   r"v \in \mathrm{Vec}([\mathtt{L}, \mathtt{U}] \cap \mathbb{Z}) \implies "
                   r"\mathtt{function}(v) \in \mathbb{Z}",
                   lambda: output_domain_goals(constructor, lambda p: p["k"])),
        aggregate_compatibility(prefix, compatibility_goals, sized=False, atoms="int"),
        Obligation(f"{prefix}.stability", Kind.STABILITY,
                   "If d_sym(v, w) <= d_in then |function(v) - function(w)| <= map(d_in) = "
                   "d_in * max(|L|, |U|): one insertion or deletion moves the sum by at most "
                   f"max(|L|, |U|), and v, w are d_sym(v, w) such moves apart ({path}).",
                   r"d_{Sym}(v, w) \le d_{in} \implies |f(v) - f(w)| \le "
                   r"d_{in} \cdot \max(|\mathtt{L}|, |\mathtt{U}|)",
                   stability_goals, uses=(path,)),
        unsized_path_lemma(prefix, path_steps),
        int_map_rounding(constructor, prefix, "d_in * max(|L|, |U|)", ("lower", "upper"), {},
                         large_candidates(("lower", "upper"), {}, ordered_bounds), unsized_pair),
    )


def ordered_bounds(arguments: dict[str, Any]) -> dict[str, Any]:
    """``lower <= upper`` (swapped if need be): the precondition a replay must meet."""
    low, high = sorted((arguments["lower"], arguments["upper"]))
    return {**arguments, "lower": low, "upper": high}


def unsized_pair(t: Any, arguments: dict[str, Any], d_in: int) -> tuple[list, list] | None:
    """``[]`` and ``d_in`` copies of the bound of largest magnitude (``d_in`` insertions)."""
    if d_in > 10 ** 5:
        return None
    return [], [max(arguments["lower"], arguments["upper"], key=abs)] * d_in


IMPORT = "from mechanisms.make_bounded_int_sum import make_bounded_int_sum"


def catalogue_entry() -> Entry:
    return Entry("make_bounded_int_sum", make_bounded_int_sum, bounded_int_sum_obligations(),
                 "sum of a vector of ints in [lower, upper], unknown size",
                 (example("make_bounded_int_sum(-3, 5)", IMPORT),
                  example("make_bounded_int_sum(0, 10)", IMPORT)), proof=True)
