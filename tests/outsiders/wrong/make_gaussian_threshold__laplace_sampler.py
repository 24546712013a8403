"""Gaussian threshold built by copying ``build_laplace_threshold`` and changing the measure and
the map, but not the sampler: ``ThresholdedNoise(scale, threshold, sample_discrete_laplace)``.

Wrong: the rho part survives by luck (discrete Laplace of scale ``b`` is ``(D/b)``-DP, hence
``D^2/(2 b^2)``-zCDP, the claimed rho), but delta bounds a Gaussian tail and the Laplace tail is
far heavier. With scale 1, threshold 10: ``x = {"a": 1}`` vs ``x' = {}`` are at ``(1, 1, 1)``,
gap 9, the map claims ``delta = e^-32 / 2 ~ 6.3e-15``; the key is released under ``x`` iff
``Z >= 9``, probability ``e^-9 / (1 + e^-1) ~ 9.0e-5`` for the discrete Laplace, and never
under ``x'``: ``delta >= 9.0e-5`` (the event argument of approximate zCDP with
``Pr[M(x') in S] = 0``). The running function's sampler is checked to be the Laplace one by
running it with a recording stand-in.
Hole classes: 7 (a sampler whose law is wrong).
"""

import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dl_cdf  # noqa: E402
from mechanisms.make_gaussian_threshold import (build_gaussian_threshold,  # noqa: E402
                                                make_gaussian_threshold)
from mechanisms.make_laplace_threshold import ThresholdedNoise  # noqa: E402
from mechanisms.samplers import sample_discrete_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_gaussian_threshold import gaussian_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_gaussian_threshold"
CLASSES = (7,)


def build(carrier, scale, threshold):
    return replace(build_gaussian_threshold(carrier, scale, threshold),
                   function=ThresholdedNoise(scale, threshold, sample_discrete_laplace))


make_gt_lap = make_gaussian_threshold.variant("make_gaussian_threshold_laplace_sampler", build)
MECHANISMS = [Entry("outsider_gt_laplace_sampler", make_gt_lap,
                    gaussian_threshold_obligations(make_gt_lap, "outsider_gt_laplace_sampler"))]


def witness() -> str:
    m = make_gt_lap(str, 1.0, 10)
    assert m.function.sampler is sample_discrete_laplace
    x, x2 = {"a": 1}, {}
    d = m.input_metric.distance(x, x2)
    assert tuple(d) == (1, 1, 1), d
    rho, delta = m.map(d)
    released = 1 - dl_cdf(8, 1)          # Pr[1 + Z >= 10] = Pr[Z >= 9], discrete Laplace(1)
    assert released > delta * 10 ** 9, (released, delta)
    assert all(m(x2, random.Random(s)) == {} for s in range(10))
    return (f"scale 1, threshold 10: {x} vs {x2} at {d}: key 'a' released with probability "
            f"{float(released):.3e} against 0, claimed (rho, delta) = {(rho, delta)}")
