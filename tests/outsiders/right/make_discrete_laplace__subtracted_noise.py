"""Discrete Laplace whose noise object (a subclass of ``IntegerNoise``) subtracts the draw:
``x - Y``.

Correct: the discrete Laplace is symmetric (``Pr[Y = z] = Pr[Y = -z]``), so ``x - Y`` has the law
of ``x + Y``. Checked exactly: for every draw ``y`` in a window, the output of the variant for
``y`` is the catalogue's output for ``-y``, a draw of the same weight ``exp(-|y|/scale)``.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.make_discrete_laplace import (IntegerNoise, build_discrete_laplace,  # noqa: E402
                                              make_discrete_laplace)
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_discrete_laplace"


@dataclass(frozen=True)
class SubtractedNoise(IntegerNoise):
    @staticmethod
    def shift(arg, noise):
        return arg - noise


def build(scale):
    m = build_discrete_laplace(scale)
    return replace(m, function=SubtractedNoise(m.function.scale, m.function.sampler))


make_dl_sub = make_discrete_laplace.variant("make_discrete_laplace_subtracted", build)
MECHANISMS = [Entry("outsider_right_dl_subtracted_noise", make_dl_sub)]


def check() -> str:
    ours, theirs = make_dl_sub(2.0).function, make_discrete_laplace(2.0).function
    assert ours.sampler is theirs.sampler and ours.scale == theirs.scale
    for x in range(-5, 6):
        law_ours = sorted((ours.shift(x, y), abs(y)) for y in range(-60, 61))
        law_theirs = sorted((theirs.shift(x, y), abs(y)) for y in range(-60, 61))
        assert law_ours == law_theirs
    assert all(make_dl_sub(2.0).map(d) == make_discrete_laplace(2.0).map(d) for d in range(5))
    return "outputs for draw y equal the catalogue's for -y (same weight): same law, same map"
