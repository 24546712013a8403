"""Quantile scores with OpenDP's map for *sized* inputs, ``d_in -> (d_in // 2) * den``, on the
unsized domain the constructor takes (a contributor porting ``score_candidates_map`` copied the
sized branch: with a known size, a changed row is two symmetric steps, one below and one above,
and the score moves by at most ``den``).

Wrong: on unsized vectors a single added row is symmetric distance 1, and ``1 // 2 = 0``. With
``alpha = 0.5``, candidate ``0``: ``[-1]`` vs ``[]`` (distance 1) give scores ``1`` and ``0``,
LInf ``1 > map(1) = 0``.
Hole classes: 8 (relies on the even distance that only sized domains give).
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
CLASSES = (8,)


def sized_rule(d_in, den):
    return ops.floor_div(d_in, 2) * den


def build(candidates, alpha, atom_domain=None):
    t = build_quantile_score_candidates(candidates, alpha, atom_domain)
    return replace(t, stability_map=Map(rule=sized_rule, params={"den": t.function.den}))


make_qsc_sized = make_quantile_score_candidates.variant("make_quantile_score_candidates_sized", build)
MECHANISMS = [Entry("outsider_qsc_sized_map", make_qsc_sized,
                    quantile_score_candidates_obligations(make_qsc_sized, "outsider_qsc_sized_map"))]


def witness() -> str:
    t = make_qsc_sized([0], 0.5)
    observed, claimed = stability_violation(t, [-1], [], 1)
    assert claimed == 0
    return f"alpha 0.5, candidate 0: [-1] vs [] scores {observed} apart > map(1) = {claimed}"
