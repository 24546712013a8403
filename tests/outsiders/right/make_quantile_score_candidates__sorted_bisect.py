"""Quantile scores computed as OpenDP 0.16 does: sort the rows once, then for each candidate
``#{x < c} = bisect_left(sorted, c)`` and ``#{x = c} = bisect_right(sorted, c) -
bisect_left(sorted, c)``, finished by the catalogue's ``score_of_counts`` (same domain: no NaN).

Right: on non-NaN floats (and ints) ``<`` is a total preorder (``-0.0`` and ``0.0`` tie, ``±inf``
are ordered), so ``sorted`` sorts and the two bisections return exactly the counts of rows below
and at most ``c``: the same counts as the one-pass fold, the same scores, the same map. Checked on
every vector over a grid of values (``-0.0``, ``±inf``, candidates themselves) up to length 4 and
on 300 seeded random vectors, for several ``alpha``.
"""

import bisect
import itertools
import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Map  # noqa: E402
from mechanisms.make_quantile_score_candidates import (score_constant,  # noqa: E402
                                                       CandidateScores,  # noqa: E402
                                                       build_quantile_score_candidates,
                                                       make_quantile_score_candidates)
from obligations.base import Entry  # noqa: E402
from obligations.make_quantile_score_candidates import quantile_score_candidates_obligations  # noqa: E402

CONSTRUCTOR = "make_quantile_score_candidates"


@dataclass(frozen=True)
class BisectScores(CandidateScores):
    def __call__(self, data):
        rows = sorted(data)
        out = []
        for c in self.candidates:
            below = bisect.bisect_left(rows, c)
            equal = bisect.bisect_right(rows, c) - below
            out.append(self.finish((below, equal, len(rows)), self.num, self.den))
        return out


def build(candidates, alpha, atom_domain=None):
    t = build_quantile_score_candidates(candidates, alpha, atom_domain)
    f = t.function
    scores = BisectScores(f.candidates, f.num, f.den)
    return replace(t, function=scores,
                   stability_map=Map(constant=score_constant, params={"scores": scores}))


make_qsc_bisect_ok = make_quantile_score_candidates.variant("make_quantile_score_candidates_bisect_ok",
                                                            build)
MECHANISMS = [Entry("outsider_right_qsc_sorted_bisect", make_qsc_bisect_ok,
                    quantile_score_candidates_obligations(make_qsc_bisect_ok,
                                                          "outsider_right_qsc_sorted_bisect"))]


def check() -> str:
    inf = float("inf")
    rng = random.Random(7)
    n = 0
    for cands, grid in (([-1.0, 0.0, 2.5], [-inf, -1.0, -0.0, 0.0, 1.0, 2.5, inf]),
                        ([-3, 0, 5], [-4, -3, 0, 2, 5])):
        for alpha in (0.0, 0.25, 0.5, 0.3, 1.0):
            ours, theirs = make_qsc_bisect_ok(cands, alpha), make_quantile_score_candidates(cands, alpha)
            for size in range(5):
                for v in itertools.product(grid, repeat=size):
                    assert ours(list(v)) == theirs(list(v)), (cands, alpha, v)
                    n += 1
            for _ in range(30):
                v = [rng.choice(grid) for _ in range(rng.randint(0, 30))]
                assert ours(v) == theirs(v)
                n += 1
    return f"same scores as the catalogue's fold on {n} cases"
