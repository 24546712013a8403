"""Pure-to-approximate conversion that makes releases reproducible: its function runs the
component with ``random.Random(repr(arg))`` ("the same dataset always gets the same answer, so
repeated queries cost nothing"), ignoring the caller's ``rng``.

Wrong: the release is now a deterministic function of the input. For the discrete Laplace of
scale 1 on ``x = 0`` and ``x' = 1`` (distance 1) the two releases are point masses at two
different integers: an event holding one of them has probability 1 under one input and 0 under
the other, so no ``(eps, 0)`` holds, whatever ``map(1)`` says.
Hole classes: none listed (a kernel bug: the noise depends only on the data).
"""

import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_pureDP_to_approxDP import build_pure_to_approx, make_pureDP_to_approxDP  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_pureDP_to_approxDP import pure_to_approx_obligations  # noqa: E402

CONSTRUCTOR = "make_pureDP_to_approxDP"
CLASSES = ()


@dataclass(frozen=True)
class Reproducible:
    inner: Any

    def __call__(self, arg, rng=None):
        return self.inner(arg, random.Random(repr(arg)))


def build(measurement):
    return replace(build_pure_to_approx(measurement), function=Reproducible(measurement.function))


make_p2a_seeded = make_pureDP_to_approxDP.variant("make_pureDP_to_approxDP_seed_from_input", build)
MECHANISMS = [Entry("outsider_pure_to_approx_seed_from_input", make_p2a_seeded,
                    pure_to_approx_obligations(make_p2a_seeded, "outsider_pure_to_approx_seed_from_input"))]


def witness() -> str:
    m = make_p2a_seeded(make_discrete_laplace(1.0))
    for x in range(0, 50):
        a = {m(x, random.Random(s)) for s in range(30)}
        b = {m(x + 1, random.Random(s)) for s in range(30)}
        assert len(a) == 1 and len(b) == 1  # point masses (the rng is never used)
        if a != b:
            return (f"inputs {x}, {x + 1}: releases always {a.pop()} and {b.pop()}: disjoint point "
                    f"masses, no (eps, 0) holds; map(1) = {m.map(1)}")
    raise AssertionError("no pair with different releases")
