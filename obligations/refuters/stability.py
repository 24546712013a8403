"""The exact refutation of a transformation's stability: two inputs within ``d_in`` whose outputs,
computed by the running code, are farther apart in the output metric than ``map(d_in)``, every
distance computed exactly by the catalogue's own metrics."""

from __future__ import annotations

from typing import Any

from mechanisms.core import Transformation
from obligations.kernel.goals import require
from obligations.kernel.statements import Claim, Statement
from obligations.kernel.theorems import _REFUTER, Refutation
from obligations.refuters.base import METRICS_MODULE, exact, refuters, shown

REFUTE_RULE = "exact distance of a transformation's outputs"


def _refuted(statement: Statement, built: Any, dataset: Any, other: Any, d_in: Any,
             call: str) -> Refutation:
    """The outputs of the two inputs, computed by the running code, are farther apart in the
    output metric than ``map(d_in)``, both distances computed exactly by the catalogue's
    metrics; ``statement`` is known to be about ``built``."""
    subject = call or statement.subject
    require(REFUTE_RULE, statement.claim is Claim.STABILITY and type(built) is Transformation,
            f"the statement refuted is not the stability of the transformation {subject}")
    require(REFUTE_RULE, all(type(m).__module__ == METRICS_MODULE
                             for m in (built.input_metric, built.output_metric)),
            f"the metrics of {subject} are not the catalogue's")
    require(REFUTE_RULE, built.input_domain.member(dataset) and built.input_domain.member(other),
            f"{dataset!r} or {other!r} is not in the input domain of {subject}")
    distance = built.input_metric.distance(dataset, other)
    require(REFUTE_RULE, exact(distance) is not None and exact(distance) <= exact(d_in),
            f"{dataset!r} and {other!r} are at distance {distance} > {d_in}")
    claimed = built.map(d_in)
    outputs = (built.function(dataset), built.function(other))
    d_out = built.output_metric.distance(*outputs)
    require(REFUTE_RULE, exceeds(d_out, claimed),
            f"d_out = {d_out} does not exceed map({d_in}) = {claimed!r}")
    witness = (f"{subject}: {shown(dataset)} and {shown(other)} at distance {distance} <= d_in = "
               f"{d_in}; "
               f"outputs {outputs[0]!r} and {outputs[1]!r} at distance {d_out} > map({d_in}) = "
               f"{claimed!r}")
    return Refutation(_REFUTER, statement, REFUTE_RULE, witness, d_out, claimed)


def exceeds(d_out: Any, claimed: Any) -> bool:
    """``d_out <= claimed`` fails, computed exactly: for a number, ``d_out`` is larger (or
    infinite where ``claimed`` is finite); for pairs and triples (``(l0, l1, linf)``), which are
    bounded component by component, some component is."""
    if isinstance(d_out, tuple) or isinstance(claimed, tuple):
        return isinstance(d_out, tuple) and isinstance(claimed, tuple) \
            and len(d_out) == len(claimed) and any(map(exceeds, d_out, claimed))
    return exact(claimed) is not None and (
        d_out == float("inf") or exact(d_out) is not None and exact(d_out) > exact(claimed))


refute_stability, refute_stability_of_constructor = refuters(REFUTE_RULE, _refuted)
"""The refutation at two inputs of the stability of one transformation, or of a constructor."""
