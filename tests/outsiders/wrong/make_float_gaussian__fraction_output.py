"""Float Gaussian whose function object (a subclass of ``FloatGridGaussian``) replaces
``grid_to_float`` by the exact grid value ``(i + Z) 2^k`` ("no second rounding: return the
noisy grid point exactly").

Wrong: the release is a ``Fraction``, not a float, so it is outside the declared output domain
``AtomDomain(float)`` on every input (the real function run on ``1.0``). Downstream float
post-processing (``math.isfinite``, ``struct.pack('d', ...)``, JSON) either fails or silently
rounds differently.
Hole classes: 2 (a subclass replaces a kernel attribute).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import out_of_domain  # noqa: E402
from mechanisms.make_float_gaussian import (FloatGridGaussian, build_float_gaussian,  # noqa: E402
                                            make_float_gaussian)
from mechanisms.make_laplace import grid_step  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_float_gaussian import float_gaussian_obligations  # noqa: E402

CONSTRUCTOR = "make_float_gaussian"
CLASSES = (2,)


def exact_grid_value(index, multiple):
    return index * grid_step(multiple)


@dataclass(frozen=True)
class ExactGridGaussian(FloatGridGaussian):
    grid_to_float = staticmethod(exact_grid_value)


def build(scale, k=-1074):
    m = build_float_gaussian(scale, k)
    return replace(m, function=ExactGridGaussian(m.function.scale, m.function.multiple))


make_fg_fraction = make_float_gaussian.variant("make_float_gaussian_fraction_output", build)
MECHANISMS = [Entry("outsider_fg_fraction_output", make_fg_fraction,
                    float_gaussian_obligations(make_fg_fraction, "outsider_fg_fraction_output"))]


def witness() -> str:
    m = make_fg_fraction(1.0, -3)
    out = out_of_domain(m, 1.0)
    return f"scale 1, k = -3: release on 1.0 is {out!r} ({type(out).__name__}), not a float"
