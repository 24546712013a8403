"""Obligations of ``make_impute_constant``, for every float64 row (NaN, +-inf, -0.0 and
subnormals included) and every non-NaN float64 ``constant``. The checked forms run the
constructor's own ``build`` on Z3 floating-point terms: its kernel, its domains and its map.
"""

from __future__ import annotations

from typing import Any

from mechanisms.core import Constructor, RowTransform
from mechanisms.make_impute_constant import make_impute_constant
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry, Kind, Obligation, Z3Goal, example, is_true
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.row_transforms import (Concrete, is_row_transform, kernel_agreement,
                                        replay_output_domain, replay_pair, replay_rows_added,
                                        row_transform_stability, vector_compatibility)
from obligations.symbols import float64, natural, same_element
from obligations.witnesses import witness_goal

HARD_ROWS = [float("nan"), 1.0, float("-inf"), float("inf"), -0.0, 5e-324]
"""Rows the witness runs through the real imputation."""


def _symbolic(constructor: Constructor) -> tuple[Any, dict[str, Any], list[Any]]:
    """The constructor's ``build`` on a symbolic constant, and its preconditions on it."""
    arguments = {"constant": float64("constant")}
    return constructor.build(**arguments), arguments, constructor.assumptions(**arguments)


def _concrete(constructor: Constructor) -> Concrete:
    def concrete(counterexample: dict[str, Any]) -> tuple[Any, dict]:
        arguments = {"constant": float(counterexample.get("constant", 0.0))}
        return constructor(**arguments), arguments
    return concrete


def impute_constant_obligations(constructor: Constructor = make_impute_constant,
                                prefix: str = "impute_constant") -> tuple[Obligation, ...]:
    """The obligations of ``constructor``, which must build imputations: vectors to vectors."""
    row_transform = is_row_transform(lambda: [constructor.build(constant=0.0)])
    builds = witness_goal(constructor, {"constant": 0.0})
    concrete = _concrete(constructor)
    replay_row = replay_output_domain(constructor, concrete, lambda model: float(model["x"]))
    replay_identity = replay_pair(constructor, concrete,
                                  lambda model: ([float(model["x"])], [float(model["y"])]))
    replay_map = replay_rows_added(constructor, concrete, lambda model: float("nan"))
    agreement = kernel_agreement(
        constructor, lambda python_type, _: _symbolic(constructor)[:2],
        [({"constant": constant}, row) for constant in (0.0, -0.0, 2.5, float("-inf"))
         for row in (constant, *HARD_ROWS)])

    def output_domain_goals() -> list[Any]:
        goals: list[Any] = [row_transform,
                            witness_goal(constructor, {"constant": 0.0}, inputs=[[], HARD_ROWS])]
        t, arguments, assumptions = _symbolic(constructor)
        if isinstance(t.function, RowTransform):
            x = float64("x")
            goals.append(Z3Goal(
                "kernel(x) is a non-NaN float of the output atom domain, for every float64 x",
                is_true(t.output_domain.element.contains(t.function.scalar(x))),
                [*assumptions, is_true(t.input_domain.element.contains(x))],
                {**arguments, "x": x}, replay_row))
        return goals

    def compatibility_goals() -> list[Any]:
        return [builds, compatibility_goal(constructor, lambda: [_symbolic(constructor)[0]],
                                   {"constant": 0.0})]

    def stability_goals() -> list[Any]:
        goals: list[Any] = [row_transform, builds, metric_premise(
            lambda: constructor.build(constant=0.0), SymmetricDistance, SymmetricDistance,
            "lemma.row_transform"), agreement]
        t, arguments, assumptions = _symbolic(constructor)
        if isinstance(t.function, RowTransform):
            x, y = float64("x"), float64("y")
            goals.append(Z3Goal(
                "premise of lemma.row_transform: the kernel maps one multiset element to one",
                is_true(same_element(t.function.scalar(x), t.function.scalar(y))),
                [*assumptions, is_true(same_element(x, y))],
                {**arguments, "x": x, "y": y}, replay_identity))
        d_in, d_in_natural = natural("d_in")
        d, d_natural = natural("d")
        goals.append(Z3Goal(
            "map(d_in) bounds the lemma's d_sym(f(v), f(w)) <= d_sym(v, w) <= d_in",
            is_true(d <= t.map(d_in)), [*assumptions, *d_in_natural, *d_natural, d <= d_in],
            {**arguments, "d_in": d_in, "d": d}, replay_map))
        return goals

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every float vector (NaN and +-inf included), every entry of function(v) "
                   "is a non-NaN float, for every non-NaN constant.",
                   r"\forall v \in \mathrm{Vec}(\mathtt{float}):\ \mathtt{function}(v) \in "
                   r"\mathrm{Vec}(\mathtt{float} \setminus \{\mathrm{NaN}\})",
                   output_domain_goals),
        vector_compatibility(prefix, compatibility_goals),
        row_transform_stability(prefix, stability_goals),
    )


IMPORT = "from mechanisms.make_impute_constant import make_impute_constant"


def catalogue_entry() -> Entry:
    return Entry("make_impute_constant", make_impute_constant, impute_constant_obligations(),
                 "replace NaN entries of a float vector by a constant",
                 (example("make_impute_constant(0.0)", IMPORT),
                  example("make_impute_constant(float('inf'))", IMPORT)),
                 proof=True)
