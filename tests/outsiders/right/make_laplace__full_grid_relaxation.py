"""Float Laplace whose map adds the whole grid step, ``(d_in + 2^k) / scale``, without the
``- 2^-1074`` refinement.

Correct (a larger map): the relaxation ``2^k`` exceeds ``2^k - 2^-1074``, so the map bounds the
catalogue's valid map; same function.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fractions import Fraction  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_laplace import build_laplace, exact_sum, grid_step, make_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_laplace import laplace_obligations  # noqa: E402

CONSTRUCTOR = "make_laplace"


def full_map(d_in, scale, multiple):
    return ops.where(ops.eq(d_in, 0), 0, div_up(exact_sum(d_in, grid_step(multiple)), scale))


def build(scale, k=-1074):
    m = build_laplace(scale, k)
    return replace(m, privacy_map=Map(rule=full_map, params={
        "scale": scale, "multiple": m.privacy_map.params["multiple"]}))


make_laplace_full = make_laplace.variant("make_laplace_full_relaxation", build)
MECHANISMS = [Entry("outsider_right_laplace_full_grid_relaxation", make_laplace_full,
                    laplace_obligations(make_laplace_full, "outsider_right_laplace_full_grid_relaxation"))]


def check() -> str:
    n = 0
    for scale in (0.0, 0.5, 1.0, 100.0):
        for k in (-1074, -1000, -52, 0, 3):
            for d in (0.0, 5e-324, 0.25, 1.0, 3.0, float("inf")):
                assert make_laplace_full(scale, k).map(d) >= make_laplace(scale, k).map(d)
                n += 1
    return f"map >= make_laplace's on {n} cases"
