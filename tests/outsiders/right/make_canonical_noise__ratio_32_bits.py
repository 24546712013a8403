"""Canonical noise whose ratio ``r`` is the certified lower bound of ``e^eps`` rounded down to 32
fractional bits instead of 64 (shorter rationals, a faster sampler): a ``CanonicalNoise``
subclass replacing ``exp_ratio`` with ``floor(exp_lower_bound(eps) 2^32) / 2^32``.

Correct: ``r_32 <= r_64 <= e^eps``, so the noise is canonical for ``f_{ln r_32, delta}`` with
``ln r_32 <= eps``: ``(ln r_32, delta)``-DP, hence ``(eps, delta)``-DP (the map). The tradeoff
stays non-trivial (``c < 1/2``): ``eps >= 2^-7`` gives ``e^eps > 1.0078``, so ``r_32 > 1 >=
1 - 2 delta``. Checked exactly on a grid of epsilons from ``2^-7`` to 512 (and the validated
``(eps, delta)`` pairs): ``1 < r_32 <= `` the catalogue's ``r``, and ``2 c < 1``.
"""

import math
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.arith import exp_lower_bound  # noqa: E402
from mechanisms.make_canonical_noise import (CanonicalNoise, build_canonical_noise,  # noqa: E402
                                             exp_ratio, fixed_point, make_canonical_noise)
from obligations.base import Entry  # noqa: E402
from obligations.make_canonical_noise import canonical_noise_obligations  # noqa: E402

CONSTRUCTOR = "make_canonical_noise"


def exp_ratio_32(epsilon):
    """``floor(exp_lower_bound(eps) 2^32) / 2^32 <= e^eps``."""
    scale = 2 ** 32
    return Fraction(math.floor(exp_lower_bound(Fraction(epsilon)) * scale), scale)


@dataclass(frozen=True)
class Ratio32Noise(CanonicalNoise):
    exp_ratio = staticmethod(exp_ratio_32)


def build(d_in, d_out):
    m = build_canonical_noise(d_in, d_out)
    f = m.function
    return replace(m, function=Ratio32Noise(f.sensitivity, f.epsilon, f.delta))


make_cn_r32 = make_canonical_noise.variant("make_canonical_noise_ratio_32_bits", build)
MECHANISMS = [Entry("outsider_right_cn_ratio_32_bits", make_cn_r32,
                    canonical_noise_obligations(make_cn_r32, "outsider_right_cn_ratio_32_bits"))]


def check() -> str:
    epsilons = [2.0 ** -7, 0.01, 0.1, 0.5, 1.0, 2.0, 10.0, 100.0, 511.9, 512.0]
    for eps in epsilons:
        ours, theirs = exp_ratio_32(eps), exp_ratio(eps)
        assert 1 < ours <= theirs, eps
        for delta in (0.0, 1e-9, 0.1, 0.9):
            assert 2 * fixed_point(ours, Fraction(delta)) < 1
    m = make_cn_r32(1.0, (1.0, 1e-6))
    assert m.function.exp_ratio(1.0) == exp_ratio_32(1.0) and m.map(1.0) == (1.0, 1e-6)
    return f"1 < r_32 <= the catalogue's r (<= e^eps) and 2c < 1 on {len(epsilons)} epsilons"
