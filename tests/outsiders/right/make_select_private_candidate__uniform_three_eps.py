"""Private selection whose map charges ``3 eps`` in both modes (``selection_factor`` always 3:
"one bound for both, the best-of one, so nobody picks the wrong one").

Correct (a larger map): with a threshold the catalogue's ``2 eps`` (Liu and Talwar 2019,
Theorem 3.1) holds, and ``3 eps >= 2 eps``; without one it is the catalogue's map. Same function.
Checked: never below the catalogue's map, both modes, on a grid of runs and distances; rounded up
by ``mul_up`` as the catalogue's.
"""

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Map  # noqa: E402
from mechanisms.make_basic_composition import make_basic_composition  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_geometric import make_geometric  # noqa: E402
from mechanisms.make_select_private_candidate import (BEST_OF_FACTOR,  # noqa: E402
                                                      build_select_private_candidate,
                                                      candidate_map,
                                                      make_select_private_candidate)
from obligations.base import Entry  # noqa: E402
from obligations.make_select_private_candidate import select_private_candidate_obligations  # noqa: E402

CONSTRUCTOR = "make_select_private_candidate"


def build(measurement, stop_probability, threshold=None):
    m = build_select_private_candidate(measurement, stop_probability, threshold)
    return replace(m, privacy_map=Map(rule=candidate_map, params={
        "measurement": measurement, "factor": BEST_OF_FACTOR}))


make_spc_three = make_select_private_candidate.variant("make_select_private_candidate_three_eps",
                                                       build)
MECHANISMS = [Entry("outsider_right_spc_uniform_three_eps", make_spc_three,
                    select_private_candidate_obligations(make_spc_three,
                                                         "outsider_right_spc_uniform_three_eps"))]


def check() -> str:
    n = 0
    for a, b in ((1.0, 50.0), (0.3, 7.0), (3.0, 3.0)):
        for inner in (make_basic_composition([make_geometric(a, (0, 3)), make_geometric(b, (0, 1))]),
                      make_basic_composition([make_discrete_laplace(a), make_discrete_laplace(b)])):
            for threshold in (None, 0, 2.5):
                ours = make_spc_three(inner, 0.25, threshold)
                theirs = make_select_private_candidate(inner, 0.25, threshold)
                for d in (0, 1, 2, 7):
                    assert Fraction(ours.map(d)) >= Fraction(theirs.map(d))
                    assert Fraction(ours.map(d)) >= 3 * Fraction(inner.map(d))
                    n += 1
    return f"map >= the catalogue's and >= 3 eps on {n} cases"
