"""Obligations of ``make_cast_default``, for each of the 16 casts between ``str``, ``int``, ``float``
and ``bool``, on every row: every float64 (NaN, +-inf, -0.0), every integer, every string, both
bools. The checked forms run each cast's own kernel on a Z3 term of the input type.

Assumption (labelled): parsing and formatting (``float(s)``, ``int(s)``, ``str(x)``) have no Z3
form; they are uninterpreted functions (``ops.opaque``), of which the proof uses only that each is
a deterministic function of its argument with a result of the stated type. The result type of the
Python code is checked on hard inputs by the replay, which can refute, never prove.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Constructor, RowTransform
from mechanisms.make_cast_default import CAST_TYPES, make_cast_default
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry, Kind, Obligation, Replay, Z3Goal, example, is_true
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.reports import Code, constructor_report, output_report
from obligations.row_transforms import (is_row_transform, replay_rows_added,
                                        row_transform_stability, vector_compatibility)
from obligations.symbols import float64, natural, same_element
from obligations.witnesses import witness_goal

SYMBOLS: dict[type, Callable[[str], Any]] = {str: z3.String, int: z3.Int, float: float64,
                                             bool: z3.Bool}

HARD_INPUTS: dict[type, list[Any]] = {
    str: ["nan", "1e400", "  3 ", "", "abc", "-0", "3.5", "1_000", "True"],
    int: [10 ** 400, -10 ** 400, 10 ** 5000, 2 ** 53 + 1, 0, -7],
    float: [math.nan, math.inf, -math.inf, -0.0, 0.0, 1e300, -3.7],
    bool: [True, False],
}
"""Rows on which the replay runs the real code: unparsable, overflowing, special values."""

UNPARSED = "parsing and formatting are uninterpreted functions (deterministic, of the stated type)"

PAIRS = [(a, b) for a in CAST_TYPES for b in CAST_TYPES]


def _shown(from_type: type, to_type: type) -> dict[str, Any]:
    return {"from_type": Code(from_type.__name__), "to_type": Code(to_type.__name__)}


def _replay_hard_inputs(constructor: Constructor, from_type: type, to_type: type):
    """Run the hard rows of ``from_type`` (and the model's row) through the real cast."""
    def replay(model: dict[str, Any]) -> Replay:
        t = constructor(from_type, to_type)
        data = list(HARD_INPUTS[from_type])
        if from_type is not str and "x" in model:
            data.append(from_type(model["x"]))
        output = t(data)
        confirmed = not t.output_domain.member(output)
        return output_report(constructor, _shown(from_type, to_type), data, output, confirmed,
                             f"output domain {t.output_domain}, member: {not confirmed}")
    return replay


def _replay_identity(constructor: Constructor, from_type: type, to_type: type):
    """``[x]`` and ``[y]``, one multiset element, must map to one element."""
    def replay(model: dict[str, Any]) -> Replay:
        t = constructor(from_type, to_type)
        if from_type is str:
            return output_report(constructor, _shown(from_type, to_type), [], [], False,
                                 "string models are not replayed")
        v, w = [from_type(model["x"])], [from_type(model["y"])]
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, _shown(from_type, to_type), v, w, d_in,
                                  t.map(d_in), observed, observed > t.map(d_in))
    return replay


