"""zCDP to approximate DP computing ``rho + 2 sqrt(rho ln(1/delta))`` with the certified ``ln_up``,
but the square root as ``** 0.5`` and plain float ``*`` and ``+`` (all rounded to nearest).

Wrong: the product and the sum can round below the exact value, so the float epsilon falls below
Bun-Steinke's bound that the conversion claims. Witness: a Gaussian of scale 1.0 (``rho = 1/2``)
and ``delta = 0.1`` (found by a deterministic scan): the returned epsilon is below the exact bound
computed with mpmath at 60 digits.
Hole classes: 4 (maps computed in floats where exact is modelled).
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
CLASSES = (4,)


def nearest_map(d_in, inner, delta):
    rho = inner(d_in)
    log_term = ops.ln_up(1 / ops.exact(delta))
    return rho + 2 * (rho * log_term) ** 0.5, delta


def build(measurement, delta):
    m = build_zcdp_to_approx(measurement, delta)
    return replace(m, privacy_map=Map(rule=nearest_map, params={
        "inner": measurement.privacy_map, "delta": delta}))


make_z2a_nearest = make_zCDP_to_approxDP.variant("make_zCDP_to_approxDP_nearest", build)
MECHANISMS = [Entry("outsider_z2a_nearest_rounding", make_z2a_nearest,
                    zcdp_to_approx_obligations(make_z2a_nearest, "outsider_z2a_nearest_rounding"))]

SCALE, DELTA = 1.0, 0.1


def exact_epsilon(rho, delta):
    with mpmath.workdps(60):
        r, d = mp(rho), mp(delta)
        return r + 2 * mpmath.sqrt(r * mpmath.log(1 / d))


def witness() -> str:
    inner = make_gaussian(SCALE)
    m = make_z2a_nearest(inner, DELTA)
    epsilon, delta = m.map(1)
    with mpmath.workdps(60):
        bound = exact_epsilon(inner.map(1), DELTA)
        assert mp(epsilon) < bound, (epsilon, bound)
    return f"gaussian({SCALE}), delta {DELTA}: epsilon {epsilon!r} < exact bound {mpmath.nstr(bound, 20)}"
