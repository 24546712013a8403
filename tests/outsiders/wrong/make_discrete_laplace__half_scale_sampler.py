"""Discrete Laplace whose noise object is built with ``scale / 2`` ("the sampler's scale is the
two-sided half-width"), while the map is ``d_in / scale``.

Wrong: the noise drawn has scale ``scale / 2``, a loss of ``2 d_in / scale``: at ``scale = 1``,
``d_in = 1`` the loss is exactly 2 against ``map(1) = 1``.
Hole classes: 1 (the function object's own copy of the scale is a transformed argument).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dl_shift_loss, exact, sampler_scale  # noqa: E402
from mechanisms.make_discrete_laplace import (IntegerNoise, build_discrete_laplace,  # noqa: E402
                                              make_discrete_laplace)
from mechanisms.samplers import sample_discrete_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_discrete_laplace"
CLASSES = (1,)


def build(scale):
    m = build_discrete_laplace(scale)
    return replace(m, function=IntegerNoise(scale / 2, sample_discrete_laplace))


make_dl_half = make_discrete_laplace.variant("make_discrete_laplace_half", build)
MECHANISMS = [Entry("outsider_dl_half_scale_sampler", make_dl_half)]


def witness() -> str:
    m = make_dl_half(1.0)
    loss = dl_shift_loss(1, sampler_scale(m.function))
    assert loss > exact(m.map(1))
    return f"scale 1.0: sampler scale {sampler_scale(m.function)}, loss {loss} > map(1) = {m.map(1)}"
