"""Discrete Laplace whose noise object was copy-pasted from ``make_gaussian``:
``IntegerNoise(scale, sample_discrete_gaussian)``, with the Laplace map ``d_in / scale``.

Wrong law: Gaussian tails make the pmf ratio unbounded. For ``sigma = 1``, inputs 0 and 1, output
``y = -10``: ``ln p_0(y)/p_1(y) = ((y-1)^2 - y^2) / 2 = 21/2`` exactly (one normaliser), against
``map(1) = 1``.
Hole classes: 7 (a sampler whose law is wrong).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fractions import Fraction  # noqa: E402

from _exact import exact, sampler_scale  # noqa: E402
from mechanisms.make_discrete_laplace import (IntegerNoise, build_discrete_laplace,  # noqa: E402
                                              make_discrete_laplace)
from mechanisms.samplers import sample_discrete_gaussian  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_discrete_laplace"
CLASSES = (7,)


def build(scale):
    m = build_discrete_laplace(scale)
    return replace(m, function=IntegerNoise(scale, sample_discrete_gaussian))


make_dl_gauss = make_discrete_laplace.variant("make_discrete_laplace_gaussian_noise", build)
MECHANISMS = [Entry("outsider_dl_gaussian_sampler", make_dl_gauss)]


def witness() -> str:
    m = make_dl_gauss(1.0)
    assert m.function.sampler is sample_discrete_gaussian
    sigma = sampler_scale(m.function)
    y, x0, x1 = -10, 0, 1
    loss = Fraction((y - x1) ** 2 - (y - x0) ** 2) / (2 * sigma * sigma)
    assert loss > exact(m.map(1))
    return f"scale 1.0: ln p_0(-10)/p_1(-10) = {loss} > map(1) = {m.map(1)}"
