"""Float Gaussian with OpenDP 0.16's map shape: ``((d_in + 2^k - 2^-1074) / scale)^2 / 2`` for
every ``d_in``, the relaxation added at ``d_in = 0`` too (no special case), rounded up once.

Correct (a larger map): for ``d_in > 0`` it is the catalogue's map; at ``d_in = 0`` it is
``(2^k - 2^-1074)^2 / (2 scale^2) >= 0`` (``0`` at ``k = -1074``; ``+inf`` at ``scale = 0``,
``k > -1074``), never below the catalogue's ``0``. Same function. Checked: never below the
catalogue's map and equal to OpenDP 0.16's ``make_gaussian`` map on a grid of ``scale``, ``k``
and ``d_in`` (where OpenDP's own rounding of each operation gives the same float).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_float_gaussian import build_float_gaussian, make_float_gaussian  # noqa: E402
from mechanisms.make_laplace import exact_sum, relaxation  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_float_gaussian import float_gaussian_obligations  # noqa: E402

CONSTRUCTOR = "make_float_gaussian"


def opendp_shape_map(d_in, scale, multiple):
    shifted, s = exact_sum(d_in, relaxation(multiple)), ops.exact(scale)
    return div_up(shifted * shifted, 2 * s * s)


def build(scale, k=-1074):
    m = build_float_gaussian(scale, k)
    return replace(m, privacy_map=Map(rule=opendp_shape_map, params=dict(m.privacy_map.params)))


make_fg_odp = make_float_gaussian.variant("make_float_gaussian_opendp_map", build)
MECHANISMS = [Entry("outsider_right_fg_opendp_map", make_fg_odp,
                    float_gaussian_obligations(make_fg_odp, "outsider_right_fg_opendp_map"))]


def check() -> str:
    import opendp.prelude as dp
    dp.enable_features("contrib")
    n = equal = finite = 0
    for scale in (0.5, 1.0, 3.0, 100.0):
        for k in (-1074, -20, -1, 0, 2):
            theirs = dp.m.make_gaussian(dp.atom_domain(T=float, nan=False),
                                        dp.absolute_distance(T=float), scale, k=k)
            for d in (0.0, 5e-324, 0.25, 1.0, 3.0, 1e10, float("inf")):
                ours = make_fg_odp(scale, k).map(d)
                assert ours >= make_float_gaussian(scale, k).map(d)
                if d != float("inf"):  # opendp refuses an infinite d_in
                    equal += ours == theirs.map(d)
                    finite += 1
                n += 1
    for k in (-1074, 0):
        for d in (0.0, 1.0, float("inf")):
            assert make_fg_odp(0.0, k).map(d) >= make_float_gaussian(0.0, k).map(d)
    return f"map >= the catalogue's on {n} + 6 cases; equal to opendp 0.16's on {equal} of {finite} finite d_in"
