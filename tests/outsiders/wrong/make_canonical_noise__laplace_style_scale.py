"""Canonical noise whose function is built with the Laplace-style scale ``Delta / eps`` in place
of ``Delta`` (``CanonicalNoise(d_in / epsilon, epsilon, delta)``: "noise is calibrated to
sensitivity over epsilon"), the map unchanged.

Wrong for ``eps > 1``: the tradeoff of canonical noise already carries ``eps`` (``F`` for
``f_{ln r, delta}``, ``r ~ e^eps``, one unit of ``N`` per unit of sensitivity); scaling by
``1/eps`` shrinks the noise when ``eps > 1``. With ``eps = 4``, ``delta = 0``, ``Delta = 1``:
``x = 0.0`` vs ``x' = 1.0`` are ``N``-shifted by 4 units; for ``S = {out >= 0.625}`` (``N``
above ``4 b``, ``b = 0.625 - 2^-54``), ``Pr[M(x') in S] = 1 - F(4 (b - 1)) ~ 0.9997`` and
``Pr[M(x) in S] = 1 - F(4 b) ~ 6.0e-6``, a ratio of about ``1.6e5 > e^4 ~ 54.6`` (exact
Fractions, from the function's own ``sensitivity``, ``exp_ratio``, ``fixed_point`` and
``tradeoff``; ``e^4 <= 3^4``). (For ``eps <= 1`` the noise only grows: it passes tests run at
``eps = 1``.)
Hole classes: 1 (the function's own copy of the scale is a transformed argument), 10 (shows only
for ``eps > 1``).
"""

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _canonical_cdf import tail_of_output  # noqa: E402
from mechanisms.make_canonical_noise import (CanonicalNoise, build_canonical_noise,  # noqa: E402
                                             make_canonical_noise)
from obligations.base import Entry  # noqa: E402
from obligations.make_canonical_noise import canonical_noise_obligations  # noqa: E402

CONSTRUCTOR = "make_canonical_noise"
CLASSES = (1, 10)


def build(d_in, d_out):
    m = build_canonical_noise(d_in, d_out)
    epsilon, delta = d_out
    return replace(m, function=CanonicalNoise(d_in / epsilon, epsilon, delta))


make_cn_laplace = make_canonical_noise.variant("make_canonical_noise_laplace_style_scale", build)
MECHANISMS = [Entry("outsider_cn_laplace_style_scale", make_cn_laplace,
                    canonical_noise_obligations(make_cn_laplace, "outsider_cn_laplace_style_scale"))]


def witness() -> str:
    m = make_cn_laplace(1.0, (4.0, 0.0))
    eps, delta = m.map(1.0)
    x, x2, y = 0.0, 1.0, 0.625
    assert m.input_metric.distance(x, x2) <= 1.0
    p, p2 = tail_of_output(m.function, x, y), tail_of_output(m.function, x2, y)
    e_eps_upper = Fraction(3) ** 4                          # e^4 < 3^4
    assert p2 > e_eps_upper * p + Fraction(delta), (p, p2)
    return (f"eps 4, delta 0: Pr[M(1.0) >= 0.625] = {float(p2):.6f} > e^4 Pr[M(0.0) >= 0.625] "
            f"(< 81 * {float(p):.3e}): ratio {float(p2 / p):.4g}")
