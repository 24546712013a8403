"""Report-noisy-max whose sampler object is built with ``scale / 2`` ("Gumbel scale is half the
exponential mechanism's temperature"), while the map is ``2 d / scale``.

Wrong: the law is the exponential mechanism at temperature ``scale / 2``. With 20 candidates,
``s = [0, 1, ..., 1]`` vs ``s' = [1, 0, ..., 0]`` (LInf 1), the probability of index 0 grows by
``e^2 (1 + 19 e^2) / (e^2 + 19)``, a loss of about 3.68 > ``map(1) = 2`` (law computed from the
real function's ``gammas``, mpmath at 40 digits).
Hole classes: 1 (the function's own copy of the scale is a transformed argument).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import exponential_mechanism_law, mp  # noqa: E402
from mechanisms.make_report_noisy_max import (NoisyMax, build_report_noisy_max,  # noqa: E402
                                              make_report_noisy_max)
from obligations.base import Entry  # noqa: E402
from obligations.make_report_noisy_max import report_noisy_max_obligations  # noqa: E402

CONSTRUCTOR = "make_report_noisy_max"
CLASSES = (1,)


def build(scale, optimize="max", T=float):
    m = build_report_noisy_max(scale, optimize, T)
    return replace(m, function=NoisyMax(scale / 2, m.function.sign))


make_rnm_half = make_report_noisy_max.variant("make_report_noisy_max_half", build)
MECHANISMS = [Entry("outsider_rnm_half_temperature", make_rnm_half,
                    report_noisy_max_obligations(make_rnm_half, "outsider_rnm_half_temperature"))]


def witness() -> str:
    m = make_rnm_half(1.0)
    s, s2 = [0.0] + [1.0] * 19, [1.0] + [0.0] * 19
    assert m.input_metric.distance(s, s2) == 1
    p = exponential_mechanism_law(m.function.gammas(s))
    q = exponential_mechanism_law(m.function.gammas(s2))
    loss = mpmath.log(q[0] / p[0])
    assert loss > mp(m.map(1))
    return f"scale 1, 20 candidates: loss {float(loss):.4f} > map(1) = {m.map(1)}"
