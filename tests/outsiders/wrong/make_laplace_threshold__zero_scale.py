"""Laplace threshold with OpenDP's precondition ``scale >= 0`` (OpenDP admits ``scale = 0`` and
returns the map ``(inf, 1)``), the catalogue's kernel and map otherwise.

Wrong: ``scale = 0.0`` is now admitted, and the built measurement cannot be used: its map
divides by the scale (``ZeroDivisionError`` on every ``d_in`` with ``l0 > 0``) and its function
hands scale 0 to the discrete Laplace sampler, which raises ``ValueError`` on every non-empty
histogram. A raise on admitted inputs, and, in a release pipeline, a crash whose occurrence
depends on whether the histogram is empty.
Hole classes: none listed (a precondition weakened).
"""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.core import Precondition  # noqa: E402
from mechanisms.errors import ThresholdScaleError  # noqa: E402
from mechanisms.make_laplace_threshold import (THRESHOLD_PRECONDITIONS,  # noqa: E402
                                               build_laplace_threshold, make_laplace_threshold)
from obligations.base import Entry  # noqa: E402
from obligations.make_laplace_threshold import laplace_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_laplace_threshold"
CLASSES = ()

make_lt_zero = make_laplace_threshold.variant("make_laplace_threshold_zero_scale",
                                              build_laplace_threshold)
make_lt_zero.preconditions = (
    THRESHOLD_PRECONDITIONS[0],
    Precondition("scale >= 0", lambda scale, **_: ops.le(0, scale),
                 lambda scale, **_: ThresholdScaleError(scale)),
    THRESHOLD_PRECONDITIONS[2],
)
MECHANISMS = [Entry("outsider_laplace_threshold_zero_scale", make_lt_zero,
                    laplace_threshold_obligations(make_lt_zero, "outsider_laplace_threshold_zero_scale"))]


def witness() -> str:
    m = make_lt_zero(str, 0.0, 5)
    x = {"a": 3}
    assert m.input_domain.member(x)
    raised = []
    try:
        m(x, random.Random(0))
    except ValueError as e:
        raised.append(f"function: ValueError: {e}")
    try:
        m.map((1, 1, 1))
    except ZeroDivisionError as e:
        raised.append(f"map((1, 1, 1)): ZeroDivisionError: {e}")
    assert len(raised) == 2, raised
    return "scale 0.0 admitted; " + "; ".join(raised)
