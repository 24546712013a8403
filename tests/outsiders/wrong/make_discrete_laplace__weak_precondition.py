"""Discrete Laplace whose scale precondition was weakened to ``scale >= -1`` ("allow a small
negative tolerance for float noise in configs").

Wrong: ``scale = -0.5`` is admitted; the function adds no noise (only positive scales draw), so
``0`` and ``1`` give deterministic, different outputs (infinite loss), and the map is negative.
Hole classes: 13 (a weakened precondition admitting parameters where the map is wrong/negative).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.core import Constructor, Precondition  # noqa: E402
from mechanisms.errors import ScaleError  # noqa: E402
from mechanisms.make_discrete_laplace import build_discrete_laplace, validate_scale  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_discrete_laplace"
CLASSES = (13,)

PRECONDITIONS = (
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: ScaleError(scale)),
    Precondition("scale >= -1", lambda scale, **_: ops.le(-1, scale),
                 lambda scale, **_: ScaleError(scale)),
)
make_dl_weak = Constructor("make_discrete_laplace_weak", build_discrete_laplace, PRECONDITIONS,
                           validate_scale)
MECHANISMS = [Entry("outsider_dl_weak_precondition", make_dl_weak)]


def witness() -> str:
    m = make_dl_weak(-0.5)
    rng = random.Random(0)
    outs0 = {m(0, rng) for _ in range(20)}
    outs1 = {m(1, rng) for _ in range(20)}
    assert outs0 == {0} and outs1 == {1}
    assert m.map(1) < 0
    return f"scale -0.5 admitted: outputs always {outs0} vs {outs1} (infinite loss), map(1) = {m.map(1)}"
