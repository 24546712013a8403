"""Gaussian threshold whose delta bounds the discrete tail by the *continuous* Gaussian tail at
the gap itself, ``Pr[Z >= s] <= exp(-s^2 / (2 scale^2)) / 2`` (dropping Canonne-Kamath-Steinke's
shift ``s - 1``: "the discrete Gaussian is a rounded Gaussian, its tail is the same").

Wrong for small scales: the discrete Gaussian puts more mass on its first lattice points than
the continuous tail allows. With ``scale = 0.5``, ``threshold = 2``: ``x = {"a": 1}`` vs
``x' = {}`` are at ``(1, 1, 1)``, gap ``s = 1``, the map claims ``delta = e^-2 / 2 ~ 0.0677``; the
key is released under ``x`` iff ``Z >= 1``, with probability ``(e^-2 + e^-8 + ...) / (1 + 2e^-2
+ ...) > 0.106``, and never under ``x'``: ``delta >= 0.106`` (the event argument of
approximate zCDP, with ``Pr[M(x') in S] = 0``). (For ``scale >= 1`` the bound happens to hold
at small gaps, which is why it survives a test at ``scale = 1``.)
Hole classes: 10 (shows only for ``scale < 1``).
"""

import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _dg_tail import tail_lower  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_gaussian_threshold import (build_gaussian_threshold,  # noqa: E402
                                                make_gaussian_threshold)
from mechanisms.make_laplace_threshold import threshold_sensitivities  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_gaussian_threshold import gaussian_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_gaussian_threshold"
CLASSES = (10,)


def continuous_tail_map(d_in, scale, threshold, exp_lower):
    l0, l1, linf = threshold_sensitivities(d_in)
    exact_scale = ops.exact(scale)
    rho = div_up(l1 * linf, 2 * exact_scale * exact_scale)
    gap = threshold - linf
    shifted = ops.maximum(gap, 0)
    denominator = 2 * exp_lower(shifted * shifted / (2 * exact_scale * exact_scale))
    tail_bound = div_up(l0, denominator)
    delta = ops.where(ops.eq(l0, 0), 0.0,
                      ops.where(ops.le(gap, 0), 1.0, ops.minimum(1.0, tail_bound)))
    return rho, delta


def build(carrier, scale, threshold):
    m = build_gaussian_threshold(carrier, scale, threshold)
    return replace(m, privacy_map=Map(rule=continuous_tail_map, params=m.privacy_map.params))


make_gt_cont = make_gaussian_threshold.variant("make_gaussian_threshold_continuous_tail", build)
MECHANISMS = [Entry("outsider_gt_continuous_tail", make_gt_cont,
                    gaussian_threshold_obligations(make_gt_cont, "outsider_gt_continuous_tail"))]


def witness() -> str:
    m = make_gt_cont(str, 0.5, 2)
    x, x2 = {"a": 1}, {}
    d = m.input_metric.distance(x, x2)
    assert tuple(d) == (1, 1, 1), d
    rho, delta = m.map(d)
    released = tail_lower(0.5, 1)      # Pr[1 + Z >= 2] under x; never under x'
    assert released > delta, (released, delta)
    assert all("a" not in m(x2, random.Random(s)) for s in range(20))
    return (f"scale 0.5, threshold 2: {x} vs {x2} at {d}: key 'a' released with probability "
            f">= {float(released):.4f} against 0, claimed (rho, delta) = {(rho, delta)}")
