"""Gaussian whose noise object is built with ``scale * scale`` ("the sampler takes the variance"),
while CKS's sampler takes sigma and the map is ``d^2 / (2 scale^2)``.

Wrong for ``scale < 1``: ``scale = 0.5`` draws sigma 0.25; the Renyi divergence of order 2 at
``d_in = 1`` is about 16 (computed with mpmath, truncated sums that only lower it), above
``2 map(1) = 4``, so the mechanism is not ``map(1)``-zCDP. (For ``scale > 1`` it adds more noise.)
Hole classes: 1 (the function's own copy of the scale is a transformed argument), 10 (shows only
for ``scale < 1``).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dg_renyi_lower, mp, sampler_scale  # noqa: E402
from mechanisms.make_discrete_laplace import IntegerNoise  # noqa: E402
from mechanisms.make_gaussian import build_gaussian, make_gaussian  # noqa: E402
from mechanisms.samplers import sample_discrete_gaussian  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_gaussian"
CLASSES = (1, 10)


def build(scale):
    return replace(build_gaussian(scale), function=IntegerNoise(scale * scale, sample_discrete_gaussian))


make_gauss_var = make_gaussian.variant("make_gaussian_variance", build)
MECHANISMS = [Entry("outsider_gaussian_variance_as_sigma", make_gauss_var)]


def witness() -> str:
    m = make_gauss_var(0.5)
    assert m.function.sampler is sample_discrete_gaussian
    sigma = sampler_scale(m.function)
    divergence = dg_renyi_lower(sigma, 1, 2)
    assert divergence > 2 * mp(m.map(1))
    return f"scale 0.5 (sigma drawn {sigma}): D_2 >= {float(divergence):.3f} > 2 rho = {2 * m.map(1)}"
