"""Vector Gaussian whose map reads ``d_in`` as the squared L2 distance ("the sensitivity of a sum
of squares"): ``d_in / (2 scale^2)`` rounded up, ``0`` at ``d_in = 0``.

Wrong for ``d_in > 1``: the input metric is the L2 distance itself (its ``distance`` is the square
root), so the true bound is ``d_in^2 / (2 scale^2)``. ``[0]`` and ``[3]`` are at L2 distance 3:
the map claims ``1.5`` at ``scale = 1``, while one discrete Gaussian coordinate of
``sigma = 1`` (recorded from the real ``__call__``) shifted by 3 has Renyi divergence of order 2
about 9 (mpmath, truncated sums that only lower it), above ``2 map(3) = 3``. It agrees with the
true map at ``d_in = 1``, the usual unit test.
Hole classes: none listed (a map that holds only for d_in <= 1).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from _exact import Recorder, dg_renyi_lower, mp  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_laplace import exact_sum  # noqa: E402
from mechanisms.make_vector_gaussian import build_vector_gaussian, make_vector_gaussian  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_vector_gaussian"
CLASSES = ()


def squared_input_map(d_in, scale):
    s = ops.exact(scale)
    return ops.where(ops.eq(d_in, 0), 0, div_up(exact_sum(d_in, 0), 2 * s * s))


def build(scale):
    return replace(build_vector_gaussian(scale),
                   privacy_map=Map(rule=squared_input_map, params={"scale": scale}))


make_vg_sq = make_vector_gaussian.variant("make_vector_gaussian_squared_input", build)
MECHANISMS = [Entry("outsider_vg_squared_input_map", make_vg_sq)]


def witness() -> str:
    m = make_vg_sq(1.0)
    v, w = [0], [3]
    d_in = m.input_metric.distance(v, w)
    recorder = Recorder()
    replace(m.function, sampler=recorder)(v, random.Random(0))
    divergence = dg_renyi_lower(recorder.scales[0], 3, 2)
    claimed = m.map(d_in)
    assert m.map(1.0) == make_vector_gaussian(1.0).map(1.0)
    assert divergence > 2 * mp(claimed)
    return (f"scale 1: [0] vs [3], L2 distance {d_in}, map {claimed}; D_2 >= "
            f"{float(divergence):.3f} > 2 rho = {2 * claimed}")
