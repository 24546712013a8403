"""Float Gaussian with a stricter precondition: ``scale > 0`` (no noiseless "Gaussian" at
``scale = 0``), the rest as the catalogue's (finite scale, ``k >= -1074``).

Correct: it admits a subset of the catalogue's parameters and builds the same measurement on
each; every admitted scale draws noise (``sigma = scale / 2^k > 0``). Checked: ``scale = 0.0``
and ``-0.0`` are refused with ``ScaleError``, and on admitted parameters the map and the function
fields are the catalogue's.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.core import Constructor, Precondition  # noqa: E402
from mechanisms.errors import GranularityError, ScaleError  # noqa: E402
from mechanisms.make_float_gaussian import build_float_gaussian, make_float_gaussian  # noqa: E402
from mechanisms.make_laplace import K_MIN, validate_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_float_gaussian import float_gaussian_obligations  # noqa: E402

CONSTRUCTOR = "make_float_gaussian"

PRECONDITIONS = (
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("scale > 0", lambda scale, **_: ops.lt(0, scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("k >= -1074", lambda scale, k: ops.le(K_MIN, k),
                 lambda scale, k: GranularityError(k)),
)
make_fg_pos = Constructor("make_float_gaussian_positive_scale", build_float_gaussian,
                          PRECONDITIONS, validate_laplace)
MECHANISMS = [Entry("outsider_right_fg_positive_scale", make_fg_pos,
                    float_gaussian_obligations(make_fg_pos, "outsider_right_fg_positive_scale"))]


def check() -> str:
    for bad in (0.0, -0.0, -1.0, float("inf"), float("nan")):
        try:
            make_fg_pos(bad)
        except ScaleError:
            continue
        raise AssertionError(f"scale {bad} admitted")
    n = 0
    for scale in (5e-324, 0.5, 2.0):
        for k in (-1074, -5, 3):
            ours, theirs = make_fg_pos(scale, k), make_float_gaussian(scale, k)
            assert ours.function == theirs.function
            assert all(ours.map(d) == theirs.map(d) for d in (0.0, 0.5, 1.0, float("inf")))
            n += 1
    return f"scale <= 0 refused; the catalogue's measurement on {n} admitted parameter pairs"
