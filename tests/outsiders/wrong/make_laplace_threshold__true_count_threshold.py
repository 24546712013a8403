"""Laplace threshold that decides which keys to release on the true count and adds noise only
to the released value: ``keep(count, threshold)`` then ``count + Z`` (the "filter, then noise"
order of a pipeline written as two steps), map unchanged.

Wrong: whether a key appears is now a deterministic function of its true count. With
``threshold = 10``, ``scale = 1``: ``x = {"a": 10}`` always releases key ``"a"`` and
``x' = {"a": 9}`` never does; they are at ``(1, 1, 1)``, where the map claims
``delta = min(1, tail(9)) ≈ 1.2e-4``. The event "key a is released" has probability 1 against
0: the least delta is 1 at any epsilon.
Hole classes: none listed (a kernel bug: the threshold on the wrong value).
"""

import random
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.make_laplace_threshold import (ThresholdedNoise, build_laplace_threshold,  # noqa: E402
                                               make_laplace_threshold)
from mechanisms.samplers import sample_discrete_laplace, system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_laplace_threshold import laplace_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_laplace_threshold"
CLASSES = ()


@dataclass(frozen=True)
class FilterThenNoise(ThresholdedNoise):
    def __call__(self, counts, rng=None):
        rng, scale = system_rng(rng), Fraction(self.scale)
        released = {}
        for key, count in counts.items():
            if self.keep(count, self.threshold):
                released[key] = self.shift(count, self.sampler(scale, rng))
        return released


def build(carrier, scale, threshold):
    return replace(build_laplace_threshold(carrier, scale, threshold),
                   function=FilterThenNoise(scale, threshold, sample_discrete_laplace))


make_lt_true = make_laplace_threshold.variant("make_laplace_threshold_true_count_threshold", build)
MECHANISMS = [Entry("outsider_laplace_threshold_true_count_threshold", make_lt_true,
                    laplace_threshold_obligations(make_lt_true,
                                                  "outsider_laplace_threshold_true_count_threshold"))]


def witness() -> str:
    m = make_lt_true(str, 1.0, 10)
    x, y = {"a": 10}, {"a": 9}
    d = m.input_metric.distance(x, y)
    assert d == (1, 1, 1)
    eps, delta = m.map(d)
    assert delta < 1
    # the release decision ignores the noise: extreme noises in both directions change nothing
    for noise in (-10**6, 0, 10**6):
        f = replace(m.function, sampler=lambda scale, rng, z=noise: z)
        assert "a" in f(x, random.Random(0)) and "a" not in f(y, random.Random(0))
    assert all("a" in m(x, random.Random(s)) and "a" not in m(y, random.Random(s)) for s in range(50))
    return (f"{x} vs {y} at d_in {d}: key 'a' released with probability 1 against 0, least delta 1 "
            f"> claimed {(eps, delta)}")
