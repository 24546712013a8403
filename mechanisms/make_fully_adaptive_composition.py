"""``make_fully_adaptive_composition(input_domain, input_metric, output_measure)``: an odometer.

``odometer(x)`` is a :class:`mechanisms.queryable.Queryable` on the dataset ``x``. Each query is a
measurement ``M_i`` with the odometer's input domain, input metric and output measure, chosen by
the analyst after seeing the earlier answers (fully adaptive: its map too); the queryable answers
``M_i(x)`` with fresh randomness and records ``M_i``'s privacy map. ``privacy_loss(d_in)`` reports
the privacy spent so far,

    ``L_k(d_in) = (...((0 + m_1(d_in)) + m_2(d_in)) ... + m_k(d_in))``,

each float addition rounded up (``ops.add_up``), so ``L_k(d_in) >= sum_i m_i(d_in)`` exactly, for
every number ``k`` of answered queries. The state is that left fold itself, a
:class:`mechanisms.core.Map`: answering ``M`` replaces the state ``L`` by
``d -> add_up(L(d), M.map(d))`` (:class:`OdometerStep`); nothing else changes it.

Fully adaptive composition of these measures: pure DP (Rogers, Roth, Ullman and Vadhan 2016,
privacy filters for basic composition; the losses of adaptively chosen epsilon-DP steps add) and
zCDP (Whitehouse, Ramdas, Rogers and Wu 2023, Renyi / zCDP filters): an interaction stopped
whenever ``sum_i m_i(d_in)`` would pass ``d_out`` is ``d_out``-private for ``d_in``-close
datasets, which is what ``make_privacy_filter`` builds on this odometer.

Refused queries (``QueryMismatchError``, raised before anything is recorded or run, decided by
the query alone): not a ``Measurement``; a different input domain, input metric or output
measure; an interactive query (output domain ``QueryableDomain``). Arguments: ``output_measure``
``MaxDivergence()`` or ``ZeroConcentratedDivergence()`` (``OdometerMeasureError``), an
``input_metric`` defined on ``input_domain`` (``OdometerMetricError``).

Differences from OpenDP 0.16: ours records one composed map, not a multiset of maps; the sum is
rounded up step by step (OpenDP's ``compose`` sums in the measure's float arithmetic, rounded
outward too); interactive queries are refused (OpenDP answers them and enforces sequentiality);
a query is charged before it is run (OpenDP after), so a query that raises is charged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement
from mechanisms.domains import QueryableDomain
from mechanisms.errors import (OdometerMeasureError, OdometerMetricError, QueryMismatchError)
from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence
from mechanisms.queryable import Odometer, Queryable, QueryRunner, Step

ODOMETER_MEASURES = (MaxDivergence, ZeroConcentratedDivergence)


def nothing_spent(d_in: Any) -> Any:
    """The loss of no query: ``0.0`` at every distance."""
    return 0.0


NOTHING_SPENT = Map(rule=nothing_spent)
"""The odometer's state before its first answer."""


def spent_after(d_in: Any, before: Map, last: Map) -> Any:
    """``before(d_in) + last(d_in)``, rounded up: the loss so far and one more query's map."""
    return ops.add_up(before(d_in), last(d_in))


@dataclass(frozen=True)
class OdometerStep:
    """The odometer's transition: a compatible query is accepted and its map added to the
    state (the composed map); a mismatched one raises ``QueryMismatchError`` before any change."""

    input_domain: Any
    input_metric: Any
    output_measure: Any

    def screen(self, query: Any) -> None:
        """Raise ``QueryMismatchError`` unless ``query`` is a non-interactive measurement of the
        odometer's input domain, input metric and output measure."""
        if not isinstance(query, Measurement):
            raise QueryMismatchError("type", "Measurement", type(query).__name__)
        for attribute in ("input_domain", "input_metric", "output_measure"):
            if getattr(query, attribute) != getattr(self, attribute):
                raise QueryMismatchError(attribute, getattr(self, attribute),
                                         getattr(query, attribute))
        if isinstance(query.output_domain, QueryableDomain):
            raise QueryMismatchError("output_domain", "a non-interactive output domain",
                                     query.output_domain)

    def __call__(self, state: Map, query: Any) -> Step:
        self.screen(query)
        return Step(True, Map(rule=spent_after, params={"before": state,
                                                        "last": query.privacy_map}))

    def refusal(self, state: Map, step: Step, query: Any) -> Exception:
        return QueryMismatchError("acceptance", "accepted", step.accepted)

    def privacy_loss(self, queryable: Queryable, d_in: Any) -> Any:
        return queryable.state(d_in)


@dataclass(frozen=True)
class OdometerFunction:
    """``(x, rng) -> Queryable(OdometerStep(...), NOTHING_SPENT, QueryRunner(x, rng))``."""

    input_domain: Any
    input_metric: Any
    output_measure: Any

    def __call__(self, arg: Any, rng: Any = None) -> Queryable:
        return Queryable(OdometerStep(self.input_domain, self.input_metric, self.output_measure),
                         NOTHING_SPENT, QueryRunner(arg, rng))


def validate_odometer(input_domain: Any, input_metric: Any, output_measure: Any) -> None:
    if not isinstance(output_measure, ODOMETER_MEASURES):
        raise OdometerMeasureError(output_measure)
    compatible = getattr(input_metric, "compatible", None)
    if compatible is None or not compatible(input_domain):
        raise OdometerMetricError(input_metric, input_domain)


def build_fully_adaptive_composition(input_domain: Any, input_metric: Any,
                                     output_measure: Any) -> Odometer:
    return Odometer(input_domain, input_metric, output_measure,
                    OdometerFunction(input_domain, input_metric, output_measure))


make_fully_adaptive_composition = Constructor(
    "make_fully_adaptive_composition", build_fully_adaptive_composition, (), validate_odometer)
