"""Discrete Laplace whose sampler is a float helper (``_noise_helpers.two_sided_geometric``: a
geometric magnitude by inverting ``rng.random()``, times a fair sign).

Wrong law: the zero is drawn under both signs, so ``Pr[Y = 0] = 1 - q`` while
``Pr[Y = -1] = (1 - q) q / 2`` (``q = e^(-1/scale)``): inputs 0 and 1, output 0 have ratio
``2 e^(1/scale)``, a loss of ``1/scale + ln 2``; and the noise is computed in floats
(``math.log`` of a float uniform). Witnessed on a seeded run (8,000 draws per input; the
observed ratio is about 5.4 against ``e^(map(1)) = e``).
Hole classes: 5 (a float sampler in a helper module not named like the project packages),
7 (a sampler whose law is subtly wrong).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402
import random  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noise_helpers import two_sided_geometric  # noqa: E402
from mechanisms.make_discrete_laplace import (IntegerNoise, build_discrete_laplace,  # noqa: E402
                                              make_discrete_laplace)
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_discrete_laplace"
CLASSES = (5, 7)


def build(scale):
    m = build_discrete_laplace(scale)
    return replace(m, function=IntegerNoise(scale, two_sided_geometric))


make_dl_geo = make_discrete_laplace.variant("make_discrete_laplace_float_geometric", build)
MECHANISMS = [Entry("outsider_dl_float_geometric", make_dl_geo)]


def witness() -> str:
    m = make_dl_geo(1.0)
    rng = random.Random(12345)
    runs = 8_000
    hits0 = sum(m(0, rng) == 0 for _ in range(runs))
    hits1 = sum(m(1, rng) == 0 for _ in range(runs))
    ratio = hits0 / hits1
    assert ratio > 1.5 * math.exp(m.map(1)), ratio
    return f"Pr[0 | x=0] / Pr[0 | x=1] ~ {hits0}/{hits1} = {ratio:.2f} > e^map(1) = {math.exp(m.map(1)):.2f}"
