"""Wrong twins of ``make_privacy_filter``, one per obligation and two more for the budget:

* ``filter_returns_odometer``: the function returns the odometer's function, not its queryable
  on the data (output domain);
* ``filter_symmetric_in``: the symmetric distance of datasets as the metric on ints;
* ``filter_nearest_check``: the pending cost summed with a plain ``+`` (rounded to nearest)
  before the comparison, so ``1.0 + 2^-60`` passes a budget of 1.0;
* ``filter_wrong_side``: ``d_out < pending`` where ``pending <= d_out`` was meant;
* ``filter_refusal_charged``: the pending cost kept as the state even when refused (the
  ``refusals`` specification; its state may pass ``d_out``, which ``budget`` refutes too, but no
  accepted sum passes ``d_out``, so that refutation is not confirmed);
* ``filter_forgets_d_in``: queries charged at distance 1, whatever ``d_in``;
* ``filter_unguarded_map``: the map answers ``d_out`` at every distance, ``d_in`` forgotten;
* ``filter_negative_d_in`` (compatibility): ``d_in >= -1`` admitted (mutation run): queries are
  charged their maps at a negative ``d_in``, so spent falls with every answer and the filter never
  exhausts;
* ``filter_infinite_budget`` (compatibility): a ``d_out`` of ``+inf`` admitted (mutant
  ``make_privacy_filter:101:45:boolean:and->or``): it accepts a cost of ``+inf``;
* ``filter_open_at_d_in`` (privacy): the map refuses ``d = d_in`` too (``distance < d_in``,
  mutant ``make_privacy_filter:94:14:compare:ops.le->ops.lt``), so it never states ``d_out``
  where the filter is built for.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import math

from mechanisms import ops
from mechanisms.core import Constructor, Map, Precondition
from mechanisms.errors import FilterArgumentError, FilterDistanceError
from mechanisms.make_privacy_filter import (FILTER_PRECONDITIONS, NOTHING_SPENT, FilterStep,
                                            PrivacyFilter, build_privacy_filter,
                                            make_privacy_filter, validate_filter)
from mechanisms.metrics import SymmetricDistance
from mechanisms.queryable import Queryable, Step
from obligations.base import Entry
from obligations.make_privacy_filter import privacy_filter_obligations
from tests.twins._statements import twin_entries


@dataclass(frozen=True)
class NearestStep(FilterStep):
    """Wrong: ``spent + cost`` rounded to nearest, compared, kept."""

    def __call__(self, spent: Any, query: Any) -> Step:
        pending = spent + query.map(self.d_in)
        accepted = ops.le(pending, self.d_out)
        return Step(accepted, ops.where(accepted, pending, spent), pending)


@dataclass(frozen=True)
class WrongSideStep(FilterStep):
    """Wrong: accepts when the budget is below the pending cost."""

    def __call__(self, spent: Any, query: Any) -> Step:
        pending = ops.add_up(spent, query.map(self.d_in))
        accepted = ops.lt(self.d_out, pending)
        return Step(accepted, ops.where(accepted, pending, spent), pending)


@dataclass(frozen=True)
class ChargedStep(FilterStep):
    """Wrong: the pending cost becomes the state, accepted or not."""

    def __call__(self, spent: Any, query: Any) -> Step:
        pending = ops.add_up(spent, query.map(self.d_in))
        return Step(ops.le(pending, self.d_out), pending, pending)


@dataclass(frozen=True)
class UnitDistanceStep(FilterStep):
    """Wrong: each query charged at distance 1 (one record), not at ``d_in``."""

    def __call__(self, spent: Any, query: Any) -> Step:
        pending = ops.add_up(spent, query.map(1))
        accepted = ops.le(pending, self.d_out)
        return Step(accepted, ops.where(accepted, pending, spent), pending)


@dataclass(frozen=True)
class StepFilter(PrivacyFilter):
    """The filter's function with another transition class."""

    step: type = FilterStep

    def __call__(self, arg: Any, rng: Any = None) -> Queryable:
        inner = self.odometer(arg, rng)
        return Queryable(self.step(self.d_in, self.d_out, inner.transition.screen),
                         NOTHING_SPENT, inner)


@dataclass(frozen=True)
class OdometerReturned(PrivacyFilter):
    """Wrong: returns the odometer's function itself, never run on the data."""

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        return self.odometer


def _stepped(step: type):
    def build(odometer, d_in, d_out):
        built = build_privacy_filter(odometer, d_in, d_out)
        return replace(built, function=StepFilter(odometer.function, d_in, d_out, step))
    return build


def build_filter_returns_odometer(odometer, d_in, d_out):
    return replace(build_privacy_filter(odometer, d_in, d_out),
                   function=OdometerReturned(odometer.function, d_in, d_out))


def build_filter_symmetric_in(odometer, d_in, d_out):
    return replace(build_privacy_filter(odometer, d_in, d_out), input_metric=SymmetricDistance())


