"""Quantile scores whose map is the per-row bound ``max(num, den - num)`` whatever ``d_in``
("one row moves each score by at most max(num, den - num)", written as a rule and never
multiplied by the distance).

Wrong: the map holds only for ``d_in <= 1``. With ``alpha = 0.5``, candidate ``0``: ``[-1, -1]``
and ``[]`` are at symmetric distance 2; scores ``|2*2 - 2| = 2`` and ``0``, LInf
``2 > map(2) = 1``.
Hole classes: none listed (a map that holds only for d_in = 1).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_quantile_score_candidates import (build_quantile_score_candidates,  # noqa: E402
                                                       make_quantile_score_candidates)
from obligations.base import Entry  # noqa: E402
from obligations.make_quantile_score_candidates import quantile_score_candidates_obligations  # noqa: E402

CONSTRUCTOR = "make_quantile_score_candidates"
CLASSES = ()


def per_row(d_in, num, den):
    return ops.maximum(num, den - num)


def build(candidates, alpha, atom_domain=None):
    t = build_quantile_score_candidates(candidates, alpha, atom_domain)
    f = t.function
    return replace(t, stability_map=Map(rule=per_row, params={"num": f.num, "den": f.den}))


make_qsc_per_row = make_quantile_score_candidates.variant("make_quantile_score_candidates_per_row", build)
MECHANISMS = [Entry("outsider_qsc_per_row_map", make_qsc_per_row,
                    quantile_score_candidates_obligations(make_qsc_per_row, "outsider_qsc_per_row_map"))]


def witness() -> str:
    t = make_qsc_per_row([0], 0.5)
    observed, claimed = stability_violation(t, [-1, -1], [], 2)
    return f"alpha 0.5, candidate 0: [-1, -1] vs [] scores {observed} apart > map(2) = {claimed}"
