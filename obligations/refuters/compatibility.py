"""The exact refutation of domain-metric compatibility: two members of a domain between which the
catalogue's metric paired with it has no distance (it raises, or returns what is not a
non-negative number), computed on the running code. For a transformation's output side the two
members are the outputs of two inputs."""

from __future__ import annotations

import math
from numbers import Real
from typing import Any

from mechanisms.core import Measurement, Transformation
from obligations.kernel.goals import require
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, Statement
from obligations.kernel.theorems import _REFUTER, Refutation
from obligations.refuters.base import METRICS_MODULE, exact, refuters, shown

REFUTE_RULE = "a distance undefined between two members of a domain"


def undefined(distance: Any) -> bool:
    """``distance`` is not a distance: not a non-negative number (``+inf`` included), nor a
    tuple of them (the metrics whose distance is a vector of norms)."""
    parts = distance if isinstance(distance, tuple) and distance else (distance,)
    return not all(isinstance(p, Real) and not isinstance(p, bool)
                   and (p == math.inf or exact(p) is not None and exact(p) >= 0) for p in parts)


def _sides(built: Any, x: Any, other: Any) -> list[tuple[str, Any, Any, Any, Any]]:
    """``(side, metric, domain, a, b)``: the inputs on the input side and, for a transformation
    that returns on both, its outputs on theirs."""
    sides = [("input", built.input_metric, built.input_domain, x, other)]
    if type(built) is Transformation:
        try:
            outputs = built.function(x), built.function(other)
        except Exception:  # noqa: BLE001 - no outputs to measure (the output domain's refuter)
            return sides
        sides.append(("output", built.output_metric, built.output_domain, *outputs))
    return sides


def _refuted(statement: Statement, built: Any, x: Any, other: Any, _d_in: Any,
             call: str) -> Refutation:
    subject = call or statement.subject
    require(REFUTE_RULE, statement.claim is Claim.COMPATIBILITY
            and type(built) in (Transformation, Measurement),
            f"the statement refuted is not the compatibility of {subject}")
    require(REFUTE_RULE, built.input_domain.member(x) and built.input_domain.member(other),
            f"{x!r} or {other!r} is not in the input domain of {subject}")
    for side, metric, domain, a, b in _sides(built, x, other):
        if type(metric).__module__ != METRICS_MODULE or not (domain.member(a) and domain.member(b)):
            continue
        try:
            distance = metric.distance(a, b)
        except Exception as error:  # noqa: BLE001 - the metric has no distance between them
            found = f"raises {type(error).__name__}: {error}"
        else:
            if not undefined(distance):
                continue
            found = f"returns {distance!r}, which is not a distance"
        witness = (f"{subject}: {side} metric {metric} between {shown(a)} and {shown(b)}, both in "
                   f"{domain}, {found}")
        return Refutation(_REFUTER, statement, REFUTE_RULE, witness, found, str(metric))
    raise RuleRefused(REFUTE_RULE, f"the catalogue's metrics of {subject} have a distance between "
                      f"{x!r} and {other!r} and between their outputs")


refute_object, refute_constructor = refuters(REFUTE_RULE, _refuted)
"""The refutation at two inputs of the compatibility of one object, or of a constructor."""
