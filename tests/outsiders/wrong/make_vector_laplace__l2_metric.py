"""Vector Laplace declared on ``L2Distance`` (copied from the vector Gaussian next door: "both are
vector distances"), keeping the Laplace map ``d_in / scale``.

Wrong: the per-coordinate Laplace losses add up to the L1 distance, which exceeds the L2
distance. ``[0, 0, 0, 0]`` and ``[1, 1, 1, 1]`` are at L2 distance 2 (the metric's own
``distance``), so the map claims ``2 / scale``; the exact worst-case loss of the running kernel
(each coordinate's discrete Laplace ratio, with the scale recorded from the real ``__call__``) is
``4 / scale``, attained at every output with all coordinates ``<= 0``.
Hole classes: none listed (a metric that does not fit the map).
"""

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from _exact import Recorder, dl_shift_loss, exact  # noqa: E402
from mechanisms.make_vector_laplace import build_vector_laplace, make_vector_laplace  # noqa: E402
from mechanisms.metrics import L2Distance  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_vector_laplace"
CLASSES = ()


def build(scale):
    return replace(build_vector_laplace(scale), input_metric=L2Distance())


make_vl_l2 = make_vector_laplace.variant("make_vector_laplace_l2", build)
MECHANISMS = [Entry("outsider_vl_l2_metric", make_vl_l2)]


def witness() -> str:
    m = make_vl_l2(1.0)
    v, w = [0, 0, 0, 0], [1, 1, 1, 1]
    assert m.input_domain.member(v) and m.input_domain.member(w)
    d_in = m.input_metric.distance(v, w)
    recorder = Recorder()
    replace(m.function, sampler=recorder)(v, random.Random(0))
    assert len(recorder.scales) == len(v)
    loss = sum(dl_shift_loss(a - b, s) for a, b, s in zip(v, w, recorder.scales))
    claimed = m.map(d_in)
    assert Fraction(loss) > exact(claimed)
    return f"scale 1: L2 distance {d_in}, map {claimed}; exact loss of 4 shifted coordinates {loss}"
