"""``make_privacy_filter(odometer, d_in, d_out)``: a measurement whose output is a queryable that
answers queries through ``odometer`` until its budget ``d_out`` would be passed.

``filter(x)`` is a :class:`mechanisms.queryable.Queryable` whose state is ``spent``, the privacy
spent at ``d_in`` (``0.0`` at first). A query ``M`` (a measurement the odometer accepts) costs
``c = M.map(d_in)``; the transition (:class:`FilterStep`) computes

    ``pending = add_up(spent, c)``  (the float sum rounded up, never below ``spent + c``),

accepts when ``pending <= d_out`` and then keeps ``pending`` as the new ``spent`` and passes the
query to the odometer's queryable (which answers it on the data); otherwise it keeps ``spent``
and raises ``BudgetExceededError``: nothing is run, nothing changes, later cheaper queries are
still answered. A cost that is ``+inf`` or NaN is refused (``pending`` is not ``<= d_out``).

Invariant, for every sequence of queries (any length, any maps, each chosen after the answers
before it): ``sum_i c_i <= spent <= d_out`` over the accepted queries, the sum exact; so the
adaptively chosen maps at ``d_in`` of the answered queries never sum past ``d_out``. By the
filter theorem (Rogers, Roth, Ullman and Vadhan 2016 for pure DP; Whitehouse, Ramdas, Rogers and
Wu 2023 for zCDP), the whole interaction is ``d_out``-DP (``d_out``-zCDP) for ``d_in``-close
datasets; each query's map at ``d_in`` bounds its loss for every pair at distance ``<= d_in``.
Privacy map: ``d -> d_out`` for ``d <= d_in``; ``FilterDistanceError`` above ``d_in``.

Preconditions: ``odometer`` an :class:`Odometer` (``FilterArgumentError``); ``d_in`` and
``d_out`` finite numbers ``>= 0``, ``bool`` and NaN refused (``FilterArgumentError``). The
filter's input domain, metric and measure are the odometer's.

Differences from OpenDP 0.16: a refused query leaves the filter as it was (OpenDP's filter is
exhausted after its first refusal and answers nothing more); the spent budget is a float sum
rounded up at each step (OpenDP asks the odometer for its composed loss); the map raises
``FilterDistanceError`` above ``d_in`` as OpenDP's does. A query the odometer would refuse
(``QueryMismatchError``) is refused by the filter's transition before anything is charged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import QueryableDomain
from mechanisms.errors import BudgetExceededError, FilterArgumentError, FilterDistanceError
from mechanisms.queryable import Odometer, Queryable, Step

NOTHING_SPENT = 0.0
"""A filter's ``spent`` before its first answer."""


@dataclass(frozen=True)
class FilterStep:
    """The filter's transition on ``spent``: charge ``query.map(d_in)``, rounded up; accept iff
    the result is ``<= d_out``; keep the old ``spent`` on a refusal."""

    d_in: Any
    d_out: Any
    screen: Any = None
    """The odometer's check of a query (``OdometerStep.screen``): a query it would refuse is
    refused here first, before anything is charged."""

    def __call__(self, spent: Any, query: Any) -> Step:
        if self.screen is not None:
            self.screen(query)
        pending = ops.add_up(spent, query.map(self.d_in))
        accepted = ops.le(pending, self.d_out)
        return Step(accepted, ops.where(accepted, pending, spent), pending)

    def refusal(self, spent: Any, step: Step, query: Any) -> Exception:
        return BudgetExceededError(step.pending, self.d_out, spent)

    def privacy_loss(self, queryable: Queryable, d_in: Any) -> Any:
        return queryable.respond.privacy_loss(d_in)


@dataclass(frozen=True)
class PrivacyFilter:
    """``(x, rng) -> Queryable(FilterStep(d_in, d_out, screen), 0.0, odometer(x, rng))``, the
    screen being the odometer queryable's own check of a query."""

    odometer: Any
    d_in: Any
    d_out: Any

    def __call__(self, arg: Any, rng: Any = None) -> Queryable:
        inner = self.odometer(arg, rng)
        return Queryable(FilterStep(self.d_in, self.d_out, inner.transition.screen),
                         NOTHING_SPENT, inner)


def filter_bound(distance: Any, d_in: Any, d_out: Any) -> Any:
    """``d_out`` for ``distance <= d_in``; a concrete distance above ``d_in`` raises
    ``FilterDistanceError`` (on solver terms the comparison is a term, and the goals assume
    ``distance <= d_in``)."""
    within = ops.le(distance, d_in)
    if within is False:
        raise FilterDistanceError(distance, d_in)
    return d_out


def _finite_number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def validate_filter(odometer: Any, d_in: Any, d_out: Any) -> None:
    if not isinstance(odometer, Odometer):
        raise FilterArgumentError("odometer", odometer,
                                  "an Odometer (make_fully_adaptive_composition)")
    for name, value in (("d_in", d_in), ("d_out", d_out)):
        if not _finite_number(value):
            raise FilterArgumentError(name, value, "a finite int or float >= 0")


def _nonnegative(name: str) -> Precondition:
    return Precondition(f"{name} >= 0", lambda odometer, d_in, d_out: ops.le(
        0, {"d_in": d_in, "d_out": d_out}[name]),
        lambda odometer, d_in, d_out: FilterArgumentError(
            name, {"d_in": d_in, "d_out": d_out}[name], "a finite int or float >= 0"))


FILTER_PRECONDITIONS = (_nonnegative("d_in"), _nonnegative("d_out"))


def build_privacy_filter(odometer: Odometer, d_in: Any, d_out: Any) -> Measurement:
    return Measurement(
        input_domain=odometer.input_domain,
        output_domain=QueryableDomain(),
        input_metric=odometer.input_metric,
        output_measure=odometer.output_measure,
        function=PrivacyFilter(odometer.function, d_in, d_out),
        privacy_map=Map(rule=filter_bound, params={"d_in": d_in, "d_out": d_out}),
    )


make_privacy_filter = Constructor("make_privacy_filter", build_privacy_filter,
                                  FILTER_PRECONDITIONS, validate_filter)
