"""Obligations of ``make_impute_constant``, for every float64 row (NaN, +-inf, -0.0 and
subnormals included) and every non-NaN float64 ``constant``. The checked forms run the
constructor's own ``build`` on Z3 floating-point terms: its kernel, its domains and its map.
"""

from __future__ import annotations

from typing import Any, Callable

from mechanisms.core import Constructor, RowTransform
from mechanisms.make_impute_constant import make_impute_constant
from mechanisms.metrics import SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.reports import constructor_report, output_report
from obligations.symbols import float64, natural, same_element


def _symbolic(constructor: Constructor) -> tuple[Any, dict[str, Any], list[Any]]:
    """The constructor's ``build`` on a symbolic constant, and its preconditions on it."""
    arguments = {"constant": float64("constant")}
    return constructor.build(**arguments), arguments, constructor.assumptions(**arguments)


def _concrete(constructor: Constructor, counterexample: dict[str, Any]) -> tuple[Any, dict]:
    arguments = {"constant": float(counterexample.get("constant", 0.0))}
    return constructor(**arguments), arguments


def _is_row_transform(constructor: Constructor) -> ComputedGoal:
    def decide() -> Decision:
        function = constructor.build(constant=0.0).function
        if isinstance(function, RowTransform):
            return Decision(True, detail="function is RowTransform(kernel)")
        return Decision(False, {"function": repr(function)},
                        "function is not a RowTransform, so its output is not the kernel's, row "
                        "by row; the scalar proof does not apply", unsupported=True)
    return ComputedGoal("function applies one scalar kernel to every row", "structure", decide)


def _replay_output_domain(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = _concrete(constructor, counterexample)
        data = [float(counterexample["x"])]
        output = t(data)
        confirmed = not t.output_domain.member(output)
        return output_report(constructor, arguments, data, output, confirmed,
                             f"output domain {t.output_domain}, member: {not confirmed}")
    return replay


def _replay_identity(constructor: Constructor) -> Callable[[dict], Replay]:
    """Two rows that are one multiset element (equal, or both NaN) must map to one element."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = _concrete(constructor, counterexample)
        v, w = [float(counterexample["x"])], [float(counterexample["y"])]
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, arguments, v, w, d_in, t.map(d_in), observed,
                                  observed > t.map(d_in))
    return replay


def _replay_map(constructor: Constructor) -> Callable[[dict], Replay]:
    """``v = []`` and ``w = [nan] * d`` are at distance ``d``, and so are their imputations."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = _concrete(constructor, counterexample)
        d_in, d = int(counterexample["d_in"]), int(counterexample["d"])
        v, w = [], [float("nan")] * d
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, arguments, v, w, d_in, t.map(d_in), observed,
                                  observed > t.map(d_in))
    return replay


def impute_constant_obligations(constructor: Constructor = make_impute_constant,
                                prefix: str = "impute_constant") -> tuple[Obligation, ...]:
    """The obligations of ``constructor``, which must build imputations: vectors to vectors."""

    def output_domain_goals() -> list[Any]:
        goals: list[Any] = [_is_row_transform(constructor)]
        t, arguments, assumptions = _symbolic(constructor)
        if isinstance(t.function, RowTransform):
            x = float64("x")
            goals.append(Z3Goal(
                "kernel(x) is a non-NaN float of the output atom domain, for every float64 x",
                is_true(t.output_domain.element.contains(t.function.scalar(x))),
                [*assumptions, is_true(t.input_domain.element.contains(x))],
                {**arguments, "x": x}, _replay_output_domain(constructor)))
        return goals

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(constructor, lambda: [_symbolic(constructor)[0]],
                                   {"constant": 0.0})]

    def stability_goals() -> list[Any]:
        goals: list[Any] = [_is_row_transform(constructor), metric_premise(
            lambda: constructor.build(constant=0.0), SymmetricDistance, SymmetricDistance,
            "lemma.row_transform")]
        t, arguments, assumptions = _symbolic(constructor)
        if isinstance(t.function, RowTransform):
            x, y = float64("x"), float64("y")
            goals.append(Z3Goal(
                "premise of lemma.row_transform: the kernel maps one multiset element to one",
                is_true(same_element(t.function.scalar(x), t.function.scalar(y))),
                [*assumptions, is_true(same_element(x, y))],
                {**arguments, "x": x, "y": y}, _replay_identity(constructor)))
        d_in, d_in_natural = natural("d_in")
        d, d_natural = natural("d")
        goals.append(Z3Goal(
            "map(d_in) bounds the lemma's d_sym(f(v), f(w)) <= d_sym(v, w) <= d_in",
            is_true(d <= t.map(d_in)), [*assumptions, *d_in_natural, *d_natural, d <= d_in],
            {**arguments, "d_in": d_in, "d": d}, _replay_map(constructor)))
        return goals

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every float vector (NaN and +-inf included), every entry of function(v) "
                   "is a non-NaN float, for every non-NaN constant.",
                   r"\forall v \in \mathrm{Vec}(\mathtt{float}):\ \mathtt{function}(v) \in "
                   r"\mathrm{Vec}(\mathtt{float} \setminus \{\mathrm{NaN}\})",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "Symmetric distance is defined on the input and output vector domains.",
                   r"d_{Sym} \sim \mathrm{VectorDomain}",
                   compatibility_goals),
        Obligation(f"{prefix}.stability", Kind.STABILITY,
                   "If d_sym(v, w) <= d_in then d_sym(function(v), function(w)) <= map(d_in): "
                   "function is a row transform (lemma.row_transform), its kernel respects "
                   "multiset identity, and map(d_in) >= d_in.",
                   r"d_{Sym}(v, w) \le d_{in} \implies d_{Sym}(f(v), f(w)) \le "
                   r"\mathtt{map}(d_{in})",
                   stability_goals, uses=("lemma.row_transform",)),
    )


IMPORT = "from mechanisms.make_impute_constant import make_impute_constant"


def catalogue_entry() -> Entry:
    return Entry("make_impute_constant", make_impute_constant, impute_constant_obligations(),
                 "replace NaN entries of a float vector by a constant",
                 (example("make_impute_constant(0.0)", IMPORT),
                  example("make_impute_constant(float('inf'))", IMPORT)),
                 proof=True)
