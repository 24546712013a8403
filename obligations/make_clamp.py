"""Obligations of ``make_clamp``: quantified over every float64 (NaN, +-inf and -0.0 included) and
every integer, for all bounds with ``lower <= upper``. The checked forms run the constructor's own
``build`` on Z3 terms: its kernel, its domains and its map.
"""

from __future__ import annotations

from typing import Any

from mechanisms.core import Constructor, RowTransform
from mechanisms.make_clamp import make_clamp
from mechanisms.metrics import SymmetricDistance
from obligations.base import ComputedGoal, Entry, Kind, Obligation, Z3Goal, example, is_true
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.row_transforms import (Concrete, is_row_transform, kernel_agreement,
                                        replay_output_domain, replay_pair, replay_rows_added,
                                        row_transform_stability, vector_compatibility)
from obligations.symbols import CARRIERS, natural, same_element
from obligations.witnesses import excluded_goals, witness_goal

HARD_ROWS = {float: [0.5, -3.0, 7.0, float("nan"), float("inf"), float("-inf"), -0.0, 5e-324],
             int: [-5, 0, 2, 9, 10 ** 30]}
"""Rows the witness runs through the real clamps ``[0.0, 1.0]`` and ``[-3, 3]``."""

AGREEMENT_BOUNDS = [{"lower": 0.0, "upper": 1.0}, {"lower": -0.0, "upper": 0.0},
                    {"lower": float("-inf"), "upper": 2.5}, {"lower": -1000, "upper": 10 ** 30}]
"""Bounds whose clamps run every hard row (and each bound itself) on the real kernel and on its
solver form (:func:`kernel_agreement`)."""
CARRIER_OF = {python_type: name for name, (python_type, _) in CARRIERS.items()}


def _symbolic(constructor: Constructor, carrier: str) -> tuple[Any, dict[str, Any], list[Any]]:
    """The constructor's ``build`` on symbolic bounds, and its preconditions on them."""
    _, make = CARRIERS[carrier]
    bounds = {"lower": make("lower"), "upper": make("upper")}
    return constructor.build(**bounds), bounds, constructor.assumptions(**bounds)


def _concrete(constructor: Constructor, carrier: type) -> Concrete:
    def concrete(counterexample: dict[str, Any]) -> tuple[Any, dict]:
        defaults = {"lower": carrier(0), "upper": carrier(1)}
        arguments = {k: carrier(counterexample.get(k, defaults[k])) for k in defaults}
        return constructor(**arguments), arguments
    return concrete


def _replay_output_domain(constructor: Constructor, carrier: type) -> Any:
    return replay_output_domain(constructor, _concrete(constructor, carrier),
                                lambda model: carrier(model["x"]))


def _replay_identity(constructor: Constructor, carrier: type) -> Any:
    """Two inputs that are the same multiset element must map to the same element."""
    return replay_pair(constructor, _concrete(constructor, carrier),
                       lambda model: ([carrier(model["x"])], [carrier(model["y"])]))


def _replay_map(constructor: Constructor, carrier: type) -> Any:
    """``v = []`` and ``w = [lower] * d`` are at distance ``d``, and so are their clamps."""
    return replay_rows_added(constructor, _concrete(constructor, carrier),
                             lambda model: carrier(model.get("lower", 0)))


def _refused(constructor: Constructor, carrier: type) -> ComputedGoal | None:
    """None when ``constructor`` admits bounds ``0`` and ``1`` of ``carrier``; else the witness
    goal that says it refuses them (unknown: vacuous), standing for the goals on solver bounds
    of that carrier, which would be about objects it never builds."""
    bounds = {"lower": carrier(0), "upper": carrier(1)}
    try:
        constructor(**bounds)
    except Exception:  # noqa: BLE001 - refused: the witness goal says how
        return witness_goal(constructor, bounds)
    return None


def clamp_obligations(constructor: Constructor = make_clamp, prefix: str = "clamp") -> tuple[Obligation, ...]:
    """The obligations of ``constructor``, which must build clamps: vectors to vectors."""
    row_transform = is_row_transform(lambda: [constructor.build(lower=0.0, upper=1.0)])
    float_bounds, int_bounds = {"lower": 0.0, "upper": 1.0}, {"lower": -3, "upper": 3}
    builds = witness_goal(constructor, float_bounds)
    agreement = kernel_agreement(
        constructor, lambda python_type, _: _symbolic(constructor, CARRIER_OF[python_type])[:2],
        [(bounds, row) for bounds in AGREEMENT_BOUNDS
         for row in (*bounds.values(), *HARD_ROWS[type(bounds["lower"])])])

    def output_domain_goals() -> list[Any]:
        goals: list[Any] = [row_transform,
                            witness_goal(constructor, float_bounds, inputs=[[], HARD_ROWS[float]]),
                            witness_goal(constructor, int_bounds, inputs=[HARD_ROWS[int]]),
                            *excluded_goals(constructor, [
                                ({"lower": 0, "upper": 2.5}, "bounds of two types"),
                                ({"lower": 0.0, "upper": 2}, "bounds of two types"),
                                ({"lower": "a", "upper": "b"}, "bounds that are not numbers")],
                                inputs=[[], HARD_ROWS[float], HARD_ROWS[int]])]
        for carrier, (python_type, make) in CARRIERS.items():
            if (refused := _refused(constructor, python_type)) is not None:
                goals.append(refused)
                continue
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
        return [builds, compatibility_goal(
            constructor, lambda: [_symbolic(constructor, carrier)[0] for carrier in CARRIERS],
            {"lower": 0.0, "upper": 1.0})]

    def stability_goals() -> list[Any]:
        goals: list[Any] = [row_transform, builds, metric_premise(
            lambda: constructor.build(lower=0.0, upper=1.0), SymmetricDistance, SymmetricDistance,
            "lemma.row_transform"), agreement]
        for carrier, (python_type, make) in CARRIERS.items():
            if (refused := _refused(constructor, python_type)) is not None:
                goals.append(refused)
                continue
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
        vector_compatibility(prefix, compatibility_goals),
        row_transform_stability(prefix, stability_goals),
    )


IMPORT = "from mechanisms.make_clamp import make_clamp"


def catalogue_entry() -> Entry:
    return Entry("make_clamp", make_clamp, clamp_obligations(),
                 "clamp vector entries into [lower, upper]",
                 (example("make_clamp(0.0, 1.0)", IMPORT), example("make_clamp(-3, 3)", IMPORT)),
                 proof=True)
