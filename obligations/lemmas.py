"""Lemmas about symmetric distance that the seed proofs cite, proved once, by induction.

Multisets are histograms: for the distinct values ``z_1, ..., z_m`` of ``v`` and ``w`` let
``delta_j = h_v(z_j) - h_w(z_j)``, so ``d_sym(v, w) = sum_j |delta_j|``. Each lemma is proved by
induction on ``m``: Z3 discharges the base case and the step that adds one value, for any
``m``, so the proofs are not bounded.
"""

from __future__ import annotations

from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.metrics import SymmetricDistance
from obligations.base import Kind, Obligation, Replay, Z3Goal
from obligations.reports import bound_assertion, plain_report, reproducer


def row_transform_bound(d_in: Any) -> Any:
    """A row transform is 1-stable: ``d_sym(f(v), f(w)) <= d_sym(v, w)``."""
    return d_in


def sized_path_steps(d: Any) -> Any:
    """Two vectors of one size at symmetric distance ``d`` are ``d / 2`` substitutions apart."""
    return d / 2


def _replay_row_transform(bound: Callable[[Any], Any]) -> Callable[[dict], Replay]:
    """The identity row map on ``v = []``, ``w = [0] * k`` has output distance exactly ``k``."""
    def replay(_: dict) -> Replay:
        metric = SymmetricDistance()
        for k in range(1, 5):
            v, w = [], [0] * k
            observed = metric.distance(v, w)
            if observed > bound(metric.distance(v, w)):
                return plain_report(True, "row transform x -> x exceeds the lemma's bound",
                                    f"v = {v!r}, w = {w!r}, d_sym(v, w) = {k}",
                                    f"d_sym(f(v), f(w)) = {observed} > bound {bound(k)!r}")
        return plain_report(False, "no small identity-map instance exceeds the bound")
    return replay


def row_transform_lemma(bound: Callable[[Any], Any] = row_transform_bound) -> Obligation:
    """Lemma (row transform): ``d_sym(map(g, v), map(g, w)) <= bound(d_sym(v, w))`` for every
    function ``g`` applied to each row."""

    def goals() -> list[Z3Goal]:
        out, into, bucket, delta = z3.Ints("OUT IN B delta")
        grown_out = out - ops.absolute(bucket) + ops.absolute(bucket + delta)
        grown_in = into + ops.absolute(delta)
        names = {"OUT": out, "IN": into, "B": bucket, "delta": delta}
        replay = _replay_row_transform(bound)
        return [
            Z3Goal("base: no values, both distances 0", bound(z3.IntVal(0)) >= 0,
                   replay=replay),
            Z3Goal("step: a value z with count difference delta joins the bucket B of g(z)",
                   grown_out <= bound(grown_in),
                   [out >= 0, into >= 0, out <= bound(into)], names, replay),
        ]

    return Obligation(
        id="lemma.row_transform", kind=Kind.LEMMA,
        statement="A function applied row by row is 1-stable under symmetric distance: "
                  "d_sym(map(g, v), map(g, w)) <= d_sym(v, w) for every g, v, w. Induction on the "
                  "distinct values: a value with count difference delta moves the bucket of g(z) "
                  "by delta, so the output distance grows by at most |delta| (triangle "
                  "inequality) while the input distance grows by exactly |delta|.",
        latex=r"d_{Sym}(\mathrm{map}(g, v), \mathrm{map}(g, w)) \le d_{Sym}(v, w)",
        goals=goals)


def _replay_sized_path(steps: Callable[[Any], Any]) -> Callable[[dict], Replay]:
    """``sum`` on ``[0.0]`` and ``[1.0]`` changes by 1 = c with ``c = 1`` for one substitution."""
    def replay(_: dict) -> Replay:
        v, w = [0.0], [1.0]
        d = SymmetricDistance().distance(v, w)
        observed = abs(sum(v) - sum(w))
        confirmed = observed > 1 * steps(d)
        return plain_report(confirmed, "sum over [0, 1] with adjacent bound c = 1",
                            f"v = {v!r}, w = {w!r}, d_sym = {d}",
                            f"|f(v) - f(w)| = {observed} vs c * steps(d) = {steps(d)!r}")
    return replay


def sized_path_lemma(steps: Callable[[Any], Any] = sized_path_steps) -> Obligation:
    """Lemma (path property on sized domains): vectors of one size at symmetric distance ``d``
    are joined by ``steps(d)`` substitutions; so ``|f(x) - f(y)| <= c`` for every substitution
    gives ``|f(v) - f(w)| <= c * steps(d)``."""

    def goals() -> list[Z3Goal]:
        s, p, n, d, delta = z3.Ints("S P N D delta")
        invariant = lambda s, p, n, d: z3.And(s == p - n, d == p + n, p >= 0, n >= 0)  # noqa: E731
        step = invariant(s + delta, p + ops.maximum(delta, 0), n + ops.maximum(-delta, 0),
                         d + ops.absolute(delta))
        a, b = z3.Ints("delta_a delta_b")
        fv, fu, fw, c, k = z3.Reals("f_v f_u f_w c k")
        names = {"S": s, "P": p, "N": n, "D": d}
        replay = _replay_sized_path(steps)
        return [
            Z3Goal("invariant after adding one value: S = P - N, D = P + N",
                   step, [invariant(s, p, n, d)], {**names, "delta": delta}, replay),
            Z3Goal("equal sizes (S = 0): D is even, P = N = steps(D), and D > 0 leaves a "
                   "surplus and a deficit value to swap",
                   z3.And(p == steps(d), n == steps(d), z3.Implies(d > 0, z3.And(p >= 1, n >= 1))),
                   [invariant(s, p, n, d), s == 0], names, replay),
            Z3Goal("one substitution (surplus a -> deficit b) keeps the size, lowers D by 2",
                   ops.absolute(a - 1) + ops.absolute(b + 1) == ops.absolute(a) + ops.absolute(b) - 2,
                   [a >= 1, b <= -1], {"delta_a": a, "delta_b": b}, replay),
            Z3Goal("triangle inequality along the path: k steps then one more",
                   ops.absolute(fv - fw) <= (k + 1) * c,
                   [ops.absolute(fv - fu) <= k * c, ops.absolute(fu - fw) <= c, c >= 0, k >= 0],
                   {"c": c, "k": k}, replay),
        ]

    return Obligation(
        id="lemma.sized_path", kind=Kind.LEMMA,
        statement="On a sized vector domain, v and w at symmetric distance d are d/2 "
                  "substitutions apart (d is even), so a function that moves by at most c under "
                  "one substitution moves by at most c * d / 2 between v and w.",
        latex=r"|v| = |w| \wedge d_{Sym}(v, w) = d \implies d \in 2\mathbb{N} \wedge "
              r"|f(v) - f(w)| \le c \cdot d / 2",
        goals=goals)


def unsized_path_steps(d: Any) -> Any:
    """Two vectors at symmetric distance ``d`` are ``d`` insertions and deletions apart."""
    return d


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
