"""Quantile scores "in rows": the finish divides by ``den``,
``|#{x < c} - (num / den) (n - #{x = c})|`` with Python's true division, so that the noise scale
can stay in rows; the output domain is still ``VectorDomain(AtomDomain(int))`` (what
``make_report_noisy_max(..., T=int)`` takes) and the map is unchanged.

Wrong: the scores are floats (``1.0`` even when whole). With ``alpha = 0.5`` and candidate ``0``,
``[-1]`` gives ``[|1 - 0.5 * 1|] = [0.5]``, not a vector of ints, outside the declared output domain (and a chained ``T=int`` noisy max refuses it at run time: a raise on an admitted
input).
Hole classes: 4 (true division where an integer is modelled).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import out_of_domain  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_quantile_score_candidates import (score_constant,  # noqa: E402
                                                       build_quantile_score_candidates,  # noqa: E402
                                                       make_quantile_score_candidates)
from obligations.base import Entry  # noqa: E402
from obligations.make_quantile_score_candidates import quantile_score_candidates_obligations  # noqa: E402

CONSTRUCTOR = "make_quantile_score_candidates"
CLASSES = (4,)


def rows_score(counts, num, den):
    below, equal, rows = counts
    return ops.absolute(below - num / den * (rows - equal))


def build(candidates, alpha, atom_domain=None):
    t = build_quantile_score_candidates(candidates, alpha, atom_domain)
    scores = replace(t.function, finish=rows_score)
    return replace(t, function=scores,
                   stability_map=Map(constant=score_constant, params={"scores": scores}))


make_qsc_frac = make_quantile_score_candidates.variant("make_quantile_score_candidates_frac", build)
MECHANISMS = [Entry("outsider_qsc_row_fraction_score", make_qsc_frac,
                    quantile_score_candidates_obligations(make_qsc_frac, "outsider_qsc_row_fraction_score"))]


def witness() -> str:
    t = make_qsc_frac([0], 0.5)
    out = out_of_domain(t, [-1])
    return f"alpha 0.5, candidate 0: scores of [-1] = {out}, not ints"
