"""Report-noisy-max with OpenDP's *monotonic* map ``d / scale`` on a non-monotonic LInf metric.

Wrong: scores may move in opposite directions. With 20 candidates, ``s = [0, 1, ..., 1]`` vs
``s' = [1, 0, ..., 0]`` (LInf 1) at scale 1, index 0's probability grows by
``e (1 + 19 e) / (e + 19)``, a loss of about 1.88 > ``map(1) = 1``.
Hole classes: none listed (plain wrong sensitivity).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import exponential_mechanism_law, mp  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_report_noisy_max import build_report_noisy_max, make_report_noisy_max  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_report_noisy_max import report_noisy_max_obligations  # noqa: E402

CONSTRUCTOR = "make_report_noisy_max"
CLASSES = ()


def monotone_map(d_in, scale):
    return div_up(d_in, scale)


def build(scale, optimize="max", T=float):
    m = build_report_noisy_max(scale, optimize, T)
    return replace(m, privacy_map=Map(rule=monotone_map, params={"scale": scale}))


make_rnm_mono = make_report_noisy_max.variant("make_report_noisy_max_monotone", build)
MECHANISMS = [Entry("outsider_rnm_monotone_map", make_rnm_mono,
                    report_noisy_max_obligations(make_rnm_mono, "outsider_rnm_monotone_map"))]


def witness() -> str:
    m = make_rnm_mono(1.0)
    s, s2 = [0.0] + [1.0] * 19, [1.0] + [0.0] * 19
    p = exponential_mechanism_law(m.function.gammas(s))
    q = exponential_mechanism_law(m.function.gammas(s2))
    loss = mpmath.log(q[0] / p[0])
    assert loss > mp(m.map(1))
    return f"scale 1, 20 candidates: loss {float(loss):.4f} > map(1) = {m.map(1)}"
