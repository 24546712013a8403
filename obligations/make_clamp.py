"""Obligations of ``make_clamp``: quantified over every float64 (NaN, +-inf and -0.0 included) and
every integer, for all bounds with ``lower <= upper``. The checked forms run the constructor's own
``build`` on Z3 terms: its kernel, its domains and its map.
"""

from __future__ import annotations

from typing import Any

from mechanisms.core import Constructor, RowTransform
from mechanisms.make_clamp import make_clamp
from mechanisms.metrics import SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.reports import constructor_report, output_report
from obligations.symbols import CARRIERS, natural, same_element


def _symbolic(constructor: Constructor, carrier: str) -> tuple[Any, dict[str, Any], list[Any]]:
    """The constructor's ``build`` on symbolic bounds, and its preconditions on them."""
    _, make = CARRIERS[carrier]
    bounds = {"lower": make("lower"), "upper": make("upper")}
    return constructor.build(**bounds), bounds, constructor.assumptions(**bounds)


def _concrete(constructor: Constructor, counterexample: dict[str, Any], carrier: type) -> tuple[Any, dict]:
    defaults = {"lower": carrier(0), "upper": carrier(1)}
    arguments = {k: carrier(counterexample.get(k, defaults[k])) for k in defaults}
    return constructor(**arguments), arguments


def _is_row_transform(constructor: Constructor) -> ComputedGoal:
    def decide() -> Decision:
        function = constructor.build(lower=0.0, upper=1.0).function
        if isinstance(function, RowTransform):
            return Decision(True, detail="function is RowTransform(kernel)")
        return Decision(False, {"function": repr(function)},
                        "function is not a RowTransform, so its output is not the kernel's, row "
                        "by row; the scalar proof does not apply", unsupported=True)
    return ComputedGoal("function applies one scalar kernel to every row", "structure", decide)


def _replay_output_domain(constructor: Constructor, carrier: type):
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = _concrete(constructor, counterexample, carrier)
        data = [carrier(counterexample["x"])]
        output = t(data)
        confirmed = not t.output_domain.member(output)
        return output_report(constructor, arguments, data, output, confirmed,
                             f"output domain {t.output_domain}, member: {not confirmed}")
    return replay


def _replay_identity(constructor: Constructor, carrier: type):
    """Two inputs that are the same multiset element must map to the same element."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = _concrete(constructor, counterexample, carrier)
        v, w = [carrier(counterexample["x"])], [carrier(counterexample["y"])]
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, arguments, v, w, d_in, t.map(d_in), observed,
                                 observed > t.map(d_in))
    return replay


def _replay_map(constructor: Constructor, carrier: type):
    """``v = []`` and ``w = [lower] * d`` are at distance ``d``, and so are their clamps."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = _concrete(constructor, counterexample, carrier)
        d_in, d = int(counterexample["d_in"]), int(counterexample["d"])
        v, w = [], [arguments["lower"]] * d
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, arguments, v, w, d_in, t.map(d_in), observed,
                                observed > t.map(d_in))
    return replay


def clamp_obligations(constructor: Constructor = make_clamp, prefix: str = "clamp") -> tuple[Obligation, ...]:
    """The obligations of ``constructor``, which must build clamps: vectors to vectors."""

    def output_domain_goals() -> list[Any]:
        goals: list[Any] = [_is_row_transform(constructor)]
        for carrier, (python_type, make) in CARRIERS.items():
            t, bounds, assumptions = _symbolic(constructor, carrier)
            x = make("x")
            if not isinstance(t.function, RowTransform):
                continue
            goals.append(Z3Goal(
                f"kernel(x) is in the output atom domain, for every {carrier} x",
                is_true(t.output_domain.element.contains(t.function.scalar(x))),
                [*assumptions, is_true(t.input_domain.element.contains(x))],
                {**bounds, "x": x}, _replay_output_domain(constructor, python_type)))
        return goals

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(
            constructor, lambda: [_symbolic(constructor, carrier)[0] for carrier in CARRIERS],
            {"lower": 0.0, "upper": 1.0})]

    def stability_goals() -> list[Any]:
        goals: list[Any] = [_is_row_transform(constructor), metric_premise(
            lambda: constructor.build(lower=0.0, upper=1.0), SymmetricDistance, SymmetricDistance,
            "lemma.row_transform")]
        for carrier, (python_type, make) in CARRIERS.items():
            t, bounds, assumptions = _symbolic(constructor, carrier)
            if isinstance(t.function, RowTransform):
                x, y = make("x"), make("y")
                goals.append(Z3Goal(
                    f"premise of lemma.row_transform: kernel maps one multiset element to one ({carrier})",
                    is_true(same_element(t.function.scalar(x), t.function.scalar(y))),
                    [*assumptions, is_true(same_element(x, y)),
                     is_true(t.input_domain.element.contains(x)),
                     is_true(t.input_domain.element.contains(y))],
                    {**bounds, "x": x, "y": y}, _replay_identity(constructor, python_type)))
            d_in, d_in_natural = natural("d_in")
            d, d_natural = natural("d")
            goals.append(Z3Goal(
                f"map(d_in) bounds the lemma's d_sym(f(v), f(w)) <= d_sym(v, w) <= d_in ({carrier})",
                is_true(d <= t.map(d_in)),
                [*assumptions, *d_in_natural, *d_natural, d <= d_in],
                {**bounds, "d_in": d_in, "d": d}, _replay_map(constructor, python_type)))
        return goals

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector the input domain admits (any float, NaN and +-inf included, "
                   "or any int), every entry of function(v) is a non-NaN value in [lower, upper].",
                   r"\forall v \in \mathrm{Vec}(T):\ \mathtt{function}(v) \in "
                   r"\mathrm{Vec}([\mathtt{L}, \mathtt{U}])",
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


IMPORT = "from mechanisms.make_clamp import make_clamp"


def catalogue_entry() -> Entry:
    return Entry("make_clamp", make_clamp, clamp_obligations(),
                 "clamp vector entries into [lower, upper]",
                 (example("make_clamp(0.0, 1.0)", IMPORT), example("make_clamp(-3, 3)", IMPORT)),
                 proof=True)
