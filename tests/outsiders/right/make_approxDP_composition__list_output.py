"""Approximate composition that returns a list, as OpenDP's ``make_composition`` does:
``function(x, rng) = [M_1(x, rng), ..., M_k(x, rng)]``.

Correct: the same draws in the same order, so the same values; ``ProductDomain`` admits lists
and tuples alike (``isinstance(value, (list, tuple))``), and the privacy of the composition does
not depend on the container. Checked: with equal seeds the releases are equal element by element
to the catalogue's, lists, members of the output domain; the maps are equal.
"""

import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.make_approxDP_composition import (build_approx_composition,  # noqa: E402
                                                  make_approxDP_composition)
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_laplace_threshold import make_laplace_threshold  # noqa: E402
from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_approxDP_composition import approx_composition_obligations  # noqa: E402

CONSTRUCTOR = "make_approxDP_composition"


@dataclass(frozen=True)
class ListComposition:
    functions: tuple[Any, ...]

    def __call__(self, arg, rng=None):
        return [f(arg, rng) for f in self.functions]


def build(measurements):
    return replace(build_approx_composition(measurements),
                   function=ListComposition(tuple(m.function for m in measurements)))


make_ac_list = make_approxDP_composition.variant("make_approxDP_composition_list_output", build)
MECHANISMS = [Entry("outsider_right_approx_composition_list_output", make_ac_list,
                    approx_composition_obligations(make_ac_list,
                                                   "outsider_right_approx_composition_list_output"))]


def check() -> str:
    n = 0
    lists = [[make_pureDP_to_approxDP(make_discrete_laplace(s)) for s in (1.0, 2.0, 0.5)],
             [make_laplace_threshold(str, 1.0, 2), make_laplace_threshold(str, 3.0, 0)]]
    inputs = [[-3, 0, 5], [{"a": 3, "b": 0}, {}]]
    for parts, xs in zip(lists, inputs):
        ours, theirs = make_ac_list(parts), make_approxDP_composition(parts)
        for x in xs:
            for s in range(20):
                a, b = ours(x, random.Random(s)), theirs(x, random.Random(s))
                assert type(a) is list and tuple(a) == b and ours.output_domain.member(a)
                n += 1
        assert all(ours.map(d) == theirs.map(d) for d in ([0, 1, 2] if xs[0] == -3 else [(1, 1, 1), (2, 3, 2)]))
    return f"{n} seeded releases equal to the catalogue's (as lists), equal maps"
