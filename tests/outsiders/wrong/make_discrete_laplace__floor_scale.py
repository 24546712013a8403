"""Discrete Laplace that hands the sampler ``floor(scale)`` ("CKS wants an integer scale"),
while the map is ``d_in / scale``.

Wrong for non-integer scales: ``scale = 1.5`` draws noise of scale 1, a loss of 1 at ``d_in = 1``
against ``map(1) = 2/3``; ``scale = 0.5`` draws no noise at all.
Hole classes: 1 (the function object's own copy of the scale is a transformed argument).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dl_shift_loss, exact, sampler_scale  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.make_discrete_laplace import (IntegerNoise, build_discrete_laplace,  # noqa: E402
                                              make_discrete_laplace)
from mechanisms.samplers import sample_discrete_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_discrete_laplace"
CLASSES = (1,)


def build(scale):
    m = build_discrete_laplace(scale)
    return replace(m, function=IntegerNoise(ops.floor(ops.exact(scale)), sample_discrete_laplace))


make_dl_floor = make_discrete_laplace.variant("make_discrete_laplace_floor", build)
MECHANISMS = [Entry("outsider_dl_floor_scale", make_dl_floor)]


def witness() -> str:
    m = make_dl_floor(1.5)
    loss = dl_shift_loss(1, sampler_scale(m.function))
    assert loss > exact(m.map(1))
    return f"scale 1.5: sampler scale {sampler_scale(m.function)}, loss {loss} > map(1) = {m.map(1)}"
