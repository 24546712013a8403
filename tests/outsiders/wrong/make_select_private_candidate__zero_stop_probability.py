"""Private selection whose stop-probability precondition admits ``0`` (``0 <= gamma < 1``, "as
OpenDP 0.16 does: gamma = 0 means search until a score reaches the threshold").

Wrong: at ``gamma = 0.0`` the exact stopping coin is ``randrange(1) < 0``, never true, so the
thresholdless best-of never returns, and the thresholded search never returns on an input whose
scores cannot reach the threshold (the data decide whether the mechanism halts: a timing channel
with an infinite gap). Run on the real function with a generator that raises after 20,000 draws:
best-of on ``0``, and threshold ``4`` above the score's upper bound ``3``, both exhaust it; the
map (``2 eps`` / ``3 eps``) is finite.
Hole classes: 13 (a weakened precondition), 14 (the function never returns).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.core import Constructor, Precondition  # noqa: E402
from mechanisms.errors import CandidateThresholdError, StopProbabilityError  # noqa: E402
from mechanisms.make_basic_composition import make_basic_composition  # noqa: E402
from mechanisms.make_geometric import make_geometric  # noqa: E402
from mechanisms.make_select_private_candidate import (build_select_private_candidate,  # noqa: E402
                                                      stop_coin,
                                                      validate_select_private_candidate)
from obligations.base import Entry  # noqa: E402
from obligations.make_select_private_candidate import select_private_candidate_obligations  # noqa: E402

CONSTRUCTOR = "make_select_private_candidate"
CLASSES = (13, 14)

PRECONDITIONS = (
    Precondition("stop_probability is finite",
                 lambda stop_probability, **_: ops.is_finite(stop_probability),
                 lambda stop_probability, **_: StopProbabilityError(stop_probability)),
    Precondition("0 <= stop_probability < 1",
                 lambda stop_probability, **_: ops.all_of(ops.le(0, stop_probability),
                                                          ops.lt(stop_probability, 1)),
                 lambda stop_probability, **_: StopProbabilityError(stop_probability)),
    Precondition("threshold is None or finite",
                 lambda threshold, **_: True if threshold is None else ops.is_finite(threshold),
                 lambda threshold, **_: CandidateThresholdError(threshold)),
)
make_spc_zero = Constructor("make_select_private_candidate_zero_gamma",
                            build_select_private_candidate, PRECONDITIONS,
                            validate_select_private_candidate)
MECHANISMS = [Entry("outsider_spc_zero_stop_probability", make_spc_zero,
                    select_private_candidate_obligations(make_spc_zero,
                                                         "outsider_spc_zero_stop_probability"))]


class Exhausted(Exception):
    pass


class BudgetRng(random.Random):
    """A seeded generator that raises after ``budget`` calls of ``randrange``."""

    def __init__(self, seed, budget):
        super().__init__(seed)
        self.left = budget

    def randrange(self, *args, **kwargs):
        self.left -= 1
        if self.left < 0:
            raise Exhausted
        return super().randrange(*args, **kwargs)


def witness() -> str:
    inner = make_basic_composition([make_geometric(1.0, (0, 3)), make_geometric(50.0, (0, 1))])
    assert not any(stop_coin(0.0, random.Random(seed)) for seed in range(100))
    found = []
    for threshold in (None, 4):
        m = make_spc_zero(inner, 0.0, threshold)
        assert m.map(1) < float("inf")
        try:
            m(0, BudgetRng(0, 20_000))
        except Exhausted:
            found.append(f"threshold {threshold}: no return in 20,000 draws (map(1) = {m.map(1)})")
    assert len(found) == 2, found
    return "gamma 0.0 admitted; " + "; ".join(found)
