"""``make_pureDP_to_approxDP(measurement)``: an epsilon-DP measurement as (epsilon, 0)-DP.

Same function, domains and input metric as ``measurement`` (whose output measure must be
``MaxDivergence``); output measure ``FixedSmoothedMaxDivergence``. Map
``d_in -> (measurement.map(d_in), 0)``: no arithmetic, the epsilon is the measurement's own value.

Why it holds: pure DP bounds every outcome, ``Pr[M(x) = y] <= exp(eps) Pr[M(x') = y]``; summing
over the outcomes of an event ``S`` gives ``Pr[M(x) in S] <= exp(eps) Pr[M(x') in S] + 0``
(Dwork and Roth 2014, Definition 2.4 with ``delta = 0``).

No precondition beyond the type check (``CombinatorError`` for anything but a pure-DP
``Measurement``). OpenDP 0.16's ``make_approximate`` returns a measure
``Approximate(MaxDivergence)`` and the map ``(eps, 0.0)``; ours returns the int ``0`` as the
delta (exact, and equal to ``0.0``).
"""

from __future__ import annotations

from typing import Any

from mechanisms.core import Constructor, Map, Measurement
from mechanisms.errors import CombinatorError
from mechanisms.measures import FixedSmoothedMaxDivergence, MaxDivergence


def pure_to_approx_map(d_in: Any, inner: Map) -> tuple[Any, Any]:
    """``(inner(d_in), 0)``."""
    return inner(d_in), 0


def validate_pure_to_approx(measurement: Any) -> None:
    if not isinstance(measurement, Measurement) or \
            not isinstance(measurement.output_measure, MaxDivergence):
        raise CombinatorError("make_pureDP_to_approxDP needs a pure-DP (MaxDivergence) "
                              f"Measurement, got {measurement!r}", measurement=measurement)


def build_pure_to_approx(measurement: Measurement) -> Measurement:
    return Measurement(
        input_domain=measurement.input_domain,
        output_domain=measurement.output_domain,
        input_metric=measurement.input_metric,
        output_measure=FixedSmoothedMaxDivergence(),
        function=measurement.function,
        privacy_map=Map(rule=pure_to_approx_map, params={"inner": measurement.privacy_map}),
    )


make_pureDP_to_approxDP = Constructor("make_pureDP_to_approxDP", build_pure_to_approx, (),
                                      validate_pure_to_approx)
