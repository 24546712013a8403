"""Vector Gaussian declared on ``L1Distance`` (the metric a vector sum or a histogram usually comes
with), keeping the map ``(d_in / scale)^2 / 2``.

Correct: for integer vectors of one length, ``||v - w||_2^2 = sum_i (v_i - w_i)^2
<= (sum_i |v_i - w_i|)^2 = ||v - w||_1^2`` (the cross terms are non-negative), so an L1 bound
``d_in`` is an L2 bound too, and the catalogue's argument (CKS 2020 Theorem 4 per coordinate,
Renyi divergences of independent coordinates add) gives ``||v - w||_2^2 / (2 scale^2) <=
map(d_in)``; vectors of different lengths are at distance ``+inf`` under both metrics. Checked
exactly on seeded random integer vector pairs: the squared L2 distance (the L2 metric's exact
``squared``) is at most the square of the L1 metric's distance, and the map at the L1 distance is
at least ``||v - w||_2^2 / (2 scale^2)``.
"""

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms.make_vector_gaussian import build_vector_gaussian, make_vector_gaussian  # noqa: E402
from mechanisms.metrics import L1Distance, L2Distance  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_vector_gaussian"


def build(scale):
    return replace(build_vector_gaussian(scale), input_metric=L1Distance())


make_vg_l1 = make_vector_gaussian.variant("make_vector_gaussian_l1", build)
MECHANISMS = [Entry("outsider_right_vg_l1_metric", make_vg_l1)]


def check() -> str:
    rng = random.Random(7)
    n = 0
    for scale in (0.3, 1.0, 2.5, 40.0):
        m = make_vg_l1(scale)
        sigma = Fraction(m.function.scale)
        for _ in range(300):
            size = rng.randrange(0, 7)
            v = [rng.randrange(-20, 21) for _ in range(size)]
            w = [x + rng.randrange(-6, 7) * (rng.random() < 0.6) for x in v]
            d_in = m.input_metric.distance(v, w)
            squared = L2Distance().squared(v, w)
            assert squared <= Fraction(d_in) ** 2
            assert squared / (2 * sigma * sigma) <= Fraction(m.map(d_in))
            n += 1
    assert make_vg_l1(1.0).map(make_vg_l1(1.0).input_metric.distance([1], [1, 2])) == float("inf")
    return f"{n} pairs: ||v-w||_2^2 <= L1^2 and ||v-w||_2^2 / (2 sigma^2) <= map(L1) exactly"
