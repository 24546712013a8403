"""Approximate composition that sums the epsilons but takes the largest delta: map
``(sum eps_i, max delta_i)`` ("the deltas are failure probabilities of one bad event": the
union bound forgotten).

Wrong: the components' bad events are independent and their probabilities add up (to first
order). Two copies of ``make_laplace_threshold(str, 1.0, 1)`` on ``x = {"a": 0}`` and
``x' = {}`` (``d_in = (1, 0, 0)``): each is ``(0, t')``-DP there with ``t' ≈ t = Pr[Z >= 1] =
0.2689`` (each releases key ``a`` with probability ``t`` under ``x``, never under ``x'``). The
composition releases ``a`` in at least one component with probability
``1 - (1 - t)^2 = 0.4655`` under ``x`` and 0 under ``x'``: at the claimed ``epsilon = 0`` the least
delta is ``0.4655 > max(t', t') = 0.2689``.
Hole classes: none listed (a wrong map: max instead of sum, on the deltas).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import dl_cdf, mp  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_approxDP_composition import (build_approx_composition,  # noqa: E402
                                                  make_approxDP_composition)
from mechanisms.make_laplace_threshold import make_laplace_threshold  # noqa: E402
from mechanisms.make_partition_map import partition_bound  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_approxDP_composition import approx_composition_obligations  # noqa: E402

CONSTRUCTOR = "make_approxDP_composition"
CLASSES = ()


def add_eps_max_delta(total, part):
    return ops.add_up(total[0], part[0]), ops.maximum(total[1], part[1])


def build(measurements):
    return replace(build_approx_composition(measurements), privacy_map=Map(
        rule=partition_bound, params={"maps": tuple(m.privacy_map for m in measurements),
                                      "combine": add_eps_max_delta}))


make_ac_delta_max = make_approxDP_composition.variant("make_approxDP_composition_delta_max", build)
MECHANISMS = [Entry("outsider_approx_composition_delta_max", make_ac_delta_max,
                    approx_composition_obligations(make_ac_delta_max,
                                                   "outsider_approx_composition_delta_max"))]


def witness() -> str:
    component = make_laplace_threshold(str, 1.0, 1)
    m = make_ac_delta_max([component, component])
    x, y = {"a": 0}, {}
    d = m.input_metric.distance(x, y)
    eps, delta = m.map(d)
    assert eps == 0 and delta == component.map(d)[1]
    # each component releases "a" iff 0 + Z >= 1 (independent draws) under x, never under x'
    t = 1 - dl_cdf(0, 1)
    p_some = 1 - (1 - t) ** 2
    assert p_some - mpmath.e ** mp(eps) * 0 > mp(delta), (p_some, delta)
    return (f"two laplace_threshold(1.0, 1) on {x} vs {{}} (d_in {d}): map {(eps, delta)}, least delta "
            f"at eps 0 is {mpmath.nstr(p_some, 6)}")
