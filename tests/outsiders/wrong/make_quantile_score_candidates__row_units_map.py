"""Quantile scores whose stability map is written "in rows": ``d_in * max(alpha', 1 - alpha')``
with ``alpha' = num / den`` (the sensitivity of ``|#{x < c} - alpha' (n - #{x = c})|``, the
quantile utility as papers state it), while the kernel still returns the integer score scaled by
``den``, ``|den * #{x < c} - num * (n - #{x = c})|``.

Wrong: the map is ``den`` times too small. With ``alpha = 0.5`` (``1/2``), one candidate ``0``,
``[-1]`` and ``[]`` are at symmetric distance 1; their scores are ``|2*1 - 1*1| = 1`` and ``0``,
LInf ``1 > map(1) = 0.5``.
Hole classes: none listed (a wrong map constant: the score's units).
"""

import sys
from dataclasses import replace
from fractions import Fraction
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


def rows_constant(scores):
    """``max(alpha', 1 - alpha')`` with ``alpha' = num / den``: the sensitivity in rows."""
    return ops.maximum(scores.num, scores.den - scores.num) / scores.den


def build(candidates, alpha, atom_domain=None):
    t = build_quantile_score_candidates(candidates, alpha, atom_domain)
    return replace(t, stability_map=Map(constant=rows_constant, params={"scores": t.function}))


make_qsc_rows = make_quantile_score_candidates.variant("make_quantile_score_candidates_rows", build)
MECHANISMS = [Entry("outsider_qsc_row_units_map", make_qsc_rows,
                    quantile_score_candidates_obligations(make_qsc_rows, "outsider_qsc_row_units_map"))]


def witness() -> str:
    t = make_qsc_rows([0], 0.5)
    observed, claimed = stability_violation(t, [-1], [], 1)
    assert Fraction(claimed) == Fraction(1, 2)
    return f"alpha 0.5, candidate 0: [-1] vs [] scores {observed} apart > map(1) = {claimed}"
