"""Wrong twins of ``make_fully_adaptive_composition``, one per obligation: answers wrapped as
OpenDP's FFI wraps them (``("invoke", answer)``, not in the query's output domain); the symmetric
distance of datasets as the odometer's metric on ints; the loss composed by ``max`` (as if only
the costliest query counted); the loss summed with a plain ``+`` (rounded to nearest, below the
exact sum on some floats)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from mechanisms import ops
from mechanisms.core import Map
from mechanisms.make_fully_adaptive_composition import (NOTHING_SPENT, OdometerStep,
                                                        build_fully_adaptive_composition,
                                                        make_fully_adaptive_composition,
                                                        spent_after)
from mechanisms.metrics import SymmetricDistance
from mechanisms.queryable import Queryable, QueryRunner, Step
from obligations.make_fully_adaptive_composition import fully_adaptive_obligations
from tests.twins._statements import twin_entries


def spent_max(d_in: Any, before: Map, last: Map) -> Any:
    """Wrong: the costliest query's map, not the sum."""
    return ops.maximum(before(d_in), last(d_in))


def spent_nearest(d_in: Any, before: Map, last: Map) -> Any:
    """Wrong: the float sum rounded to nearest (may fall below the exact sum)."""
    return before(d_in) + last(d_in)


@dataclass(frozen=True)
class RuleStep(OdometerStep):
    """The odometer's transition with another rule for the composed map."""

    rule: Callable[..., Any] = spent_after

    def __call__(self, state: Map, query: Any) -> Step:
        step = super().__call__(state, query)
        return replace(step, state=Map(rule=self.rule, params=step.state.params))


@dataclass(frozen=True)
class WrappedRunner(QueryRunner):
    """Wrong: the answer wrapped as ``("invoke", answer)``."""

    def __call__(self, query: Any) -> Any:
        return ("invoke", query(self.data, self.rng))


@dataclass(frozen=True)
class TwinFunction:
    input_domain: Any
    input_metric: Any
    output_measure: Any
    rule: Callable[..., Any] = spent_after
    runner: type = QueryRunner

    def __call__(self, arg: Any, rng: Any = None) -> Queryable:
        return Queryable(RuleStep(self.input_domain, self.input_metric, self.output_measure,
                                  self.rule), NOTHING_SPENT, self.runner(arg, rng))


def _with(rule: Callable[..., Any] = spent_after, runner: type = QueryRunner):
    def build(input_domain, input_metric, output_measure):
        built = build_fully_adaptive_composition(input_domain, input_metric, output_measure)
        return replace(built, function=TwinFunction(input_domain, input_metric, output_measure,
                                                    rule, runner))
    return build


def build_fac_symmetric_in(input_domain, input_metric, output_measure):
    """Wrong: the symmetric distance (of datasets) as the odometer's metric."""
    return replace(build_fully_adaptive_composition(input_domain, input_metric, output_measure),
                   input_metric=SymmetricDistance())


TWINS = {"output_domain": ("fac_wrapped_answers", _with(runner=WrappedRunner)),
         "compatibility": ("fac_symmetric_in", build_fac_symmetric_in),
         "privacy": ("fac_max_loss", _with(rule=spent_max)),
         "map_rounding": ("fac_nearest_sum", _with(rule=spent_nearest))}

make_fac_wrapped_answers = make_fully_adaptive_composition.variant(
    "make_fac_wrapped_answers", TWINS["output_domain"][1])
make_fac_symmetric_in = make_fully_adaptive_composition.variant(
    "make_fac_symmetric_in", build_fac_symmetric_in)
make_fac_max_loss = make_fully_adaptive_composition.variant(
    "make_fac_max_loss", TWINS["privacy"][1])
make_fac_nearest_sum = make_fully_adaptive_composition.variant(
    "make_fac_nearest_sum", TWINS["map_rounding"][1])

MECHANISMS = twin_entries(globals(), fully_adaptive_obligations, TWINS)
EXPECTED_REFUTATIONS = {f"{prefix}.{suffix}" for suffix, (prefix, _) in TWINS.items()}
TWIN_OF = {f"fully_adaptive_composition.{suffix}": f"{prefix}.{suffix}"
           for suffix, (prefix, _) in TWINS.items()}
