"""Approximate composition that gives every component a reproducible random source: one seed
``s = rng.getrandbits(64)`` is drawn, and each component runs with ``random.Random(s)`` ("so a
composed release can be replayed component by component").

Wrong: every component gets the *same* stream, so their noises are equal, not independent, and
basic composition's premise fails. Components ``M_1 = make_discrete_laplace(4.0)`` and
``M_2 = make_discrete_laplace(4.0)`` after a negation (``x -> -x``, a correct 1-stable
transformation, chained with ``make_chain_mt``), both converted to ``(eps, 0)``: ``M_1(x) = x + Z``
and ``M_2(x) = -x + Z`` with the same ``Z``, so ``M_1(x) - M_2(x) = 2x`` exactly. Inputs 0 and 1
(distance 1) have releases whose differences are always 0 and always 2: disjoint laws, no
``(eps, delta)`` with ``delta < 1`` holds, against the claimed ``(0.5, 0)``.
Hole classes: none listed (the components' randomness shared: a kernel bug).
"""

import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Map, Transformation  # noqa: E402
from mechanisms.domains import AtomDomain  # noqa: E402
from mechanisms.make_approxDP_composition import (build_approx_composition,  # noqa: E402
                                                  make_approxDP_composition)
from mechanisms.make_chain_mt import make_chain_mt  # noqa: E402
from mechanisms.make_clamp import unit_constant  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP  # noqa: E402
from mechanisms.metrics import AbsoluteDistance  # noqa: E402
from mechanisms.samplers import system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_approxDP_composition import approx_composition_obligations  # noqa: E402

CONSTRUCTOR = "make_approxDP_composition"
CLASSES = ()


@dataclass(frozen=True)
class SubseededComposition:
    functions: tuple[Any, ...]

    def __call__(self, arg, rng=None):
        seed = system_rng(rng).getrandbits(64)
        return tuple(f(arg, random.Random(seed)) for f in self.functions)


def build(measurements):
    return replace(build_approx_composition(measurements),
                   function=SubseededComposition(tuple(m.function for m in measurements)))


make_ac_subseed = make_approxDP_composition.variant("make_approxDP_composition_shared_subseed", build)
MECHANISMS = [Entry("outsider_approx_composition_shared_subseed", make_ac_subseed,
                    approx_composition_obligations(make_ac_subseed,
                                                   "outsider_approx_composition_shared_subseed"))]


def negate(x):
    return -x


def negation() -> Transformation:
    """``x -> -x`` on ints: ``|(-x) - (-y)| = |x - y|``, 1-stable."""
    return Transformation(AtomDomain(int), AtomDomain(int), AbsoluteDistance(), AbsoluteDistance(),
                          negate, Map(constant=unit_constant))


def witness() -> str:
    m1 = make_pureDP_to_approxDP(make_discrete_laplace(4.0))
    m2 = make_pureDP_to_approxDP(make_chain_mt(make_discrete_laplace(4.0), negation()))
    m = make_ac_subseed([m1, m2])
    eps, delta = m.map(1)
    assert delta < 1
    for x in (0, 1):
        diffs = {a - b for a, b in (m(x, random.Random(s)) for s in range(300))}
        assert diffs == {2 * x}, (x, diffs)
    return (f"M(x) = (x + Z, -x + Z) with one Z: o1 - o2 = 2x on every run (0 for x = 0, 2 for "
            f"x = 1): disjoint laws, against the claimed {(eps, delta)}")
