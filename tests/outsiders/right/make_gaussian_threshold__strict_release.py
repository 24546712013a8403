"""Gaussian threshold that releases a key only when its noisy count is *strictly* above the
threshold (``keep``: ``noisy > threshold``, a ``ThresholdedNoise`` subclass replacing the
static method ``keep``), with the catalogue's map.

Correct: for integer counts, ``noisy > T`` is ``noisy >= T + 1``, the catalogue's release rule at
threshold ``T + 1``. Keys in both maps: the release is post-processing of the noisy counts, the
same zCDP argument (``rho`` does not depend on the threshold). A key in one map only with
``|count| <= linf'`` is released with probability ``Pr[Z >= T + 1 - count] <= Pr[Z >= T -
linf']``, which the catalogue's delta already bounds (the tail is decreasing); so the map, computed
for ``T``, bounds the stricter release. Checked: ``keep`` agrees with ``noisy >= T + 1`` on all
integers near the threshold, the map is the catalogue's (same params), and the tail used by
delta is monotone (exact rationals: ``Pr[Z >= s + 1] <= Pr[Z >= s]`` is the tail of a
probability; checked on mpmath bounds for several scales and gaps).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _dg_tail import tail_lower, tail_upper  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.make_gaussian_threshold import (build_gaussian_threshold,  # noqa: E402
                                                make_gaussian_threshold)
from mechanisms.make_laplace_threshold import ThresholdedNoise  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_gaussian_threshold import gaussian_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_gaussian_threshold"


@dataclass(frozen=True)
class StrictRelease(ThresholdedNoise):
    @staticmethod
    def keep(noisy, threshold):
        return ops.lt(threshold, noisy)


def build(carrier, scale, threshold):
    m = build_gaussian_threshold(carrier, scale, threshold)
    f = m.function
    return replace(m, function=StrictRelease(f.scale, f.threshold, f.sampler))


make_gt_strict = make_gaussian_threshold.variant("make_gaussian_threshold_strict_release", build)
MECHANISMS = [Entry("outsider_right_gt_strict_release", make_gt_strict,
                    gaussian_threshold_obligations(make_gt_strict, "outsider_right_gt_strict_release"))]


def check() -> str:
    n = 0
    for threshold in (0, 1, 5, 40):
        ours = make_gt_strict(str, 1.5, threshold)
        theirs = make_gaussian_threshold(str, 1.5, threshold)
        for noisy in range(threshold - 5, threshold + 6):
            assert bool(ours.function.keep(noisy, threshold)) == bool(
                theirs.function.keep(noisy, threshold + 1))
            n += 1
        for d in ((1, 1, 1), (3, 5, 2), (2, 0, 0), (10, 10, 1)):
            assert ours.map(d) == theirs.map(d)
    for sigma in (0.5, 1, 3):
        for gap in range(-3, 8):
            assert tail_upper(sigma, gap + 1) < tail_lower(sigma, gap)
    return f"keep(noisy, T) == (noisy >= T + 1) on {n} integers; maps equal; tails decreasing"
