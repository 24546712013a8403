"""AboveThreshold whose comparison is rearranged: ``q_i + nu_i - rho >= threshold`` instead of
``q_i + nu_i >= threshold + rho``.

Correct: on integers the two inequalities are equivalent, the draws are the same and in the same
order, so the function is identical for every draw sequence. Checked: equal outputs with equal
seeded sources on 180 query vectors.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.make_above_threshold import (AboveThreshold, build_above_threshold,  # noqa: E402
                                             make_above_threshold)
from obligations.base import Entry  # noqa: E402
from obligations.make_above_threshold import above_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_above_threshold"


def rearranged(answer, nu, threshold, rho):
    return ops.le(threshold, answer + nu - rho)


@dataclass(frozen=True)
class RearrangedAboveThreshold(AboveThreshold):
    above = staticmethod(rearranged)


def build(scale, threshold):
    m = build_above_threshold(scale, threshold)
    return replace(m, function=RearrangedAboveThreshold(scale, threshold))


make_at_re = make_above_threshold.variant("make_above_threshold_rearranged", build)
MECHANISMS = [Entry("outsider_right_at_rearranged_test", make_at_re,
                    above_threshold_obligations(make_at_re, "outsider_right_at_rearranged_test"))]


def check() -> str:
    pick = random.Random(11)
    n = 0
    for scale, threshold in ((1.0, 0), (0.5, 3), (2.0, -2)):
        ours, theirs = make_at_re(scale, threshold), make_above_threshold(scale, threshold)
        for seed in range(60):
            v = [pick.randint(-5, 5) for _ in range(pick.randint(0, 6))]
            assert ours(v, random.Random(seed)) == theirs(v, random.Random(seed))
            n += 1
    return f"equal outputs to make_above_threshold on {n} seeded runs"
