"""Float Gaussian whose map is copied from the float Laplace, ``(d_in + 2^k - 2^-1074) / scale``
(an epsilon where a rho is due: "both are d_in over scale, up to constants").

Wrong for ``d_in > 2 scale`` roughly: the Gaussian's rho grows as ``d^2 / (2 scale^2)``, the
copied map only linearly. At ``k = 0``, ``scale = 1``, the inputs ``0.0`` and ``4.0`` are four
grid steps apart (read from the real function) under a discrete Gaussian with ``sigma = 1``:
the Renyi divergence of order 2 is about 16 (mpmath, truncated sums that only lower it), above
``2 map(4) = 10``.
Hole classes: none listed (a wrong map constant: the Laplace map on a zCDP measure; holds only
for small d_in).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dg_renyi_lower, mp  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_float_gaussian import build_float_gaussian, make_float_gaussian  # noqa: E402
from mechanisms.make_laplace import float_units, laplace_float_map  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_float_gaussian import float_gaussian_obligations  # noqa: E402

CONSTRUCTOR = "make_float_gaussian"
CLASSES = ()


def build(scale, k=-1074):
    m = build_float_gaussian(scale, k)
    return replace(m, privacy_map=Map(rule=laplace_float_map, params=dict(m.privacy_map.params)))


make_fg_lapmap = make_float_gaussian.variant("make_float_gaussian_laplace_map", build)
MECHANISMS = [Entry("outsider_fg_laplace_map", make_fg_lapmap,
                    float_gaussian_obligations(make_fg_lapmap, "outsider_fg_laplace_map"))]


def witness() -> str:
    m = make_fg_lapmap(1.0, 0)
    f = m.function
    x, y = 0.0, 4.0
    i = f.grid_index(float_units(x), f.multiple)
    j = f.grid_index(float_units(y), f.multiple)
    sigma = f.grid_scale(f.scale, f.multiple)
    divergence = dg_renyi_lower(sigma, abs(i - j), 2)
    claimed = m.map(m.input_metric.distance(x, y))
    assert divergence > 2 * mp(claimed)
    return (f"k = 0, scale 1: 0.0 vs 4.0 on grid points {i}, {j}: D_2 >= {float(divergence):.3f}"
            f" > 2 rho = {2 * claimed}")
