"""Bounded geometric whose function object (a subclass of ``BoundedIntegerNoise``) releases
``min(clamp(x) + Y, upper)``: the output is clamped only from above ("the noise is symmetric and
the input is already clamped, the lower side cannot overflow").

Wrong: a negative draw takes the release below ``lower``, outside the declared output domain
``AtomDomain(int, bounds=(L, U))``; a downstream consumer of that domain (an index into a
histogram of ``U - L + 1`` bins, a lookup table) meets values it was promised never to see.
Run on the real function at ``x = L``: about half the releases are below ``L``.
Hole classes: 2 (a subclass overrides a kernel method).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.make_geometric import BoundedIntegerNoise, build_geometric, make_geometric  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_geometric"
CLASSES = (2,)


@dataclass(frozen=True)
class UpperClampNoise(BoundedIntegerNoise):
    def release(self, arg, noise):
        return ops.minimum(self.clamp(arg) + noise, self.upper)


def build(scale, bounds):
    m = build_geometric(scale, bounds)
    f = m.function
    return replace(m, function=UpperClampNoise(f.scale, f.lower, f.upper, f.sampler))


make_geo_upper = make_geometric.variant("make_geometric_upper_clamp_only", build)
MECHANISMS = [Entry("outsider_geo_one_sided_clamp", make_geo_upper)]


def witness() -> str:
    m = make_geo_upper(4.0, (0, 10))
    rng = random.Random(0)
    outs = [m(0, rng) for _ in range(200)]
    below = [y for y in outs if not m.output_domain.member(y)]
    assert below and min(below) < 0
    return (f"scale 4, bounds (0, 10): {len(below)} of 200 releases on x = 0 are outside "
            f"{m.output_domain} (least {min(below)})")
