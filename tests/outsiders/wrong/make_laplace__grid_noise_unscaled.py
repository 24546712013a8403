"""Float Laplace whose function object subclasses ``FloatGridLaplace`` and replaces its
``grid_scale`` attribute by ``scale`` itself ("the sampler already works in units of the
grid"), forgetting the division by ``2^k``.

Wrong: at the default ``k = -1074`` the noise is ``scale`` grid steps, i.e. ``scale 2^-1074``: 0.0
and 1.0 are ``2^1074`` grid steps apart, a loss of ``2^1074 / scale`` against ``map(1) = 1 / scale``.
Hole classes: 1 (the function's own copy of the scale is the untransformed argument where the
grid needs ``scale / 2^k``), 2 (a subclass replaces a kernel attribute).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fractions import Fraction  # noqa: E402

from _exact import exact  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.make_laplace import FloatGridLaplace, build_laplace, float_units, make_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_laplace import laplace_obligations  # noqa: E402

CONSTRUCTOR = "make_laplace"
CLASSES = (1, 2)


def scale_in_grid_units(scale, multiple):
    return ops.exact(scale)


@dataclass(frozen=True)
class GridLaplace(FloatGridLaplace):
    grid_scale = staticmethod(scale_in_grid_units)


def build(scale, k=-1074):
    m = build_laplace(scale, k)
    return replace(m, function=GridLaplace(m.function.scale, m.function.multiple))


make_laplace_unscaled = make_laplace.variant("make_laplace_unscaled_noise", build)
MECHANISMS = [Entry("outsider_laplace_grid_noise_unscaled", make_laplace_unscaled,
                    laplace_obligations(make_laplace_unscaled, "outsider_laplace_grid_noise_unscaled"))]


def witness() -> str:
    m = make_laplace_unscaled(1.0)
    f = m.function
    i, j = f.grid_index(float_units(0.0), f.multiple), f.grid_index(float_units(1.0), f.multiple)
    loss = Fraction(abs(i - j)) / Fraction(f.grid_scale(f.scale, f.multiple))
    assert loss > exact(m.map(1))
    return (f"scale 1: 0.0 vs 1.0 are 2^{abs(i - j).bit_length() - 1} grid steps apart, noise "
            f"{f.grid_scale(f.scale, f.multiple)} steps: loss 2^1074 > map(1) = {m.map(1)}")