def unguarded_bound(distance: Any, d_in: Any, d_out: Any) -> Any:
    """Wrong: ``d_out`` at every distance."""
    return d_out


def build_filter_unguarded_map(odometer, d_in, d_out):
    return replace(build_privacy_filter(odometer, d_in, d_out), privacy_map=Map(
        rule=unguarded_bound, params={"d_in": d_in, "d_out": d_out}))


def open_bound(distance: Any, d_in: Any, d_out: Any) -> Any:
    """Wrong: refuses ``distance = d_in`` too (``<`` where ``<=`` was meant)."""
    if ops.lt(distance, d_in) is False:
        raise FilterDistanceError(distance, d_in)
    return d_out


def build_filter_open_at_d_in(odometer, d_in, d_out):
    return replace(build_privacy_filter(odometer, d_in, d_out), privacy_map=Map(
        rule=open_bound, params={"d_in": d_in, "d_out": d_out}))


NEGATIVE_D_IN = (Precondition("d_in >= -1", lambda odometer, d_in, d_out: ops.le(-1, d_in),
                              lambda odometer, d_in, d_out: FilterArgumentError(
                                  "d_in", d_in, "a finite int or float >= -1")),
                 FILTER_PRECONDITIONS[1])
"""Wrong: a negative ``d_in`` down to -1 admitted (``d_out >= 0`` kept)."""


def validate_infinite_budget(odometer: Any, d_in: Any, d_out: Any) -> None:
    """Wrong: ``d_out = +inf`` passes the validation."""
    validate_filter(odometer, d_in, 1.0 if d_out == math.inf else d_out)


TWINS = {"output_domain": ("filter_returns_odometer", build_filter_returns_odometer),
         "compatibility": ("filter_symmetric_in", build_filter_symmetric_in),
         "budget": ("filter_nearest_check", _stepped(NearestStep)),
         "refusals": ("filter_refusal_charged", _stepped(ChargedStep)),
         "privacy": ("filter_unguarded_map", build_filter_unguarded_map)}
MORE_TWINS = {"filter_wrong_side": _stepped(WrongSideStep),
              "filter_forgets_d_in": _stepped(UnitDistanceStep)}

make_filter_returns_odometer = make_privacy_filter.variant("make_filter_returns_odometer",
                                                           build_filter_returns_odometer)
make_filter_symmetric_in = make_privacy_filter.variant("make_filter_symmetric_in",
                                                       build_filter_symmetric_in)
make_filter_nearest_check = make_privacy_filter.variant("make_filter_nearest_check",
                                                        TWINS["budget"][1])
make_filter_unguarded_map = make_privacy_filter.variant("make_filter_unguarded_map",
                                                        build_filter_unguarded_map)
make_filter_wrong_side = make_privacy_filter.variant("make_filter_wrong_side",
                                                     MORE_TWINS["filter_wrong_side"])
make_filter_refusal_charged = make_privacy_filter.variant("make_filter_refusal_charged",
                                                          TWINS["refusals"][1])
make_filter_forgets_d_in = make_privacy_filter.variant("make_filter_forgets_d_in",
                                                       MORE_TWINS["filter_forgets_d_in"])

make_filter_negative_d_in = Constructor("make_filter_negative_d_in", build_privacy_filter,
                                        NEGATIVE_D_IN, validate_filter)
make_filter_infinite_budget = Constructor("make_filter_infinite_budget", build_privacy_filter,
                                          FILTER_PRECONDITIONS, validate_infinite_budget)
make_filter_open_at_d_in = make_privacy_filter.variant("make_filter_open_at_d_in",
                                                       build_filter_open_at_d_in)
HOLES = {"filter_negative_d_in": "compatibility", "filter_infinite_budget": "compatibility",
         "filter_open_at_d_in": "privacy"}
"""Survivors of the mutation run (or, for a negative d_in, the held-out one's), each refuted
where its obligation now checks it: ``prefix: obligation``."""

MECHANISMS = [*twin_entries(globals(), privacy_filter_obligations, TWINS),
              *[Entry(f"make_{prefix}", globals()[f"make_{prefix}"],
                      privacy_filter_obligations(globals()[f"make_{prefix}"], prefix))
                for prefix in HOLES],
              *twin_entries(globals(), privacy_filter_obligations,
                            {prefix: (prefix, build) for prefix, build in MORE_TWINS.items()})]
EXPECTED_REFUTATIONS = {f"{prefix}.{suffix}" for suffix, (prefix, _) in TWINS.items()}
EXPECTED_REFUTATIONS |= {f"{prefix}.budget" for prefix in MORE_TWINS}
EXPECTED_REFUTATIONS |= {f"{prefix}.{suffix}" for prefix, suffix in HOLES.items()}
TWIN_OF = {f"privacy_filter.{suffix}": f"{prefix}.{suffix}"
           for suffix, (prefix, _) in TWINS.items()}
