"""Basic composition summing the component maps right to left, each addition rounded up.

Correct: every ``add_up`` is at least the exact sum of its arguments, so by induction the
result is at least the exact ``sum_i map_i(d_in)``, whatever the order; a larger epsilon is still
a valid bound. Checked exactly with Fractions on several lists of components.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fractions import Fraction  # noqa: E402
from functools import reduce  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_basic_composition import build_basic_composition, make_basic_composition  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_gaussian import make_gaussian  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_basic_composition"


def right_fold(d_in, maps):
    values = [m(d_in) for m in maps]
    return reduce(lambda acc, v: ops.add_up(v, acc), reversed(values[:-1]), values[-1])


def build(measurements):
    return replace(build_basic_composition(measurements), privacy_map=Map(
        rule=right_fold, params={"maps": tuple(m.privacy_map for m in measurements)}))


make_comp_rf = make_basic_composition.variant("make_basic_composition_right_fold", build)
MECHANISMS = [Entry("outsider_right_comp_right_fold", make_comp_rf)]


def check() -> str:
    lists = [[make_discrete_laplace(s) for s in (1.0, 3.0, 7.0, 0.1)],
             [make_discrete_laplace(1.0), make_discrete_laplace(2.0 ** 53)],
             [make_gaussian(s) for s in (0.3, 1.0, 9.0)], [make_discrete_laplace(0.7)]]
    n = 0
    for ms in lists:
        m = make_comp_rf(ms)
        for d in range(4):
            assert Fraction(m.map(d)) >= sum(Fraction(c.map(d)) for c in ms)
            n += 1
    return f"map >= exact sum of component maps on {n} cases"
