"""Vector Laplace whose noise object (a subclass of ``VectorNoise``) subtracts each draw:
``v_i - Y_i``.

Correct: the discrete Laplace is symmetric (``Pr[Y = z] = Pr[Y = -z]``) and the draws are
independent, so ``[v_i - Y_i]`` has the law of ``[v_i + Y_i]``. Checked exactly: for every
coordinate value and draw ``y`` in a window, the variant's output for ``y`` is the catalogue's
for ``-y``, a draw of the same weight ``exp(-|y| / scale)``; the sampler, scale and map are the
catalogue's, and the running ``__call__`` hands the sampler the same scale once per coordinate.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from _exact import Recorder  # noqa: E402
from mechanisms.make_vector_laplace import (VectorNoise, build_vector_laplace,  # noqa: E402
                                            make_vector_laplace)
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_vector_laplace"


@dataclass(frozen=True)
class SubtractedNoise(VectorNoise):
    @staticmethod
    def shift(arg, noise):
        return arg - noise


def build(scale):
    m = build_vector_laplace(scale)
    return replace(m, function=SubtractedNoise(m.function.scale, m.function.sampler))


make_vl_sub = make_vector_laplace.variant("make_vector_laplace_subtracted", build)
MECHANISMS = [Entry("outsider_right_vl_subtracted_noise", make_vl_sub)]


def check() -> str:
    ours, theirs = make_vl_sub(2.0).function, make_vector_laplace(2.0).function
    assert ours.sampler is theirs.sampler and ours.scale == theirs.scale
    for x in range(-5, 6):
        law_ours = sorted((ours.shift(x, y), abs(y)) for y in range(-60, 61))
        law_theirs = sorted((theirs.shift(x, y), abs(y)) for y in range(-60, 61))
        assert law_ours == law_theirs
    a, b = Recorder(), Recorder()
    replace(ours, sampler=a)([1, 2, 3], random.Random(0))
    replace(theirs, sampler=b)([1, 2, 3], random.Random(0))
    assert a.scales == b.scales and len(a.scales) == 3
    assert all(make_vl_sub(2.0).map(d) == make_vector_laplace(2.0).map(d) for d in range(5))
    return "per coordinate, outputs for draw y equal the catalogue's for -y (same weight); same draws, same map"
