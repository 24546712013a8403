"""Pure-to-approximate conversion whose function is a small wrapper object that delegates to
the component, ``Delegate(inner)(arg, rng) = inner(arg, rng)`` (written so the converted
measurement has its own ``repr``).

Correct: the wrapper passes the same argument and the same random source and returns the
component's release unchanged, so the output law is the component's, which is ``eps``-DP with
``eps = m(d_in)``; summing over any event gives ``(eps, 0)``. Checked: with equal seeds the
wrapper and the component release the same values on many inputs, and the maps are equal.
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


@dataclass(frozen=True)
class Delegate:
    inner: Any

    def __call__(self, arg, rng=None):
        return self.inner(arg, rng)


def build(measurement):
    return replace(build_pure_to_approx(measurement), function=Delegate(measurement.function))


make_p2a_delegate = make_pureDP_to_approxDP.variant("make_pureDP_to_approxDP_delegating_function",
                                                    build)
MECHANISMS = [Entry("outsider_right_pure_to_approx_delegating_function", make_p2a_delegate,
                    pure_to_approx_obligations(make_p2a_delegate,
                                               "outsider_right_pure_to_approx_delegating_function"))]


def check() -> str:
    component = make_discrete_laplace(2.5)
    ours, theirs = make_p2a_delegate(component), make_pureDP_to_approxDP(component)
    n = 0
    for x in range(-20, 20):
        for s in range(10):
            assert ours(x, random.Random(s)) == theirs(x, random.Random(s))
            n += 1
    assert all(ours.map(d) == theirs.map(d) for d in range(10))
    return f"same releases as the catalogue's on {n} seeded runs, equal maps"
