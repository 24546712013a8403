"""Vector Laplace whose map multiplies by the reciprocal: ``d_in * (1 / scale)``, both
operations rounded up (``mul_up(d_in, div_up(1, scale))``), ``0`` at ``d_in = 0``.

Correct (a map never below the true bound): ``div_up(1, scale) >= 1 / scale`` and ``mul_up``
never rounds below the exact product, so the map is ``>= d_in / scale`` (``+inf`` at
``scale = 0`` or ``d_in = +inf``), at most a few ulps above the catalogue's single rounding.
Checked exactly (Fractions) on a grid of scales and distances, the subnormal ones included.
"""

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up, mul_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_vector_laplace import build_vector_laplace, make_vector_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_vector_laplace"


def reciprocal_map(d_in, scale):
    return ops.where(ops.eq(d_in, 0), 0, mul_up(d_in, div_up(1, scale)))


def build(scale):
    return replace(build_vector_laplace(scale),
                   privacy_map=Map(rule=reciprocal_map, params={"scale": scale}))


make_vl_recip = make_vector_laplace.variant("make_vector_laplace_reciprocal_map", build)
MECHANISMS = [Entry("outsider_right_vl_reciprocal_map", make_vl_recip)]


def check() -> str:
    n = 0
    for scale in (5e-324, 1e-300, 0.1, 0.3, 1.0, 3.0, 7.0, 1e300, 1.7976931348623157e308):
        for d in (0, 1, 2, 3, 7, 10, 1001, 2 ** 60 + 1, 0.1, 5e-324):
            ours = make_vl_recip(scale).map(d)
            assert ours == math.inf or Fraction(ours) >= Fraction(d) / Fraction(scale), (scale, d)
            assert ours >= make_vector_laplace(scale).map(d)
            n += 1
    assert make_vl_recip(0.0).map(1) == math.inf and make_vl_recip(0.0).map(0) == 0
    assert make_vl_recip(1.0).map(math.inf) == math.inf
    return f"map >= d_in / scale exactly (and >= the catalogue's) on {n} cases; scale 0 and +inf"
