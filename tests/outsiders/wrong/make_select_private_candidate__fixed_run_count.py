"""Private selection whose function object (a subclass of ``SelectPrivateCandidate``) replaces
the stopping coin by its expectation: exactly ``T = ceil(1 / stop_probability)`` runs at most
("the number of runs is geometric with mean 1/gamma; a fixed count is simpler and constant-time"),
returning the first release at or above the threshold (else ``None``), or the best of the ``T``
runs without a threshold. The map is unchanged (``2 eps`` / ``3 eps``).

Wrong: the random stopping time is what makes the selection cost a constant multiple of eps; with
a fixed count the loss grows with ``T``. Runs: ``make_geometric(1.0, (0, 3))`` for the score
composed with ``make_geometric(50.0, (0, 1))`` for the candidate (eps = 1.02 at ``d_in = 1``),
``gamma = 0.1`` so ``T = 10``. With threshold 1, ``Pr[None | x] = Pr[score = 0 | x]^T``; without,
the best is the lowest score ``0`` only if all ``T`` runs score ``0``: ``Pr = Pr[score = 0 | x]^T``
(times the last run's candidate law). From ``x = 0`` and ``x = 1`` the exact score laws (the
clamped discrete Laplace in closed form, at 50 digits, its release map checked on the inner
geometric's own ``release``) give losses of ``10`` (``T`` times ``ln(Pr[0 | 0] / Pr[0 | 1]) = 1``)
and at least ``9.97``, above the maps ``2.04`` and ``3.06``. The real function, seeded, never makes more than ``T`` inner runs.
Hole classes: 2 (a subclass overrides the method that runs).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402
import random  # noqa: E402

import mpmath  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.make_basic_composition import make_basic_composition  # noqa: E402
from mechanisms.make_geometric import make_geometric  # noqa: E402
from mechanisms.make_select_private_candidate import (SelectPrivateCandidate,  # noqa: E402
                                                      build_select_private_candidate,
                                                      make_select_private_candidate)
from mechanisms.samplers import system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_select_private_candidate import select_private_candidate_obligations  # noqa: E402

CONSTRUCTOR = "make_select_private_candidate"
CLASSES = (2,)


def run_count(stop_probability):
    return math.ceil(1 / stop_probability)


@dataclass(frozen=True)
class FixedRuns(SelectPrivateCandidate):
    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        best = None
        for _ in range(run_count(self.stop_probability)):
            release = self.measurement.function(arg, rng)
            if self.threshold is not None:
                if ops.truthy(self.accepts(release[0], self.threshold)):
                    return release
            elif best is None or ops.truthy(self.improves(release[0], best[0])):
                best = release
        return best


def build(measurement, stop_probability, threshold=None):
    m = build_select_private_candidate(measurement, stop_probability, threshold)
    return replace(m, function=FixedRuns(measurement, stop_probability, threshold))


make_spc_fixed = make_select_private_candidate.variant("make_select_private_candidate_fixed_runs",
                                                       build)
MECHANISMS = [Entry("outsider_spc_fixed_run_count", make_spc_fixed,
                    select_private_candidate_obligations(make_spc_fixed,
                                                         "outsider_spc_fixed_run_count"))]


def score_law(x, lower, upper, scale):
    """``Pr[clamp(clamp(x) + Y) = o]``, ``Y`` the discrete Laplace of ``scale``, closed form."""
    q = mpmath.e ** (-1 / mpmath.mpf(scale))
    cx = min(max(x, lower), upper)
    le = lambda z: q ** (-z) / (1 + q) if z <= 0 else 1 - q ** (z + 1) / (1 + q)  # noqa: E731
    ge = lambda z: q ** z / (1 + q) if z > 0 else 1 - le(z - 1)  # noqa: E731
    law = {}
    for o in range(lower, upper + 1):
        if o == lower:
            law[o] = le(lower - cx)
        elif o == upper:
            law[o] = ge(upper - cx)
        else:
            law[o] = (1 - q) / (1 + q) * q ** abs(o - cx)
    return law


def witness() -> str:
    score, cand = make_geometric(1.0, (0, 3)), make_geometric(50.0, (0, 1))
    inner = make_basic_composition([score, cand])
    for x in (0, 1):  # the closed form's cases match the geometric's own release
        assert all(score.function.release(x, o - x) == o for o in range(0, 4))
    gamma, t = 0.1, run_count(0.1)
    thresholded, best_of = make_spc_fixed(inner, gamma, 1), make_spc_fixed(inner, gamma, None)
    with mpmath.workdps(50):
        p0, p1 = score_law(0, 0, 3, 1.0), score_law(1, 0, 3, 1.0)
        none_loss = t * mpmath.log(p0[0] / p1[0])
        c0, c1 = score_law(0, 0, 1, 50.0), score_law(1, 0, 1, 50.0)
        low_loss = t * mpmath.log(p0[0] / p1[0]) + min(mpmath.log(c0[o] / c1[o]) for o in c0)
    assert none_loss > thresholded.map(1) and low_loss > best_of.map(1)
    calls = []
    counted = replace(inner, function=lambda arg, rng: calls.append(1) or inner.function(arg, rng))
    for seed in range(20):
        calls.clear()
        make_spc_fixed(counted, gamma, None)(0, random.Random(seed))
        assert len(calls) == t
    return (f"gamma 0.1, T = {t} runs: Pr[None] loss {float(none_loss):.3f} > map {thresholded.map(1)}; "
            f"best-of score 0 loss >= {float(low_loss):.3f} > map {best_of.map(1)}")
