"""Bounded mean with twice the catalogue's rounding relaxation.

Correct (a larger map): the exact part is the same, the relaxation is larger, and ``float_up`` of
a larger rational is a float at least as large; any upper bound of a valid map is valid.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Map  # noqa: E402
from mechanisms.make_bounded_mean import (build_bounded_mean, make_bounded_mean, mean_map,  # noqa: E402
                                          mean_relaxation)
from obligations.base import Entry  # noqa: E402
from obligations.make_bounded_mean import bounded_mean_obligations  # noqa: E402

CONSTRUCTOR = "make_bounded_mean"


def build(lower, upper, n):
    return replace(build_bounded_mean(lower, upper, n), stability_map=Map(rule=mean_map, params={
        "lower": lower, "upper": upper, "n": n, "relaxation": 2 * mean_relaxation(lower, upper, n)}))


make_mean_2x = make_bounded_mean.variant("make_bounded_mean_double_relaxation", build)
MECHANISMS = [Entry("outsider_right_mean_double_relaxation", make_mean_2x,
                    bounded_mean_obligations(make_mean_2x, "outsider_right_mean_double_relaxation"))]


def check() -> str:
    n_cases = 0
    for lower, upper in ((0.0, 1.0), (-3.0, 2.5), (0.0, 0.7), (-1e10, 1e10)):
        for n in (1, 3, 7, 1000):
            ours, theirs = make_mean_2x(lower, upper, n), make_bounded_mean(lower, upper, n)
            v = [lower] * n
            assert ours(v) == theirs(v)
            for d in range(0, 8, 2):
                assert ours.map(d) >= theirs.map(d)
                n_cases += 1
    return f"same function, map >= catalogue's on {n_cases} cases"
