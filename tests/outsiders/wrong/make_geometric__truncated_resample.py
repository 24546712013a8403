"""Bounded geometric whose function object (a subclass of ``BoundedIntegerNoise``) imitates
OpenDP's bounded draw by rejection: it redraws the discrete Laplace until ``|Y| < U - L`` ("a
draw of ``U - L`` or more lands on a bound anyway, OpenDP truncates its trials there"), then
releases ``clamp(clamp(x) + Y)``.

Wrong: OpenDP's truncation moves the far draws onto the bounds; rejection *removes* them, so the
bound opposite to the input becomes unreachable. With bounds ``(0, 3)`` (``R = 3``): from
``x = 0`` every accepted draw has ``Y <= 2``, so the release ``3`` has probability exactly 0
(checked on the object's own ``release`` for every accepted draw), while from ``x = 1`` the
accepted draw ``Y = 2`` releases ``3`` with positive probability: inputs at distance 1 with an
infinite privacy loss against ``map(1) = 1 / scale``. The real function, run 2000 times on each
seeded input, shows it: ``3`` from ``x = 1``, never from ``x = 0``.
Hole classes: 2 (a subclass overrides the method that runs), 7 (a sampler whose law is wrong).
"""

import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms.make_geometric import BoundedIntegerNoise, build_geometric, make_geometric  # noqa: E402
from mechanisms.samplers import system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_geometric"
CLASSES = (2, 7)


@dataclass(frozen=True)
class RejectionBoundedNoise(BoundedIntegerNoise):
    def __call__(self, arg, rng=None):
        scale = Fraction(self.scale)
        if scale <= 0:
            return self.release(arg, 0)
        rng = system_rng(rng)
        while True:
            noise = self.sampler(scale, rng)
            if abs(noise) < self.upper - self.lower or self.upper == self.lower:
                return self.release(arg, noise)


def build(scale, bounds):
    m = build_geometric(scale, bounds)
    f = m.function
    return replace(m, function=RejectionBoundedNoise(f.scale, f.lower, f.upper, f.sampler))


make_geo_reject = make_geometric.variant("make_geometric_truncated_resample", build)
MECHANISMS = [Entry("outsider_geo_truncated_resample", make_geo_reject)]


def witness() -> str:
    m = make_geo_reject(1.0, (0, 3))
    f = m.function
    width = f.upper - f.lower
    accepted = range(-width + 1, width)
    assert all(f.release(0, z) != 3 for z in accepted)
    assert f.release(1, 2) == 3 and 2 in accepted
    rng = random.Random(0)
    from_0 = {m(0, rng) for _ in range(2000)}
    from_1 = {m(1, rng) for _ in range(2000)}
    assert 3 not in from_0 and 3 in from_1
    return (f"scale 1, bounds (0, 3): release 3 impossible from x = 0 (outputs seen {sorted(from_0)}),"
            f" possible from x = 1 (seen {sorted(from_1)}): infinite loss vs map(1) = {m.map(1)}")
