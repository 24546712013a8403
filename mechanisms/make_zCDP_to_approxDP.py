"""``make_zCDP_to_approxDP(measurement, delta)``: a rho-zCDP measurement as (epsilon, delta)-DP.

Same function, domains and input metric as ``measurement`` (whose output measure must be
``ZeroConcentratedDivergence``); output measure ``FixedSmoothedMaxDivergence``. Map
``d_in -> (epsilon, delta)`` with ``rho = measurement.map(d_in)`` and
``epsilon = rho + 2 sqrt(rho ln(1/delta))`` (Bun and Steinke 2016, Proposition 1.3: rho-zCDP
implies (epsilon, delta)-DP for every delta > 0), computed with each step rounded up:
``ln_up(1/delta)``, ``mul_up``, ``sqrt_up``, ``2 *`` (exact in floats), ``add_up``.

Precondition: ``0 < delta < 1`` (``DeltaError``). OpenDP's ``make_zCDP_to_approxDP`` returns a
privacy curve (``SmoothedMaxDivergence``) from the tighter conversion of Canonne, Kamath and
Steinke 2020; this one fixes delta up front and its epsilon is never below OpenDP's.
"""

from __future__ import annotations

from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.errors import CombinatorError, DeltaError
from mechanisms.measures import FixedSmoothedMaxDivergence, ZeroConcentratedDivergence


def approx_epsilon(rho: Any, delta: Any) -> Any:
    """``rho + 2 sqrt(rho ln(1/delta))``, each operation rounded up on floats."""
    log_term = ops.ln_up(1 / ops.exact(delta))
    return ops.add_up(rho, 2 * ops.sqrt_up(ops.mul_up(rho, log_term)))


def zcdp_to_approx_map(d_in: Any, inner: Map, delta: Any) -> tuple[Any, Any]:
    """``(approx_epsilon(inner(d_in), delta), delta)``."""
    return approx_epsilon(inner(d_in), delta), delta


def delta_in_range(measurement: Measurement, delta: Any) -> Any:
    return ops.all_of(ops.lt(0, delta), ops.lt(delta, 1))


def delta_error(measurement: Measurement, delta: Any) -> DeltaError:
    return DeltaError(delta)


ZCDP_TO_APPROX_PRECONDITIONS = (Precondition("0 < delta < 1", delta_in_range, delta_error),)


def validate_zcdp_to_approx(measurement: Any, delta: Any) -> None:
    if not isinstance(measurement, Measurement) or \
            not isinstance(measurement.output_measure, ZeroConcentratedDivergence):
        raise CombinatorError(f"make_zCDP_to_approxDP needs a zCDP Measurement, got {measurement!r}",
                              measurement=measurement)
    if isinstance(delta, bool) or not isinstance(delta, (int, float)):
        raise DeltaError(delta)


def build_zcdp_to_approx(measurement: Measurement, delta: Any) -> Measurement:
    return Measurement(
        input_domain=measurement.input_domain,
        output_domain=measurement.output_domain,
        input_metric=measurement.input_metric,
        output_measure=FixedSmoothedMaxDivergence(),
        function=measurement.function,
        privacy_map=Map(rule=zcdp_to_approx_map,
                        params={"inner": measurement.privacy_map, "delta": delta}),
    )


make_zCDP_to_approxDP = Constructor("make_zCDP_to_approxDP", build_zcdp_to_approx,
                                    ZCDP_TO_APPROX_PRECONDITIONS, validate_zcdp_to_approx)
