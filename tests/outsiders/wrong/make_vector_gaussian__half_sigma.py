"""Vector Gaussian whose noise object is built with ``scale / 2`` ("CKS's density is
``exp(-x^2 / (2 sigma^2))``, our scale already carries the 2"), while the map is
``d_in^2 / (2 scale^2)``.

Wrong: the noise is half as wide as the map assumes, a rho four times the claimed one. At
``scale = 1`` the sampler is handed sigma ``1/2`` (recorded from the real ``__call__``); ``[0]``
and ``[1]`` at L2 distance 1 give a Renyi divergence of order 2 of about 4 (mpmath, truncated
sums that only lower it), above ``2 map(1) = 1``.
Hole classes: 1 (the function's own copy of the scale is a transformed argument).
"""

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from _exact import Recorder, dg_renyi_lower, mp  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.make_vector_gaussian import build_vector_gaussian, make_vector_gaussian  # noqa: E402
from mechanisms.make_vector_laplace import VectorNoise  # noqa: E402
from mechanisms.samplers import sample_discrete_gaussian  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_vector_gaussian"
CLASSES = (1,)


def build(scale):
    return replace(build_vector_gaussian(scale),
                   function=VectorNoise(ops.exact(scale) / 2, sample_discrete_gaussian))


make_vg_half = make_vector_gaussian.variant("make_vector_gaussian_half_sigma", build)
MECHANISMS = [Entry("outsider_vg_half_sigma", make_vg_half)]


def witness() -> str:
    m = make_vg_half(1.0)
    assert m.function.sampler is sample_discrete_gaussian
    recorder = Recorder()
    replace(m.function, sampler=recorder)([0], random.Random(0))
    sigma = Fraction(recorder.scales[0])
    divergence = dg_renyi_lower(sigma, 1, 2)
    claimed = m.map(m.input_metric.distance([0], [1]))
    assert divergence > 2 * mp(claimed)
    return f"scale 1 (sigma drawn {sigma}): D_2 >= {float(divergence):.3f} > 2 rho = {2 * claimed}"
