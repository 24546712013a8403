"""Canonical noise whose tradeoff function is written with one ``min`` instead of the nested
``max``: ``f(alpha) = max(0, (1 - delta) - min(r alpha, (1 - delta)(1 - 1/r) + alpha / r))``
(a ``CanonicalNoise`` subclass replacing the static method ``tradeoff``).

Correct: with ``A = 1 - delta``, ``max(A - r alpha, (A - alpha)/r) = A - min(r alpha, A - (A -
alpha)/r)`` and ``A - (A - alpha)/r = A(1 - 1/r) + alpha/r``; so the function is the same
``f_{ln r, delta}`` exactly (rational arithmetic, no rounding), the same recursion, the same law.
Checked exactly (Fractions) against the catalogue's ``tradeoff`` on a grid of ``alpha`` in
``[0, 1]``, ratios and deltas, and on the tails ``t_j`` the sampler walks.
"""

import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.make_canonical_noise import (CanonicalNoise, build_canonical_noise,  # noqa: E402
                                             exp_ratio, fixed_point, make_canonical_noise,
                                             tradeoff)
from obligations.base import Entry  # noqa: E402
from obligations.make_canonical_noise import canonical_noise_obligations  # noqa: E402

CONSTRUCTOR = "make_canonical_noise"


def min_form_tradeoff(alpha, ratio, delta):
    keep = 1 - delta
    return ops.maximum(0, keep - ops.minimum(ratio * alpha, keep * (1 - 1 / ratio) + alpha / ratio))


@dataclass(frozen=True)
class MinFormNoise(CanonicalNoise):
    tradeoff = staticmethod(min_form_tradeoff)


def build(d_in, d_out):
    m = build_canonical_noise(d_in, d_out)
    f = m.function
    return replace(m, function=MinFormNoise(f.sensitivity, f.epsilon, f.delta))


make_cn_min = make_canonical_noise.variant("make_canonical_noise_min_form_tradeoff", build)
MECHANISMS = [Entry("outsider_right_cn_min_form_tradeoff", make_cn_min,
                    canonical_noise_obligations(make_cn_min, "outsider_right_cn_min_form_tradeoff"))]


def check() -> str:
    n = 0
    for eps in (2.0 ** -7, 0.3, 1.0, 5.0, 50.0):
        ratio = exp_ratio(eps)
        for delta in (Fraction(0), Fraction(1, 10**6), Fraction(1, 10), Fraction(1, 2)):
            for i in range(0, 101):
                alpha = Fraction(i, 100)
                assert min_form_tradeoff(alpha, ratio, delta) == tradeoff(alpha, ratio, delta)
                n += 1
            t = fixed_point(ratio, delta)
            for _ in range(30):
                a, b = min_form_tradeoff(1 - t, ratio, delta), tradeoff(1 - t, ratio, delta)
                assert a == b
                t = a
                n += 1
    return f"the min form equals the catalogue's tradeoff exactly on {n} points (grid and tails)"
