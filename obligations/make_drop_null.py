"""Obligations of ``make_drop_null``, for every float64 row (NaN, +-inf, -0.0 and subnormals
included). The checked forms run the constructor's own ``build``: its filter's predicate on Z3
floating-point terms, its domains and its map.

The filter lemma is proved by induction on the distinct values of ``v`` and ``w`` (as in
``obligations/lemmas.py``), with the code's own predicate deciding whether each value is kept, so
it is not bounded.
"""

from __future__ import annotations

from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Constructor
from mechanisms.make_drop_null import Filter, make_drop_null
from mechanisms.metrics import SymmetricDistance
from obligations.base import ComputedGoal, Entry, Kind, Obligation, Replay, Z3Goal, example, is_true
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.kernels import trusted_kernel_goal
from obligations.reports import Code, output_report
from obligations.row_transforms import replay_pair, replay_rows_added, vector_compatibility
from obligations.symbols import float64, natural, same_element
from obligations.witnesses import witness_goal

HARD_ROWS = [float("nan"), 1.0, float("-inf"), float("inf"), -0.0, 5e-324, float("nan")]
"""Rows the witness runs through the real filter."""

ARGUMENTS = {"carrier": Code("float")}
"""The constructor's arguments as a report writes them."""


def _is_filter(constructor: Constructor) -> ComputedGoal:
    """The function is ``Filter``'s own code: rows kept or dropped one by one, unchanged, by one
    predicate (``scalar``, which the goals run, is the predicate ``__call__`` applies)."""
    return trusted_kernel_goal("the function", lambda: constructor.build(float).function, Filter)


def _replay_output_domain(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(counterexample: dict[str, Any]) -> Replay:
        t = constructor(float)
        data = [float(counterexample["x"])]
        output = t(data)
        confirmed = not t.output_domain.member(output)
        return output_report(constructor, ARGUMENTS, data, output, confirmed,
                             f"output domain {t.output_domain}, member: {not confirmed}")
    return replay


def _replay_pair(constructor: Constructor) -> Callable[[dict], Replay]:
    """``v = [x]``, ``w = [y]`` (default ``[]`` and ``[0.0]``): the filtered pair must be no
    farther apart than ``map(d_sym(v, w))``."""
    return replay_pair(constructor, lambda _: (constructor(float), ARGUMENTS),
                       lambda model: ([float(model["x"])] if "x" in model else [],
                                      [float(model.get("y", 0.0))]))


def _replay_map(constructor: Constructor) -> Callable[[dict], Replay]:
    """``v = []`` and ``w = [0.0] * d`` are at distance ``d``, and so are their filtrates."""
    return replay_rows_added(constructor, lambda _: (constructor(float), ARGUMENTS), lambda _: 0.0)


def drop_null_obligations(constructor: Constructor = make_drop_null,
                          prefix: str = "drop_null") -> tuple[Obligation, ...]:
    """The obligations of ``constructor``, which must build filters: vectors to vectors."""
    builds = witness_goal(constructor, {"carrier": float}, ARGUMENTS)

    def output_domain_goals() -> list[Any]:
        goals: list[Any] = [_is_filter(constructor),
                            witness_goal(constructor, {"carrier": float}, ARGUMENTS,
                                         inputs=[[], HARD_ROWS])]
        t = constructor.build(float)
        if isinstance(t.function, Filter):
            x = float64("x")
            goals.append(Z3Goal(
                "every row the filter keeps is in the output atom domain (not NaN), for every "
                "float64 x",
                is_true(t.output_domain.element.contains(x)),
                [is_true(t.input_domain.element.contains(x)), is_true(t.function.scalar(x))],
                {"x": x}, _replay_output_domain(constructor)))
        return goals

    def compatibility_goals() -> list[Any]:
        return [builds, compatibility_goal(constructor, lambda: [constructor.build(float)],
                                   {"carrier": float}, ARGUMENTS)]

    def filter_lemma_goals() -> list[Any]:
        goals: list[Any] = [_is_filter(constructor), builds]
        t = constructor.build(float)
        if not isinstance(t.function, Filter):
            return goals
        keep, replay = t.function.scalar, _replay_pair(constructor)
        x, y, z = float64("x"), float64("y"), float64("z")
        out, into, delta = z3.Ints("OUT IN delta")
        return goals + [
            Z3Goal("the predicate is a function of the multiset element: rows that are one "
                   "element (equal, or both NaN) are both kept or both dropped",
                   is_true(keep(x)) == is_true(keep(y)),
                   [is_true(same_element(x, y))], {"x": x, "y": y}, replay),
            Z3Goal("induction step (base: no values, both distances 0): a value z with count "
                   "difference delta adds |delta| to d_sym(v, w), and |delta| or 0 to "
                   "d_sym(filter(v), filter(w)) as keep(z) holds or not",
                   out + ops.where(is_true(keep(z)), ops.absolute(delta), 0)
                   <= into + ops.absolute(delta),
                   [out >= 0, out <= into], {"OUT": out, "IN": into, "delta": delta, "z": z},
                   replay),
        ]

    def stability_goals() -> list[Any]:
        t = constructor.build(float)
        d_in, d_in_natural = natural("d_in")
        d, d_natural = natural("d")
        return [
            _is_filter(constructor), builds,
            metric_premise(lambda: constructor.build(float), SymmetricDistance, SymmetricDistance,
                           f"{prefix}.filter_lemma"),
            Z3Goal("map(d_in) bounds the lemma's d_sym(f(v), f(w)) <= d_sym(v, w) <= d_in",
                   is_true(d <= t.map(d_in)), [*d_in_natural, *d_natural, d <= d_in],
                   {"d_in": d_in, "d": d}, _replay_map(constructor)),
        ]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every float vector (NaN and +-inf included), function(v) is a vector of "
                   "non-NaN floats: it keeps rows unchanged, and only rows that are not NaN.",
                   r"\forall v \in \mathrm{Vec}(\mathtt{float}):\ \mathtt{function}(v) \in "
                   r"\mathrm{Vec}(\mathtt{float} \setminus \{\mathrm{NaN}\})",
                   output_domain_goals),
        vector_compatibility(prefix, compatibility_goals),
        Obligation(f"{prefix}.filter_lemma", Kind.LEMMA,
                   "The filter is 1-stable: d_sym(filter(v), filter(w)) <= d_sym(v, w). Its "
                   "predicate is a function of the multiset element z, so h_filter(v)(z) is "
                   "h_v(z) or 0; by induction on the distinct values, each adds |h_v(z) - h_w(z)| "
                   "to d_sym(v, w) and that or 0 to the filtered distance.",
                   r"d_{Sym}(\mathrm{filter}(v), \mathrm{filter}(w)) \le d_{Sym}(v, w)",
                   filter_lemma_goals),
        Obligation(f"{prefix}.stability", Kind.STABILITY,
                   "If d_sym(v, w) <= d_in then d_sym(function(v), function(w)) <= map(d_in): "
                   "by the filter lemma the left side is at most d_sym(v, w), and "
                   "map(d_in) >= d_in.",
                   r"d_{Sym}(v, w) \le d_{in} \implies d_{Sym}(f(v), f(w)) \le "
                   r"\mathtt{map}(d_{in})",
                   stability_goals, uses=(f"{prefix}.filter_lemma",)),
    )


IMPORT = "from mechanisms.make_drop_null import make_drop_null"


def catalogue_entry() -> Entry:
    return Entry("make_drop_null", make_drop_null, drop_null_obligations(),
                 "remove the NaN rows of a float vector",
                 (example("make_drop_null(float)", IMPORT),), proof=True)
