"""zCDP to approximate DP computing ``2 sqrt(rho ln(1/delta))`` as ``sqrt(4 rho ln(1/delta))``,
with ``mul_up``, ``sqrt_up`` and ``add_up``.

Correct: ``sqrt(4 x) = 2 sqrt(x)`` exactly, and every step rounds up (``4 *`` of a float is exact
or overflows to inf), so the result is never below Bun-Steinke's ``rho + 2 sqrt(rho ln(1/delta))``.
Checked against that bound in mpmath at 60 digits.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import mp  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_gaussian import make_gaussian  # noqa: E402
from mechanisms.make_zCDP_to_approxDP import build_zcdp_to_approx, make_zCDP_to_approxDP  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_zCDP_to_approxDP import zcdp_to_approx_obligations  # noqa: E402

CONSTRUCTOR = "make_zCDP_to_approxDP"


def four_map(d_in, inner, delta):
    rho = inner(d_in)
    log_term = ops.ln_up(1 / ops.exact(delta))
    return ops.add_up(rho, ops.sqrt_up(ops.mul_up(4 * rho, log_term))), delta


def build(measurement, delta):
    return replace(build_zcdp_to_approx(measurement, delta), privacy_map=Map(
        rule=four_map, params={"inner": measurement.privacy_map, "delta": delta}))


make_z2a_four = make_zCDP_to_approxDP.variant("make_zCDP_to_approxDP_sqrt_four", build)
MECHANISMS = [Entry("outsider_right_z2a_sqrt_of_four", make_z2a_four,
                    zcdp_to_approx_obligations(make_z2a_four, "outsider_right_z2a_sqrt_of_four"))]


def check() -> str:
    n = 0
    with mpmath.workdps(60):
        for scale in (0.5, 1.0, 3.0, 7.0, 0.3):
            inner = make_gaussian(scale)
            for delta in [10.0 ** -k for k in range(1, 13)] + [0.3, 0.9]:
                epsilon, _ = make_z2a_four(inner, delta).map(1)
                rho = mp(inner.map(1))
                assert mp(epsilon) >= rho + 2 * mpmath.sqrt(rho * mpmath.log(1 / mp(delta)))
                n += 1
    return f"epsilon >= Bun-Steinke's bound (60 digits) on {n} (scale, delta) cases"
