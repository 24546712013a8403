"""Report-noisy-max whose rejection sampler measures scores from ``max + 1`` instead of the
maximum: ``gamma_i = (m + 1 - s_i) / scale`` (a subclass replacing ``rejection_gamma``).

Correct: the rejection loop returns ``i`` with probability ``a_i / sum_j a_j`` for any
acceptance probabilities ``a_i = exp(-gamma_i) <= 1`` not all zero, and shifting every
``gamma_i`` by the same ``1/scale`` multiplies every ``a_i`` by ``e^(-1/scale)``: the same law
(only slower). Checked exactly: all ``gamma_i >= 0`` and every difference ``gamma_i - gamma_j``
equals the catalogue's, as Fractions.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.make_report_noisy_max import (NoisyMax, build_report_noisy_max,  # noqa: E402
                                              make_report_noisy_max)
from obligations.base import Entry  # noqa: E402
from obligations.make_report_noisy_max import report_noisy_max_obligations  # noqa: E402

CONSTRUCTOR = "make_report_noisy_max"
CLASSES = (7,)


def raised_gamma(score, best, scale):
    return (best + 1 - score) / ops.exact(scale)


@dataclass(frozen=True)
class RaisedNoisyMax(NoisyMax):
    rejection_gamma = staticmethod(raised_gamma)


def build(scale, optimize="max", T=float):
    m = build_report_noisy_max(scale, optimize, T)
    return replace(m, function=RaisedNoisyMax(m.function.scale, m.function.sign))


make_rnm_raised = make_report_noisy_max.variant("make_report_noisy_max_raised", build)
MECHANISMS = [Entry("outsider_right_rnm_raised_reference", make_rnm_raised,
                    report_noisy_max_obligations(make_rnm_raised, "outsider_right_rnm_raised_reference"))]


def check() -> str:
    rng = random.Random(5)
    n = 0
    for scale in (0.5, 1.0, 3.0):
        for optimize in ("max", "min"):
            ours = make_rnm_raised(scale, optimize).function
            theirs = make_report_noisy_max(scale, optimize).function
            for _ in range(40):
                scores = [rng.choice([0.0, 1.0, -2.5, rng.uniform(-5, 5)]) for _ in range(rng.randint(1, 6))]
                g, h = ours.gammas(scores), theirs.gammas(scores)
                assert all(x >= 0 for x in g)
                assert all(g[i] - g[0] == h[i] - h[0] for i in range(len(g)))
                n += 1
    return f"gamma differences equal to the catalogue's on {n} score vectors (same law)"
