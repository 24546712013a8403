"""Gaussian threshold whose noisy count is ``count - Z`` (a ``ThresholdedNoise`` subclass
replacing the static method ``shift``), the release rule and map unchanged.

Correct: the discrete Gaussian is symmetric, ``Pr[Z = z] = Pr[Z = -z]`` (its weight
``exp(-z^2 / (2 scale^2))`` is even), so ``-Z`` has the law of ``Z`` and ``count - Z`` the law
of ``count + Z``, independently per key: the mechanism's output law is the catalogue's. Checked:
the weight is even on every integer ``|z| <= 60`` at several scales (exactly: the exponent is the
same rational), and ``shift`` is ``count - noise`` on a grid; seeded runs release only keys
whose noisy count reaches the threshold.
"""

import random
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.make_gaussian_threshold import (build_gaussian_threshold,  # noqa: E402
                                                make_gaussian_threshold)
from mechanisms.make_laplace_threshold import ThresholdedNoise  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_gaussian_threshold import gaussian_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_gaussian_threshold"


@dataclass(frozen=True)
class SubtractedNoise(ThresholdedNoise):
    @staticmethod
    def shift(count, noise):
        return count - noise


def build(carrier, scale, threshold):
    m = build_gaussian_threshold(carrier, scale, threshold)
    f = m.function
    return replace(m, function=SubtractedNoise(f.scale, f.threshold, f.sampler))


make_gt_sub = make_gaussian_threshold.variant("make_gaussian_threshold_subtracted_noise", build)
MECHANISMS = [Entry("outsider_right_gt_subtracted_noise", make_gt_sub,
                    gaussian_threshold_obligations(make_gt_sub, "outsider_right_gt_subtracted_noise"))]


def check() -> str:
    n = 0
    for sigma in (Fraction(1, 2), Fraction(3), Fraction(17, 4)):
        for z in range(-60, 61):
            assert Fraction(z * z) / (2 * sigma * sigma) == Fraction((-z) * (-z)) / (2 * sigma * sigma)
            n += 1
    m = make_gt_sub(str, 2.0, 3)
    for count in range(-5, 6):
        for noise in range(-5, 6):
            assert m.function.shift(count, noise) == count - noise
    x = {"a": 0, "b": 3, "c": 10}
    for seed in range(20):
        out = m(x, random.Random(seed))
        assert set(out) <= set(x) and all(v >= 3 for v in out.values())
    return f"weight even on {n} points; shift = count - noise; releases only at or above threshold"
