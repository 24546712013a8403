"""Vector Gaussian whose noise object draws the discrete *Laplace* of the same scale per coordinate
(``VectorNoise(scale, sample_discrete_laplace)``, the vector Laplace's kernel), keeping the zCDP
map ``(d_in / scale)^2 / 2``.

Correct, though not a Gaussian: one coordinate shifted by ``D`` under discrete Laplace noise of
scale ``s`` is ``|D|/s``-DP (pure), and ``eps``-DP implies ``eps^2/2``-zCDP (Bun and Steinke 2016,
Proposition 1.4), so the coordinate is ``D^2 / (2 s^2)``-zCDP; Renyi divergences of independent
coordinates add: ``||v - v'||_2^2 / (2 s^2) <= map(d_in)``. Checked: the Renyi divergence of the
discrete Laplace at integer shift ``D``, in closed form (three geometric sums: ``y <= 0``,
``0 < y < D``, ``y >= D``, no truncation) at 60 digits, is ``<= alpha D^2 / (2 s^2)`` on a grid
of orders, shifts and scales, with the scale read from the running ``__call__``.
"""

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import Recorder  # noqa: E402
from mechanisms.make_vector_gaussian import build_vector_gaussian, make_vector_gaussian  # noqa: E402
from mechanisms.make_vector_laplace import VectorNoise  # noqa: E402
from mechanisms.samplers import sample_discrete_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_vector_gaussian"


def build(scale):
    return replace(build_vector_gaussian(scale),
                   function=VectorNoise(scale, sample_discrete_laplace))


make_vg_lap = make_vector_gaussian.variant("make_vector_gaussian_laplace_sampler", build)
MECHANISMS = [Entry("outsider_right_vg_laplace_sampler", make_vg_lap)]


def dlap_renyi(scale, shift, alpha):
    """``D_alpha(DLap(0, s) || DLap(shift, s))`` in closed form, ``shift >= 1``."""
    s = mpmath.mpf(Fraction(scale).numerator) / Fraction(scale).denominator
    a = mpmath.mpf(Fraction(alpha).numerator) / Fraction(alpha).denominator
    q, d = mpmath.e ** (-1 / s), shift
    c = (1 - q) / (1 + q)
    low = q ** ((1 - a) * d) / (1 - q)                         # y <= 0
    middle = sum(q ** ((2 * a - 1) * y + (1 - a) * d) for y in range(1, d))
    high = q ** ((a - 1) * d + d) / (1 - q)                   # y >= d
    return mpmath.log(c * (low + middle + high)) / (a - 1)


def check() -> str:
    with mpmath.workdps(60):
        n = 0
        for scale in (0.25, 0.5, 1.0, 3.0, 10.0):
            m = make_vg_lap(scale)
            recorder = Recorder()
            replace(m.function, sampler=recorder)([0, 0], None)
            assert recorder.scales == [scale, scale]
            for shift in (1, 2, 3, 5):
                rho = mpmath.mpf(shift) ** 2 / (2 * mpmath.mpf(scale) ** 2)
                assert rho <= m.map(shift)
                for alpha in (Fraction(101, 100), Fraction(3, 2), 2, 3, 5, 10, 50):
                    bound = mpmath.mpf(Fraction(alpha).numerator) / Fraction(alpha).denominator * rho
                    assert dlap_renyi(scale, shift, alpha) <= bound, (scale, shift, alpha)
                    n += 1
    return f"D_alpha(discrete Laplace, shift D) <= alpha D^2/(2 s^2) on {n} (scale, D, alpha)"
