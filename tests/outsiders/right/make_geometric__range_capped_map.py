"""Bounded geometric whose map caps the distance at the width of the bounds:
``min(d_in, U - L) / scale`` rounded up (``0`` at ``d_in = 0``).

Correct and tighter than the catalogue's ``d_in / scale`` for ``d_in > U - L``: the function
first clamps its input, and two clamped integers are at most ``U - L`` apart as well as at most
``|x - x'|`` apart, so the discrete Laplace at the clamped input has point ratios at most
``exp(min(|x - x'|, U - L) / scale)``; the output clamp is post-processing. (With
``d_in = +inf`` the map is ``(U - L) / scale``, finite: any two inputs at all.) Checked
exactly: for input pairs inside, outside and across the bounds, the clamped inputs (the
function's own ``clamp``) differ by at most ``min(|x - x'|, U - L)``, and the map is never below
``|clamp(x) - clamp(x')| / scale``, the discrete Laplace's exact worst-case loss at that shift.
"""

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_geometric import build_geometric, make_geometric  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_geometric"


def capped_map(d_in, scale, width):
    return ops.where(ops.eq(d_in, 0), 0, div_up(ops.minimum(d_in, width), scale))


def build(scale, bounds):
    m = build_geometric(scale, bounds)
    return replace(m, privacy_map=Map(rule=capped_map,
                                      params={"scale": scale, "width": bounds[1] - bounds[0]}))


make_geo_cap = make_geometric.variant("make_geometric_range_capped", build)
MECHANISMS = [Entry("outsider_right_geo_range_capped_map", make_geo_cap)]


def check() -> str:
    n = tighter = 0
    for scale in (0.5, 1.0, 3.0):
        for lower, upper in ((0, 0), (0, 1), (-2, 5), (10, 14)):
            m = make_geo_cap(scale, (lower, upper))
            f = m.function
            for x in range(lower - 8, upper + 9):
                for x2 in range(lower - 8, upper + 9):
                    d = abs(x - x2)
                    shift = abs(f.clamp(x) - f.clamp(x2))
                    assert shift <= min(d, upper - lower)
                    assert Fraction(shift) / Fraction(scale) <= Fraction(m.map(d))
                    tighter += m.map(d) < make_geometric(scale, (lower, upper)).map(d)
                    n += 1
            assert m.map(math.inf) == make_geometric(scale, (lower, upper)).map(upper - lower) or lower == upper
    assert make_geo_cap(0.0, (0, 3)).map(1) == math.inf
    return f"{n} pairs: |clamp(x) - clamp(x')| / scale <= map ({tighter} below the catalogue's)"
