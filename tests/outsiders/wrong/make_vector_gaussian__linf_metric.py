"""Vector Gaussian declared on ``LInfDistance`` ("a query vector moves by at most d_in in every
coordinate", as the noisy-max scores), keeping ``(d_in / scale)^2 / 2``.

Wrong: independent coordinates' Renyi divergences add, so the loss grows with the number of
coordinates that move. ``[0, 0, 0, 0]`` and ``[1, 1, 1, 1]`` are at L-infinity distance 1
(the metric's own ``distance``) and the map claims ``1/2`` at ``scale = 1``; with the sigma each
coordinate's draw gets (recorded from the real ``__call__``), the Renyi divergence of order 2 is
the sum of four one-step discrete Gaussian divergences, about 4 (mpmath, truncated sums that only
lower it), above ``2 map(1) = 1``.
Hole classes: none listed (a metric that does not fit the map).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from _exact import Recorder, dg_renyi_lower, mp  # noqa: E402
from mechanisms.make_vector_gaussian import build_vector_gaussian, make_vector_gaussian  # noqa: E402
from mechanisms.metrics import LInfDistance  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_vector_gaussian"
CLASSES = ()


def build(scale):
    return replace(build_vector_gaussian(scale), input_metric=LInfDistance())


make_vg_linf = make_vector_gaussian.variant("make_vector_gaussian_linf", build)
MECHANISMS = [Entry("outsider_vg_linf_metric", make_vg_linf)]


def witness() -> str:
    m = make_vg_linf(1.0)
    v, w = [0, 0, 0, 0], [1, 1, 1, 1]
    assert m.input_domain.member(v) and m.input_domain.member(w)
    d_in = m.input_metric.distance(v, w)
    recorder = Recorder()
    replace(m.function, sampler=recorder)(v, random.Random(0))
    assert len(recorder.scales) == len(v)
    divergence = sum(dg_renyi_lower(s, abs(a - b), 2) for a, b, s in zip(v, w, recorder.scales))
    claimed = m.map(d_in)
    assert divergence > 2 * mp(claimed)
    return (f"scale 1: L-inf distance {d_in}, map {claimed}; D_2 of four shifted coordinates "
            f">= {float(divergence):.4f} > 2 rho = {2 * claimed}")
