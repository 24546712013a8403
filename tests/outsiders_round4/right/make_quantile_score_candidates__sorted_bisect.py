"""make_quantile_score_candidates refactored as OpenDP does it: sort once, bisect per candidate.

A subclass of ``CandidateScores`` whose replaced ``__call__`` sorts the rows once and, for each
candidate ``c``, reads ``#{x < c} = bisect_left(sorted, c)`` and ``#{x = c} = bisect_right(sorted,
c) - bisect_left(sorted, c)``, then returns ``|den * #{x < c} - num * (n - #{x = c})|``; the
catalogue instead folds the comparisons over the rows once per candidate. The map is built on
the subclass instance (its ``num``/``den`` are the catalogue's ``alpha_fraction``).

Why it is correct: the input domain has no NaN (``AtomDomain`` with ``nan=False``), so ``<`` is a
strict weak order on the rows (ints, or floats where only ``-0.0 == 0.0`` tie), ``sorted`` is
well defined, and ``bisect_left``/``bisect_right`` return the number of rows ``< c`` and ``<= c``
(``bisect`` uses only ``<``, consistent with ``==``: ``-0.0`` counts as equal to a candidate
``0.0``, ``inf`` equal to ``inf``). These are the catalogue fold's counts, so every score is the
same Python int; the map ``d_in * max(num, den - num)`` is the reference's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import itertools
import math
import random
from bisect import bisect_left, bisect_right
from dataclasses import replace

from mechanisms.core import Map
from mechanisms.domains import AtomDomain
from mechanisms.make_quantile_score_candidates import (CandidateScores, alpha_fraction,
                                                       build_quantile_score_candidates,
                                                       make_quantile_score_candidates,
                                                       score_constant)
from obligations.base import Entry

CONSTRUCTOR = "make_quantile_score_candidates"


class BisectScores(CandidateScores):
    def __call__(self, data):
        ordered = sorted(data)
        n = len(ordered)
        scores = []
        for c in self.candidates:
            below = bisect_left(ordered, c)
            equal = bisect_right(ordered, c) - below
            scores.append(abs(self.den * below - self.num * (n - equal)))
        return scores


def build_scores_bisect(candidates, alpha, atom_domain=None):
    num, den = alpha_fraction(alpha)
    scores = BisectScores(tuple(candidates), num, den)
    return replace(build_quantile_score_candidates(candidates, alpha, atom_domain),
                   function=scores,
                   stability_map=Map(constant=score_constant, params={"scores": scores}))


make_scores_bisect = make_quantile_score_candidates.variant("make_scores_bisect",
                                                            build_scores_bisect)
MECHANISMS = [Entry("make_scores_bisect", make_scores_bisect)]

ALPHAS = [0.0, 1.0, 0, 1, 0.5, 0.25, 0.1, 0.3, 0.123456, 0.99999, 5e-324, 0.9999999999999999]
CASES = [
    ([0.0], [0.0, -0.0, 1.0, -1.0, 5e-324, math.inf, -math.inf]),
    ([-0.0, 1.0], [0.0, -0.0, 1.0, 2.0, -math.inf]),
    ([-math.inf, 0.0, math.inf], [0.0, -0.0, math.inf, -math.inf, 1e308]),
    ([1, 2, 3], [0, 1, 2, 3, 4, 2]),
    ([-(10 ** 400), 0, 10 ** 400], [0, 10 ** 400, -(10 ** 400), 1, 2 ** 64]),
    ([7], [7, 6, 8]),
]


def check() -> str:
    rng = random.Random(13)
    compared = 0
    for candidates, rows in CASES:
        domains = [None]
        if type(candidates[0]) is int:
            domains.append(AtomDomain(int, bounds=(-(10 ** 400), 10 ** 400)))
        vectors = [list(p) for n in range(4) for p in itertools.product(sorted(set(rows), key=str),
                                                                        repeat=n)]
        vectors += [[rng.choice(rows) for _ in range(rng.randrange(40))] for _ in range(100)]
        for alpha in ALPHAS:
            for atom_domain in domains:
                new = make_scores_bisect(candidates, alpha, atom_domain)
                ref = make_quantile_score_candidates(candidates, alpha, atom_domain)
                assert (new.input_domain, new.output_domain, new.input_metric,
                        new.output_metric) == (ref.input_domain, ref.output_domain,
                                               ref.input_metric, ref.output_metric)
                for v in vectors:
                    a, b = new(v), ref(v)
                    assert type(a) is list and all(type(s) is int for s in a) and a == b, \
                        (candidates, alpha, v)
                    compared += 1
                for d in range(0, 20):
                    assert new.map(d) == ref.map(d)
    return f"equal scores to make_quantile_score_candidates on {compared} cases, equal maps"
