"""Float Laplace whose map's relaxation uses a mutated grid unit: ``2^k - 2^-1022`` ("the least
float is the least normal") instead of ``2^k - 2^-1074``.

Wrong: at ``k = -1074`` the relaxation is negative, so ``map(2^-1074) < 0`` although the inputs
``0.0`` and ``5e-324`` land on adjacent grid points (indices 0 and 1, read from the real function)
and cost exactly ``1 / (scale 2^1074)`` > 0.
Hole classes: 12 (a mutated constant: the grid unit).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fractions import Fraction  # noqa: E402

from mechanisms.arith import div_up  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_laplace import build_laplace, exact_sum, float_units, grid_step, make_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_laplace import laplace_obligations  # noqa: E402

CONSTRUCTOR = "make_laplace"
CLASSES = (12,)

LEAST_FLOAT = Fraction(1, 2 ** 1022)


def relaxed_map(d_in, scale, multiple):
    relaxation = grid_step(multiple) - LEAST_FLOAT
    return ops.where(ops.eq(d_in, 0), 0, div_up(exact_sum(d_in, relaxation), scale))


def build(scale, k=-1074):
    m = build_laplace(scale, k)
    return replace(m, privacy_map=Map(rule=relaxed_map, params={
        "scale": scale, "multiple": m.privacy_map.params["multiple"]}))


make_laplace_unit = make_laplace.variant("make_laplace_normal_unit", build)
MECHANISMS = [Entry("outsider_laplace_grid_unit", make_laplace_unit,
                    laplace_obligations(make_laplace_unit, "outsider_laplace_grid_unit"))]


def witness() -> str:
    m = make_laplace_unit(1.0)
    f = m.function
    x, y = 0.0, 5e-324
    d_in = m.input_metric.distance(x, y)
    i, j = f.grid_index(float_units(x), f.multiple), f.grid_index(float_units(y), f.multiple)
    loss = Fraction(abs(i - j)) / Fraction(f.grid_scale(f.scale, f.multiple))
    claimed = m.map(float(d_in))
    assert loss > 0 > claimed
    return f"scale 1, k = -1074: 0.0 vs 5e-324 on grid points {i}, {j}; loss {float(loss):.3g} > map = {claimed}"
