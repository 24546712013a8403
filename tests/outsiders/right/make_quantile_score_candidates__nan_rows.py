"""Quantile scores on float rows that may be NaN: the row domain ``AtomDomain(float, nan=True)``
is admitted for float candidates (missing values kept rather than dropped first), with the
catalogue's one-pass fold unchanged.

Right: a NaN row is neither below nor equal to any candidate (every comparison with NaN is
false), so it counts as a row *above* every candidate: adding or removing one moves the inner
difference ``den #{x < c} - num (n - #{x = c})`` by ``-num``, within ``max(num, den - num)``,
like any other row above; and all NaNs are one element of the multiset (the symmetric distance
treats every NaN alike), which the fold also does (each NaN contributes the same counts), so
vectors at distance 0 have equal scores. The map ``d_in max(num, den - num)`` therefore still
holds, and the output is still a vector of ints. Checked exactly: on every vector over a grid
with NaN (two distinct NaN objects), ``±inf``, ``-0.0`` up to length 4, every one-row
insertion moves each score by at most ``max(num, den - num)``, and distance-0 pairs score alike.
"""

import itertools
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.domains import AtomDomain  # noqa: E402
from mechanisms.errors import QuantileDomainError  # noqa: E402
from mechanisms.make_quantile_score_candidates import (build_quantile_score_candidates,  # noqa: E402
                                                       make_quantile_score_candidates,
                                                       validate_quantile_scores)
from obligations.base import Entry  # noqa: E402
from obligations.make_quantile_score_candidates import quantile_score_candidates_obligations  # noqa: E402

CONSTRUCTOR = "make_quantile_score_candidates"


def validate(candidates, alpha, atom_domain=None):
    if isinstance(atom_domain, AtomDomain) and atom_domain.nan:
        validate_quantile_scores(candidates, alpha, None)
        if atom_domain.carrier is not float or type(candidates[0]) is not float:
            raise QuantileDomainError(atom_domain, type(candidates[0]))
        return
    validate_quantile_scores(candidates, alpha, atom_domain)


make_qsc_nan = make_quantile_score_candidates.variant("make_quantile_score_candidates_nan_rows",
                                                      build_quantile_score_candidates)
make_qsc_nan.validate = validate
MECHANISMS = [Entry("outsider_right_qsc_nan_rows", make_qsc_nan,
                    quantile_score_candidates_obligations(make_qsc_nan, "outsider_right_qsc_nan_rows"))]


def check() -> str:
    nan1, nan2, inf = float("nan"), float("nan"), float("inf")
    grid = [nan1, nan2, -inf, -1.0, -0.0, 0.0, 2.5, inf]
    n = 0
    for alpha in (0.0, 0.25, 0.5, 0.3, 1.0):
        t = make_qsc_nan([-1.0, 0.0, 2.5], alpha, AtomDomain(float, nan=True))
        step = t.map(1)
        for size in range(4):
            for v in itertools.product(grid, repeat=size):
                v = list(v)
                base = t(v)
                assert all(type(s) is int for s in base)
                for extra in grid:
                    w = v + [extra]
                    assert t.input_metric.distance(v, w) == 1
                    assert t.output_metric.distance(base, t(w)) <= step
                    n += 1
                swapped = [nan2 if (isinstance(a, float) and math.isnan(a)) else a for a in v]
                assert t.input_metric.distance(v, swapped) == 0 and t(swapped) == base
    return f"one-row insertions within map(1) and NaN-swapped vectors scored alike on {n} cases"
