"""Canonical noise whose ratio ``r`` is ``e^eps`` computed with ``math.exp`` (the float nearest
``e^eps``, read exactly as a Fraction) instead of a certified rational lower bound: a
``CanonicalNoise`` subclass replacing ``exp_ratio``.

Wrong: the noise is then canonical for ``f_{ln r, 0}`` with ``ln r`` possibly *above* ``eps``
(round to nearest goes up half the time). At ``eps = 0.5``, ``math.exp(0.5)`` exceeds ``e^0.5``
(by 2.9e-17 relative). For canonical noise the one-sided tests are exact: with ``x = 0.0``,
``x' = 1.0 = Delta`` and the output event ``S = {out >= 0.75}`` (``N`` above the rounding
boundary ``b = 0.75 - 2^-54``, in ``(1/2, 3/2)``), ``Pr[M(x') in S] = r Pr[M(x) in S]`` exactly,
so ``Pr[M(x') in S] > e^eps Pr[M(x) in S] + 0`` and the claimed ``(0.5, 0.0)`` fails (by about
``1e-17`` in probability: a real, if small, violation; other ``eps`` overshoot more or less).
Computed with Fractions from the function's own ``exp_ratio``, ``fixed_point`` and ``tradeoff``;
``e^0.5`` bounded above by its Taylor sum plus remainder (Fractions).
Hole classes: 4 (a float computation where an exact bound is modelled).
"""

import math
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _canonical_cdf import exp_upper, tail_of_output  # noqa: E402
from mechanisms.make_canonical_noise import (CanonicalNoise, build_canonical_noise,  # noqa: E402
                                             make_canonical_noise)
from obligations.base import Entry  # noqa: E402
from obligations.make_canonical_noise import canonical_noise_obligations  # noqa: E402

CONSTRUCTOR = "make_canonical_noise"
CLASSES = (4,)


def nearest_exp_ratio(epsilon):
    return Fraction(math.exp(epsilon))


@dataclass(frozen=True)
class NearestExpNoise(CanonicalNoise):
    exp_ratio = staticmethod(nearest_exp_ratio)


def build(d_in, d_out):
    m = build_canonical_noise(d_in, d_out)
    f = m.function
    return replace(m, function=NearestExpNoise(f.sensitivity, f.epsilon, f.delta))


make_cn_nearest = make_canonical_noise.variant("make_canonical_noise_nearest_exp", build)
MECHANISMS = [Entry("outsider_cn_nearest_exp", make_cn_nearest,
                    canonical_noise_obligations(make_cn_nearest, "outsider_cn_nearest_exp"))]


def witness() -> str:
    m = make_cn_nearest(1.0, (0.5, 0.0))
    eps, delta = m.map(1.0)
    x, x2, y = 0.0, 1.0, 0.75
    assert m.input_metric.distance(x, x2) <= 1.0
    p, p2 = tail_of_output(m.function, x, y), tail_of_output(m.function, x2, y)
    e_eps_upper = exp_upper(Fraction(eps))                 # >= e^0.5
    assert p > 0 and p2 > e_eps_upper * p + Fraction(delta), (p, p2)
    return (f"eps 0.5, delta 0: Pr[M(1.0) >= 0.75] - e^0.5 Pr[M(0.0) >= 0.75] > "
            f"{float(p2 - e_eps_upper * p):.3e} > 0 (exact, r = math.exp(0.5))")
