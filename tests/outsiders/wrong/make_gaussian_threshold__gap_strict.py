"""Gaussian threshold whose delta treats only a *negative* gap as hopeless:
``delta = 1 if threshold - linf' < 0`` (``ops.lt``) instead of ``<= 0`` (``ops.le``), the rest of
the catalogue's map unchanged.

Wrong at ``gap = threshold - linf' = 0``: the tail term is then ``l0 / (2 exp_lower(0)) =
l0 / 2``, but a key present in one map only with count ``c = linf'`` is released when
``c + Z >= threshold``, i.e. ``Z >= 0``, which has probability ``(1 + Pr[Z = 0]) / 2 > 1/2``.
With ``threshold = 0``, scale 1: ``x = {"a": 0}`` vs ``x' = {}`` are at ``(1, 0, 0)``, the map
claims ``(0, 0.5)``; the event "key a is released" has probability ``> 0.699`` under ``x`` and 0
under ``x'``. Under delta-approximate zCDP, ``Pr[M(x) in S] <= delta + e^eps Pr[M(x') in S] /
(1 - delta) + delta'`` for every ``delta' > 0`` (``eps`` from Bun-Steinke's conversion on the
conditioned pair), so ``delta >= 0.699 > 0.5``.
Hole classes: 10 (shows only at the boundary gap = 0).
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
                                                gaussian_tail_denominator,
                                                make_gaussian_threshold)
from mechanisms.make_laplace_threshold import threshold_sensitivities  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_gaussian_threshold import gaussian_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_gaussian_threshold"
CLASSES = (10,)


def strict_gap_map(d_in, scale, threshold, exp_lower):
    l0, l1, linf = threshold_sensitivities(d_in)
    exact_scale = ops.exact(scale)
    rho = div_up(l1 * linf, 2 * exact_scale * exact_scale)
    gap = threshold - linf
    tail_bound = div_up(l0, gaussian_tail_denominator(gap, scale, exp_lower))
    delta = ops.where(ops.eq(l0, 0), 0.0,
                      ops.where(ops.lt(gap, 0), 1.0, ops.minimum(1.0, tail_bound)))
    return rho, delta


def build(carrier, scale, threshold):
    m = build_gaussian_threshold(carrier, scale, threshold)
    return replace(m, privacy_map=Map(rule=strict_gap_map, params=m.privacy_map.params))


make_gt_gap = make_gaussian_threshold.variant("make_gaussian_threshold_gap_strict", build)
MECHANISMS = [Entry("outsider_gt_gap_strict", make_gt_gap,
                    gaussian_threshold_obligations(make_gt_gap, "outsider_gt_gap_strict"))]


def witness() -> str:
    m = make_gt_gap(str, 1.0, 0)
    x, x2 = {"a": 0}, {}
    assert m.input_domain.member(x) and m.input_domain.member(x2)
    d = m.input_metric.distance(x, x2)
    assert tuple(d) == (1, 0, 0), d
    rho, delta = m.map(d)
    released = tail_lower(1, 0)        # Pr[0 + Z >= 0] under x; never under x' (no key)
    assert released > delta, (released, delta)
    assert all("a" not in m(x2, random.Random(s)) for s in range(20))
    return (f"threshold 0, scale 1: {x} vs {x2} at {d}: key 'a' released with probability "
            f">= {float(released):.4f} against 0, claimed (rho, delta) = {(rho, delta)}")
