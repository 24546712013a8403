"""zCDP to approximate DP whose delta precondition reads ``0 < delta and delta < 0`` (a typo for
``delta < 1``), and whose map dropped the factor 2: ``rho + sqrt(rho ln(1/delta))``.

Wrong: no delta meets the precondition, so the constructor refuses every valid delta and every
property "for all admitted parameters" is vacuous — including the map, which is below Bun-Steinke's
bound (shown on the build itself).
Hole classes: 13 (a vacuous precondition).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import mp  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Constructor, Map, Precondition  # noqa: E402
from mechanisms.errors import DeltaError  # noqa: E402
from mechanisms.make_gaussian import make_gaussian  # noqa: E402
from mechanisms.make_zCDP_to_approxDP import (build_zcdp_to_approx, delta_error,  # noqa: E402
                                              validate_zcdp_to_approx)
from obligations.base import Entry  # noqa: E402
from obligations.make_zCDP_to_approxDP import zcdp_to_approx_obligations  # noqa: E402

CONSTRUCTOR = "make_zCDP_to_approxDP"
CLASSES = (13,)


def half_map(d_in, inner, delta):
    rho = inner(d_in)
    return ops.add_up(rho, ops.sqrt_up(ops.mul_up(rho, ops.ln_up(1 / ops.exact(delta))))), delta


def build(measurement, delta):
    m = build_zcdp_to_approx(measurement, delta)
    return replace(m, privacy_map=Map(rule=half_map, params={
        "inner": measurement.privacy_map, "delta": delta}))


def delta_in_range(measurement, delta):
    return ops.all_of(ops.lt(0, delta), ops.lt(delta, 0))


make_z2a_vacuous = Constructor("make_zCDP_to_approxDP_vacuous", build,
                               (Precondition("0 < delta < 1", delta_in_range, delta_error),),
                               validate_zcdp_to_approx)
MECHANISMS = [Entry("outsider_z2a_vacuous_delta", make_z2a_vacuous,
                    zcdp_to_approx_obligations(make_z2a_vacuous, "outsider_z2a_vacuous_delta"))]


def witness() -> str:
    inner = make_gaussian(1.0)
    refused = 0
    for delta in (1e-12, 1e-6, 0.01, 0.5, 0.999):
        try:
            make_z2a_vacuous(inner, delta)
        except DeltaError:
            refused += 1
    assert refused == 5
    epsilon, _ = build(inner, 1e-6).map(1)
    with mpmath.workdps(60):
        rho = mp(inner.map(1))
        bound = rho + 2 * mpmath.sqrt(rho * mpmath.log(1 / mp(1e-6)))
        assert mp(epsilon) < bound
    return f"every delta in (0, 1) refused (5 tried); the build's epsilon {epsilon:.4f} < BS bound {float(bound):.4f}"
