"""Laplace threshold that skips keys whose true count is ``<= 0`` before drawing noise ("they
can hardly reach a threshold >= 0; save the draws"), the catalogue's kernel on the other keys
and the catalogue's map.

Correct: the release is the catalogue's mechanism applied to ``f(x) = {k: x(k) : x(k) > 0}``
(same keys in the same order, same draws). Per key, ``f`` maps a value ``a`` (absent = 0) to
``max(a, 0)``, which is 1-Lipschitz, so ``d(f(x), f(x'))`` is componentwise at most
``d(x, x')``: no key starts to differ, ``l1`` and ``linf`` do not grow. The map is monotone
componentwise (epsilon in ``l1`` and ``l0 linf``; delta in ``l0`` and, through a smaller gap,
in ``linf``), so ``map(d(f(x), f(x'))) <= map(d_in)``: the catalogue's guarantee for
``f(x), f(x')`` is within the claimed one. (A key in both maps may become one-sided under
``f``, with count ``max(x'(k), 0) <= |x'(k) - x(k)| <= linf``: the distance above accounts for it.)
Checked: seeded releases equal the catalogue's on ``f(x)``; on many random pairs
``d(f(x), f(x')) <= d(x, x')`` componentwise; the map is monotone on a grid.
"""

import itertools
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


@dataclass(frozen=True)
class SkipNonPositive(ThresholdedNoise):
    def __call__(self, counts, rng=None):
        rng, scale = system_rng(rng), Fraction(self.scale)
        released = {}
        for key, count in counts.items():
            if count <= 0:
                continue
            noisy = self.shift(count, self.sampler(scale, rng))
            if self.keep(noisy, self.threshold):
                released[key] = noisy
        return released


def build(carrier, scale, threshold):
    return replace(build_laplace_threshold(carrier, scale, threshold),
                   function=SkipNonPositive(scale, threshold, sample_discrete_laplace))


make_lt_skip = make_laplace_threshold.variant("make_laplace_threshold_skip_nonpositive", build)
MECHANISMS = [Entry("outsider_right_laplace_threshold_skip_nonpositive", make_lt_skip,
                    laplace_threshold_obligations(make_lt_skip,
                                                  "outsider_right_laplace_threshold_skip_nonpositive"))]


def positive_part(x):
    return {k: c for k, c in x.items() if c > 0}


def check() -> str:
    rng = random.Random(13)
    ours, theirs = make_lt_skip(str, 1.5, 2), make_laplace_threshold(str, 1.5, 2)
    metric = ours.input_metric
    hist = lambda: {k: rng.randrange(-4, 6) for k in "abcde" if rng.random() < 0.7}  # noqa: E731
    pairs = 0
    for s in range(300):
        x, y = hist(), hist()
        assert ours(x, random.Random(s)) == theirs(positive_part(x), random.Random(s))
        dx, df = metric.distance(x, y), metric.distance(positive_part(x), positive_part(y))
        assert all(a <= b for a, b in zip(df, dx)), (x, y, df, dx)
        pairs += 1
    for scale, threshold in [(1.5, 2), (0.5, 0), (3.0, 9)]:
        m = make_laplace_threshold(str, scale, threshold)
        grid = list(itertools.product(range(5), repeat=3))
        for a, b in itertools.product(grid, repeat=2):
            if all(u <= v for u, v in zip(a, b)):
                (e1, d1), (e2, d2) = m.map(a), m.map(b)
                assert e1 <= e2 and d1 <= d2, (a, b)
    return f"releases equal the catalogue's on f(x); {pairs} pairs contract under f; map monotone"
