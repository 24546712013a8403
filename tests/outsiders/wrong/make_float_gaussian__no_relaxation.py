"""Float Gaussian whose map reuses the vector Gaussian's ``(d_in / scale)^2 / 2``
("the grid at the default k = -1074 is exact, so the relaxation is noise"), dropping the
``2^k - 2^-1074`` relaxation of the grid rounding.

Wrong for every ``k > -1074``: at ``k = 0`` (integer grid), ``scale = 1``, the inputs ``0.0`` and
``0.5`` are ``0.5`` apart but round (ties up) to the grid points ``0`` and ``1``, read from the
real function: one whole grid step of a discrete Gaussian with ``sigma = 1``. Its Renyi divergence
of order 2 is about 1 (mpmath, truncated sums that only lower it), above ``2 map(0.5) = 0.25``.
Hole classes: none listed (a map that holds only on the grid; a wrong map constant).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dg_renyi_lower, mp  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_float_gaussian import build_float_gaussian, make_float_gaussian  # noqa: E402
from mechanisms.make_laplace import float_units  # noqa: E402
from mechanisms.make_vector_gaussian import vector_gaussian_map  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_float_gaussian import float_gaussian_obligations  # noqa: E402

CONSTRUCTOR = "make_float_gaussian"
CLASSES = ()


def build(scale, k=-1074):
    m = build_float_gaussian(scale, k)
    return replace(m, privacy_map=Map(rule=vector_gaussian_map, params={"scale": scale}))


make_fg_norelax = make_float_gaussian.variant("make_float_gaussian_no_relaxation", build)
MECHANISMS = [Entry("outsider_fg_no_relaxation", make_fg_norelax,
                    float_gaussian_obligations(make_fg_norelax, "outsider_fg_no_relaxation"))]


def witness() -> str:
    m = make_fg_norelax(1.0, 0)
    f = m.function
    x, y = 0.0, 0.5
    d_in = m.input_metric.distance(x, y)
    i = f.grid_index(float_units(x), f.multiple)
    j = f.grid_index(float_units(y), f.multiple)
    sigma = f.grid_scale(f.scale, f.multiple)
    divergence = dg_renyi_lower(sigma, abs(i - j), 2)
    claimed = m.map(float(d_in))
    assert divergence > 2 * mp(claimed)
    return (f"k = 0, scale 1: 0.0 vs 0.5 (d_in {d_in}) on grid points {i}, {j}, sigma {sigma}: "
            f"D_2 >= {float(divergence):.4f} > 2 rho = {2 * claimed}")