def _replay_map(constructor: Constructor) -> Callable[[dict], Replay]:
    """``v = []`` and ``w = [1.0] * d`` are at distance ``d``, and so are their casts to int."""
    def concrete(_: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        return constructor(float, int), _shown(float, int)
    return replay_rows_added(constructor, concrete, lambda _: 1.0)


def cast_default_obligations(constructor: Constructor = make_cast_default,
                             prefix: str = "cast_default") -> tuple[Obligation, ...]:
    """The obligations of ``constructor``, which must build casts: vectors to vectors."""
    row_transform = is_row_transform(lambda: [constructor.build(a, b) for a, b in PAIRS],
                                     " (all 16 casts)")
    builds = witness_goal(constructor, {"from_type": str, "to_type": float}, _shown(str, float))

    def returns() -> list[Any]:
        """Each cast, built by the constructor, on its hard rows: returns in its output domain."""
        return [witness_goal(constructor, {"from_type": a, "to_type": b}, _shown(a, b),
                             inputs=[HARD_INPUTS[a]]) for a, b in PAIRS]

    def output_domain_goals() -> list[Any]:
        goals: list[Any] = [row_transform, *returns()]
        for from_type, to_type in PAIRS:
            t = constructor.build(from_type, to_type)
            if not isinstance(t.function, RowTransform):
                return goals
            x = SYMBOLS[from_type]("x")
            y = t.function.scalar(x)
            cast = f"{from_type.__name__} -> {to_type.__name__}"
            replay = _replay_hard_inputs(constructor, from_type, to_type)
            goals += [
                Z3Goal(f"kernel(x) has the sort of {to_type.__name__} ({cast})",
                       is_true(ops.carrier_of(y) is to_type), [], {"x": x}, replay),
                Z3Goal(f"kernel(x) is in the output atom domain ({cast})",
                       is_true(t.output_domain.element.contains(y)),
                       [is_true(t.input_domain.element.contains(x))], {"x": x}, replay),
            ]
        return goals

    def compatibility_goals() -> list[Any]:
        return [builds, compatibility_goal(
            constructor, lambda: [constructor.build(a, b) for a, b in PAIRS],
            {"from_type": str, "to_type": float}, _shown(str, float))]

    def stability_goals() -> list[Any]:
        goals: list[Any] = [row_transform, builds, metric_premise(
            lambda: constructor.build(str, float), SymmetricDistance, SymmetricDistance,
            "lemma.row_transform")]
        for from_type, to_type in PAIRS:
            t = constructor.build(from_type, to_type)
            if not isinstance(t.function, RowTransform):
                return goals
            x, y = SYMBOLS[from_type]("x"), SYMBOLS[from_type]("y")
            goals.append(Z3Goal(
                f"premise of lemma.row_transform: kernel maps one multiset element to one "
                f"({from_type.__name__} -> {to_type.__name__})",
                is_true(same_element(t.function.scalar(x), t.function.scalar(y))),
                [is_true(same_element(x, y)), is_true(t.input_domain.element.contains(x)),
                 is_true(t.input_domain.element.contains(y))],
                {"x": x, "y": y}, _replay_identity(constructor, from_type, to_type)))
        t = constructor.build(float, int)
        d_in, d_in_natural = natural("d_in")
        d, d_natural = natural("d")
        goals.append(Z3Goal(
            "map(d_in) bounds the lemma's d_sym(f(v), f(w)) <= d_sym(v, w) <= d_in",
            is_true(d <= t.map(d_in)), [*d_in_natural, *d_natural, d <= d_in],
            {"d_in": d_in, "d": d}, _replay_map(constructor)))
        return goals

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector of from_type rows, every entry of function(v) is a "
                   "to_type value (a float may be NaN): the kernel's result has the Z3 sort of "
                   "to_type and is in the output atom domain, for each of the 16 casts.",
                   r"\forall v \in \mathrm{Vec}(T_{in}):\ \mathtt{function}(v) \in "
                   r"\mathrm{Vec}(T_{out})",
                   output_domain_goals, assumes=UNPARSED),
        vector_compatibility(prefix, compatibility_goals),
        row_transform_stability(prefix, stability_goals, "each cast's kernel maps one multiset "
                                "element to one (-0.0 and 0.0 included)", assumes=UNPARSED),
    )


IMPORT = "from mechanisms.make_cast_default import make_cast_default"


def catalogue_entry() -> Entry:
    return Entry("make_cast_default", make_cast_default, cast_default_obligations(),
                 "cast rows between str, int, float and bool, with a default where a cast fails",
                 (example("make_cast_default(str, float)", IMPORT),
                  example("make_cast_default(float, int)", IMPORT)), proof=True)
