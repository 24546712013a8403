"""Private selection whose function object (a subclass of ``SelectPrivateCandidate``) accepts a
release when its score is strictly *above* the threshold (``threshold < score``).

Correct: Liu and Talwar's argument (their Theorem 3.1) never uses the shape of the acceptance
event, only that it is a fixed set ``S`` of releases chosen before seeing the data: the output is
the first run in ``S``, or ``None`` when the coin stops first, so ``Pr[o] = p(o) / (1 - (1 - gamma)
(1 - p(S)))`` for ``o`` in ``S`` and ``gamma / (...)`` for ``None``, each ratio within ``e^eps``
twice: ``2 eps``. ``{score > t}`` is such a set as well as ``{score >= t}``. Checked exactly
where it can be: on integer scores ``score > t`` is ``score >= t + 1``, and the variant with
threshold ``t`` returns, for every seed (the same draws), what the catalogue's returns with
threshold ``t + 1``; the map is the catalogue's ``2 eps``.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.make_basic_composition import make_basic_composition  # noqa: E402
from mechanisms.make_geometric import make_geometric  # noqa: E402
from mechanisms.make_select_private_candidate import (SelectPrivateCandidate,  # noqa: E402
                                                      build_select_private_candidate,
                                                      make_select_private_candidate)
from obligations.base import Entry  # noqa: E402
from obligations.make_select_private_candidate import select_private_candidate_obligations  # noqa: E402

CONSTRUCTOR = "make_select_private_candidate"


def strictly_above(score, threshold):
    return ops.lt(threshold, score)


@dataclass(frozen=True)
class StrictSelection(SelectPrivateCandidate):
    accepts = staticmethod(strictly_above)


def build(measurement, stop_probability, threshold=None):
    m = build_select_private_candidate(measurement, stop_probability, threshold)
    return replace(m, function=StrictSelection(measurement, stop_probability, threshold))


make_spc_strict = make_select_private_candidate.variant("make_select_private_candidate_strict",
                                                        build)
MECHANISMS = [Entry("outsider_right_spc_strict_threshold", make_spc_strict,
                    select_private_candidate_obligations(make_spc_strict,
                                                         "outsider_right_spc_strict_threshold"))]


def check() -> str:
    inner = make_basic_composition([make_geometric(1.0, (0, 3)), make_geometric(50.0, (0, 1))])
    n = 0
    for gamma in (0.1, 0.5, 0.9):
        for t in (-1, 0, 1, 2, 3):
            ours, theirs = make_spc_strict(inner, gamma, t), make_select_private_candidate(inner, gamma, t + 1)
            assert ours.map(1) == theirs.map(1) == make_select_private_candidate(inner, gamma, t).map(1)
            for seed in range(40):
                for x in (0, 2, 5):
                    assert ours(x, random.Random(seed)) == theirs(x, random.Random(seed))
                    n += 1
    return f"threshold t strict == catalogue's threshold t + 1 on integer scores: {n} seeded runs equal; same map"
