"""Float Gaussian whose scale precondition keeps only "scale is finite" (and ``k >= -1074``)
("the map squares the scale, so its sign does not matter").

Wrong: ``scale = -1.0`` is admitted. The map ``((d_in + 2^k - 2^-1074) / scale)^2 / 2`` is
positive and finite (``map(1) = 0.5``), but the kernel draws noise only for a positive grid
scale, so it releases its input rounded to the grid: ``0.0`` and ``1.0`` give ``0.0`` and ``1.0``
every time (an infinite privacy loss), run on the real function.
Hole classes: 13 (a weakened precondition admitting parameters where the map is wrong).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402
import random  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.core import Constructor, Precondition  # noqa: E402
from mechanisms.errors import GranularityError, ScaleError  # noqa: E402
from mechanisms.make_float_gaussian import build_float_gaussian  # noqa: E402
from mechanisms.make_laplace import K_MIN, validate_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_float_gaussian import float_gaussian_obligations  # noqa: E402

CONSTRUCTOR = "make_float_gaussian"
CLASSES = (13,)

PRECONDITIONS = (
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("k >= -1074", lambda scale, k: ops.le(K_MIN, k),
                 lambda scale, k: GranularityError(k)),
)
make_fg_signed = Constructor("make_float_gaussian_signed_scale", build_float_gaussian,
                             PRECONDITIONS, validate_laplace)
MECHANISMS = [Entry("outsider_fg_negative_scale", make_fg_signed,
                    float_gaussian_obligations(make_fg_signed, "outsider_fg_negative_scale"))]


def witness() -> str:
    m = make_fg_signed(-1.0)
    rng = random.Random(0)
    outs0 = {m(0.0, rng) for _ in range(20)}
    outs1 = {m(1.0, rng) for _ in range(20)}
    assert outs0 == {0.0} and outs1 == {1.0}
    claimed = m.map(1.0)
    assert 0 < claimed < math.inf
    return f"scale -1.0 admitted: outputs always {outs0} vs {outs1} (infinite loss), map(1) = {claimed}"
