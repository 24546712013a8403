"""Gaussian threshold that draws one discrete Gaussian per release and adds it to every count
(``z = sampler(scale, rng)`` hoisted out of the loop over keys, "the keys are disjoint, so one
draw is enough": a ``ThresholdedNoise`` subclass whose ``__call__`` samples once).

Wrong: the noise cancels in differences, so the released histogram reveals ``x(a) - x(b)``
exactly. With scale 1, threshold 50: ``x = {"a": 100, "b": 100}`` vs ``x' = {"a": 101,
"b": 100}`` are at ``(1, 1, 1)``; the map claims ``rho = 0.5`` and ``delta = e^-1152 / 2``. The
event ``S`` = "both keys released with equal values" has probability ``Pr[Z >= -50] > 0.999``
under ``x`` and 0 under ``x'`` (their values always differ by 1). Under delta-approximate zCDP,
``Pr[M(x) in S] <= delta + e^eps Pr[M(x') in S] / (1 - delta) + delta' = delta + delta'`` for
every ``delta' > 0``, so ``delta`` would have to be ``> 0.999``.
Hole classes: 2 (a subclass overrides ``__call__``), 7 (a sampler whose law is wrong: the
coordinates are not independent).
"""

import random
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _dg_tail import tail_lower  # noqa: E402
from mechanisms.make_gaussian_threshold import (build_gaussian_threshold,  # noqa: E402
                                                make_gaussian_threshold)
from mechanisms.make_laplace_threshold import ThresholdedNoise  # noqa: E402
from mechanisms.samplers import system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_gaussian_threshold import gaussian_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_gaussian_threshold"
CLASSES = (2, 7)


@dataclass(frozen=True)
class SharedNoise(ThresholdedNoise):
    def __call__(self, counts, rng=None):
        rng, scale = system_rng(rng), Fraction(self.scale)
        noise = self.sampler(scale, rng)
        released = {}
        for key, count in counts.items():
            noisy = self.shift(count, noise)
            if self.keep(noisy, self.threshold):
                released[key] = noisy
        return released


def build(carrier, scale, threshold):
    m = build_gaussian_threshold(carrier, scale, threshold)
    f = m.function
    return replace(m, function=SharedNoise(f.scale, f.threshold, f.sampler))


make_gt_shared = make_gaussian_threshold.variant("make_gaussian_threshold_shared_noise", build)
MECHANISMS = [Entry("outsider_gt_shared_noise", make_gt_shared,
                    gaussian_threshold_obligations(make_gt_shared, "outsider_gt_shared_noise"))]


def witness() -> str:
    m = make_gt_shared(str, 1.0, 50)
    x, x2 = {"a": 100, "b": 100}, {"a": 101, "b": 100}
    d = m.input_metric.distance(x, x2)
    assert tuple(d) == (1, 1, 1), d
    rho, delta = m.map(d)
    # the running function draws once per call: every key gets the same noise
    calls = []
    recording = replace(m.function, sampler=lambda scale, rng: calls.append(scale) or 0)
    assert recording(x, random.Random(0)) == x and len(calls) == 1
    for seed in range(30):
        y, y2 = m(x, random.Random(seed)), m(x2, random.Random(seed + 1000))
        assert len(y) != 2 or y["a"] == y["b"]
        assert len(y2) != 2 or y2["a"] == y2["b"] + 1
    in_s = tail_lower(1, -50)          # Pr[100 + Z >= 50]: both keys released, equal values
    assert in_s > delta + 1e-9, (in_s, delta)
    return (f"scale 1, threshold 50: {x} vs {x2} at {d}: 'both released, equal' has probability "
            f">= {float(in_s):.6f} under x, 0 under x'; claimed (rho, delta) = {(rho, delta)}")
