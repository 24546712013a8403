"""Gaussian whose "scale >= 0" precondition returns a number, ``|scale|`` ("a scale must have a
magnitude"), instead of a Boolean.

Wrong: concretely the number is truthy for every nonzero scale, negative ones included;
``scale = -1.0`` is admitted, the function draws no noise for it (only positive scales draw), so
0 and 1 give deterministic different outputs (infinite divergence) while ``map(1) = 0.5``.
Hole classes: 6 (a precondition whose claim is not a Boolean), 13 (a weakened precondition).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.core import Constructor, Precondition  # noqa: E402
from mechanisms.errors import ScaleError  # noqa: E402
from mechanisms.make_discrete_laplace import validate_scale  # noqa: E402
from mechanisms.make_gaussian import build_gaussian  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_gaussian"
CLASSES = (6, 13)

PRECONDITIONS = (
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("scale >= 0", lambda scale, **_: ops.absolute(scale),
                 lambda scale, **_: ScaleError(scale)),
)
make_gauss_nb = Constructor("make_gaussian_magnitude_check", build_gaussian, PRECONDITIONS,
                            validate_scale)
MECHANISMS = [Entry("outsider_gaussian_nonboolean_precondition", make_gauss_nb)]


def witness() -> str:
    m = make_gauss_nb(-1.0)
    rng = random.Random(0)
    assert {m(0, rng) for _ in range(20)} == {0} and {m(1, rng) for _ in range(20)} == {1}
    assert m.map(1) < float("inf")
    return f"scale -1.0 admitted: no noise (infinite divergence), map(1) = {m.map(1)}"
