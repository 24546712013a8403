"""Quantile scores computed as OpenDP does, by sorting the rows once and binary-searching each
candidate (``bisect_left`` / ``bisect_right`` give ``#{x < c}`` and ``#{x <= c}``), and, since
"a NaN row is simply above every candidate" in the one-pass fold, the row domain admits NaN
(``AtomDomain(float, nan=True)`` accepted for float candidates).

Wrong: ``sorted`` is not a sort when a NaN is present (every comparison with NaN is false), and
``bisect`` on an unsorted list counts garbage. With ``alpha = 0.5`` and candidates
``[0.5, 1.5, 2.5]``: ``[nan, nan, 0.0, 0.0]`` and ``[nan, nan, 0.0]`` are at symmetric distance
1, their scores are ``[4, 4, 4]`` and ``[0, 0, 0]``: LInf ``4 > map(1) = 1``.
Hole classes: none listed (a domain that does not fit the kernel: NaN).
"""

import bisect
import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms.domains import AtomDomain, VectorDomain  # noqa: E402
from mechanisms.errors import QuantileDomainError  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_quantile_score_candidates import (score_constant,  # noqa: E402
                                                       CandidateScores,  # noqa: E402
                                                       build_quantile_score_candidates,
                                                       make_quantile_score_candidates,
                                                       validate_quantile_scores)
from obligations.base import Entry  # noqa: E402
from obligations.make_quantile_score_candidates import quantile_score_candidates_obligations  # noqa: E402

CONSTRUCTOR = "make_quantile_score_candidates"
CLASSES = ()


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


def validate(candidates, alpha, atom_domain=None):
    if isinstance(atom_domain, AtomDomain) and atom_domain.nan:
        validate_quantile_scores(candidates, alpha, None)
        if atom_domain.carrier is not float or type(candidates[0]) is not float:
            raise QuantileDomainError(atom_domain, type(candidates[0]))
        return
    validate_quantile_scores(candidates, alpha, atom_domain)


def build(candidates, alpha, atom_domain=None):
    t = build_quantile_score_candidates(candidates, alpha, atom_domain)
    f = t.function
    scores = BisectScores(f.candidates, f.num, f.den)
    return replace(t, function=scores,
                   stability_map=Map(constant=score_constant, params={"scores": scores}))


make_qsc_bisect = make_quantile_score_candidates.variant("make_quantile_score_candidates_bisect", build)
make_qsc_bisect.validate = validate
MECHANISMS = [Entry("outsider_qsc_sorted_bisect_nan", make_qsc_bisect,
                    quantile_score_candidates_obligations(make_qsc_bisect, "outsider_qsc_sorted_bisect_nan"))]


def witness() -> str:
    nan = float("nan")
    t = make_qsc_bisect([0.5, 1.5, 2.5], 0.5, AtomDomain(float, nan=True))
    assert t.input_domain == VectorDomain(AtomDomain(float, nan=True))
    v, w = [nan, nan, 0.0, 0.0], [nan, nan, 0.0]
    observed, claimed = stability_violation(t, v, w, 1)
    return f"alpha 0.5: {v} vs {w} scores {t(v)} and {t(w)}, {observed} apart > map(1) = {claimed}"
