"""Gaussian whose map lost a square: ``d^2 / (2 scale)``.

Wrong for ``scale < 1`` (for ``scale >= 1`` it is larger than the right map, so tests with
``scale = 1, 2, 10`` pass): at ``scale = 0.5``, ``map(1) = 1`` but the discrete Gaussian of
sigma 0.5 shifted by 1 has Renyi divergence of order 2 about 4 > ``2 map(1) = 2``.
Hole classes: 10 (shows only for ``scale < 1``).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dg_renyi_lower, mp, sampler_scale  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_gaussian import build_gaussian, make_gaussian  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_gaussian"
CLASSES = (10,)


def unsquared_map(d_in, scale):
    d = ops.exact(d_in)
    return ops.where(ops.eq(d_in, 0), 0, div_up(d * d, 2 * ops.exact(scale)))


def build(scale):
    return replace(build_gaussian(scale), privacy_map=Map(rule=unsquared_map, params={"scale": scale}))


make_gauss_sq = make_gaussian.variant("make_gaussian_missing_square", build)
MECHANISMS = [Entry("outsider_gaussian_missing_square", make_gauss_sq)]


def witness() -> str:
    m = make_gauss_sq(0.5)
    divergence = dg_renyi_lower(sampler_scale(m.function), 1, 2)
    assert divergence > 2 * mp(m.map(1))
    return f"scale 0.5: D_2 >= {float(divergence):.3f} > 2 rho = {2 * m.map(1)}"
