"""Laplace threshold that releases a key only when its noisy count is strictly above the
threshold, ``noisy > threshold``, with the catalogue's map.

Correct: on keys present in both maps the released values are post-processing of the noisy
counts (each key's pair (kept?, value) is a function of ``x(k) + Z_k``), so the epsilon part is
unchanged. A key in one map only, with count ``c``, ``|c| <= linf'``, is released with probability
``Pr[Z > threshold - c] <= Pr[Z >= threshold - c] <= Pr[Z >= threshold - linf']``, which the
catalogue's ``tail`` bounds: the union over the ``l0`` such keys is within ``delta``. Checked: the
exact release probability of a lone key (mpmath from the pmf) is at most the one of the
catalogue's rule and at most the claimed delta on a grid of (scale, threshold, count).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dl_cdf, mp  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.make_laplace_threshold import (ThresholdedNoise, build_laplace_threshold,  # noqa: E402
                                               make_laplace_threshold)
from mechanisms.samplers import sample_discrete_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_laplace_threshold import laplace_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_laplace_threshold"


@dataclass(frozen=True)
class StrictThresholdedNoise(ThresholdedNoise):
    @staticmethod
    def keep(noisy, threshold):
        return ops.lt(threshold, noisy)


def build(carrier, scale, threshold):
    return replace(build_laplace_threshold(carrier, scale, threshold),
                   function=StrictThresholdedNoise(scale, threshold, sample_discrete_laplace))


make_lt_strict = make_laplace_threshold.variant("make_laplace_threshold_strict_release", build)
MECHANISMS = [Entry("outsider_right_laplace_threshold_strict_release", make_lt_strict,
                    laplace_threshold_obligations(make_lt_strict,
                                                  "outsider_right_laplace_threshold_strict_release"))]


def check() -> str:
    n = 0
    for scale in (0.5, 1.0, 2.0, 7.0):
        for threshold in (0, 1, 3, 10, 40):
            m = make_lt_strict(int, scale, threshold)
            for c in range(0, 12):
                d = m.input_metric.distance({0: c}, {})
                strict = 1 - dl_cdf(threshold - c, scale)      # Pr[c + Z > T]
                loose = 1 - dl_cdf(threshold - c - 1, scale)   # Pr[c + Z >= T]
                assert strict <= loose <= mp(m.map(d)[1]) + mp(10) ** -30, (scale, threshold, c)
                n += 1
            assert m.function.keep(threshold + 1, threshold) and not m.function.keep(threshold, threshold)
    return f"lone-key release probability within the claimed delta on {n} cases"
