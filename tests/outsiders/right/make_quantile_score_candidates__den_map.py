"""Quantile scores with the looser map ``d_in * den`` ("one row moves a score by at most
``den``", without working out the ``max(num, den - num)`` refinement).

Right: ``0 <= num <= den`` (checked by the constructor), so ``max(num, den - num) <= den`` and
the map is never below the catalogue's, which is a valid bound; a larger stability bound is still
a bound. Checked exactly: on every ``alpha`` of a grid (exact ratios and the ``10_000`` grid) and
``d_in`` up to 20, ``map(d_in) >= d_in * max(num, den - num)`` and ``>=`` the catalogue's map.
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Map  # noqa: E402
from mechanisms.make_quantile_score_candidates import (build_quantile_score_candidates,  # noqa: E402
                                                       make_quantile_score_candidates)
from obligations.base import Entry  # noqa: E402
from obligations.make_quantile_score_candidates import quantile_score_candidates_obligations  # noqa: E402

CONSTRUCTOR = "make_quantile_score_candidates"


def den_constant(scores):
    return scores.den


def build(candidates, alpha, atom_domain=None):
    t = build_quantile_score_candidates(candidates, alpha, atom_domain)
    return replace(t, stability_map=Map(constant=den_constant, params={"scores": t.function}))


make_qsc_den = make_quantile_score_candidates.variant("make_quantile_score_candidates_den", build)
MECHANISMS = [Entry("outsider_right_qsc_den_map", make_qsc_den,
                    quantile_score_candidates_obligations(make_qsc_den, "outsider_right_qsc_den_map"))]


def check() -> str:
    n = 0
    for alpha in (0, 0.0, 0.1, 0.25, 0.3, 0.5, 0.75, 0.123456, 0.9999, 1.0, 1):
        ours = make_qsc_den([0, 1, 2], alpha)
        theirs = make_quantile_score_candidates([0, 1, 2], alpha)
        f = ours.function
        assert 0 <= f.num <= f.den
        for d in range(21):
            assert ours.map(d) >= d * max(f.num, f.den - f.num) and ours.map(d) >= theirs.map(d)
            n += 1
    return f"map(d) >= d max(num, den - num) on {n} (alpha, d) pairs"
