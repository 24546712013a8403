"""Float Gaussian whose map counts whole grid steps: ``D = floor((d_in + 2^k - 2^-1074) / 2^k)``,
then ``(D 2^k)^2 / (2 scale^2)`` rounded up once (``0`` at ``d_in = 0``, ``+inf`` at ``+inf``).

Correct and tighter than the catalogue's map (never above it, below it whenever
``d_in + 2^k - 2^-1074`` is not a multiple of ``2^k``): two floats ``x = a u``, ``x' = a' u``
(``u = 2^-1074``, ``m = 2^k / u``) with ``|a - a'| u <= d_in`` round to grid indices
``i = floor(a / m + 1/2)``, whose difference is an integer below ``|a - a'| / m + 1``, so at most
``ceil(|a - a'| / m) = floor((|a - a'| + m - 1) / m) <= D``; the discrete Gaussian of
``sigma = scale / 2^k`` at an integer shift ``|i - i'| <= D`` is ``(i - i')^2 / (2 sigma^2)``-zCDP
(CKS 2020, Theorem 4), ``<= (D 2^k)^2 / (2 scale^2)``. Checked exactly on seeded random float
pairs at several ``k``: the indices read from the real function satisfy that bound, and the
map is never above the catalogue's.
"""

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402
import random  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_float_gaussian import build_float_gaussian, make_float_gaussian  # noqa: E402
from mechanisms.make_laplace import exact_sum, float_units, grid_step, relaxation  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_float_gaussian import float_gaussian_obligations  # noqa: E402

CONSTRUCTOR = "make_float_gaussian"


def steps_map(d_in, scale, multiple):
    if isinstance(d_in, float) and math.isinf(d_in):
        return math.inf
    step = grid_step(multiple)
    steps = ops.floor_div(exact_sum(d_in, relaxation(multiple)), step)
    span, s = steps * step, ops.exact(scale)
    return ops.where(ops.eq(d_in, 0), 0, div_up(span * span, 2 * s * s))


def build(scale, k=-1074):
    m = build_float_gaussian(scale, k)
    return replace(m, privacy_map=Map(rule=steps_map, params=dict(m.privacy_map.params)))


make_fg_steps = make_float_gaussian.variant("make_float_gaussian_integer_steps", build)
MECHANISMS = [Entry("outsider_right_fg_integer_steps_map", make_fg_steps,
                    float_gaussian_obligations(make_fg_steps, "outsider_right_fg_integer_steps_map"))]


def check() -> str:
    rng = random.Random(3)
    n = tighter = 0
    for k in (-1074, -1073, -60, -3, 0, 1, 5):
        for scale in (0.5, 1.0, 7.0):
            m = make_fg_steps(scale, k)
            f = m.function
            sigma = Fraction(f.grid_scale(f.scale, f.multiple))
            for _ in range(60):
                e = rng.choice((-1074, -1070, -60, -3, 0, 1, 4))
                x = rng.uniform(-8, 8) * 2.0 ** e
                x2 = x + rng.choice((1, -1)) * rng.uniform(0, 6) * 2.0 ** rng.choice((e, k))
                if rng.random() < 0.2:  # a pair on the same or neighbouring subnormals
                    x, x2 = 5e-324 * rng.randrange(8), 5e-324 * rng.randrange(8)
                d = m.input_metric.distance(x, x2)
                for d_in in (float(d), math.nextafter(float(d), math.inf)):
                    if d_in < d:
                        continue
                    i, i2 = (f.grid_index(float_units(v), f.multiple) for v in (x, x2))
                    rho = Fraction((i - i2) ** 2) / (2 * sigma * sigma)
                    claimed = m.map(d_in)
                    assert rho <= Fraction(claimed), (k, scale, x, x2, rho, claimed)
                    catalogue = make_float_gaussian(scale, k).map(d_in)
                    assert claimed <= catalogue
                    tighter += claimed < catalogue
                    n += 1
    assert make_fg_steps(1.0).map(math.inf) == math.inf and make_fg_steps(0.0).map(1.0) == math.inf
    return f"{n} pairs: CKS rho of the real grid shift <= map <= catalogue's map ({tighter} strictly below)"
