"""Gaussian with the map ``d^2 / scale^2`` (twice the catalogue's ``d^2 / (2 scale^2)``).

Correct (a larger map): rho-zCDP implies rho'-zCDP for every rho' >= rho; the map is rounded up
by ``div_up`` as the catalogue's.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_gaussian import build_gaussian, make_gaussian  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_gaussian"


def double_map(d_in, scale):
    d, s = ops.exact(d_in), ops.exact(scale)
    return ops.where(ops.eq(d_in, 0), 0, div_up(d * d, s * s))


def build(scale):
    return replace(build_gaussian(scale), privacy_map=Map(rule=double_map, params={"scale": scale}))


make_gauss_2x = make_gaussian.variant("make_gaussian_double_map", build)
MECHANISMS = [Entry("outsider_right_gaussian_double_map", make_gauss_2x)]


def check() -> str:
    n = 0
    for scale in (0.0, 0.3, 1.0, 2.5, 1e-3, 1e5):
        for d in range(6):
            assert make_gauss_2x(scale).map(d) >= make_gaussian(scale).map(d)
            n += 1
    return f"map >= make_gaussian's on {n} cases"
