"""Quantile scores folded as ``(#{x < c}, #{x > c}, n)`` and finished by the docstring's second
form, ``|(den - num) * #{x < c} - num * #{x > c}|`` (the "rows below against rows above" reading
of the score, which never forms ``n - #{x = c}``).

Right: ``n - #{x = c} = #{x < c} + #{x > c}`` for non-NaN rows (the domain has no NaN: every row
is below, equal to or above ``c``), so ``den b - num (b + a) = (den - num) b - num a``: the same
integer score on every input, the same map. Checked on every vector over a small grid of
values (including ``-0.0``, ``±inf`` and the candidates themselves) up to length 4, for several
``alpha``, against the catalogue's function.
"""

import itertools
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_quantile_score_candidates import (score_constant,  # noqa: E402
                                                       build_quantile_score_candidates,  # noqa: E402
                                                       make_quantile_score_candidates)
from obligations.base import Entry  # noqa: E402
from obligations.make_quantile_score_candidates import quantile_score_candidates_obligations  # noqa: E402

CONSTRUCTOR = "make_quantile_score_candidates"


def below_above_step(counts, x, candidate):
    below, above, rows = counts
    return (below + ops.bool_as(ops.lt(x, candidate), int),
            above + ops.bool_as(ops.lt(candidate, x), int),
            rows + 1)


def below_above_score(counts, num, den):
    below, above, _rows = counts
    return ops.absolute((den - num) * below - num * above)


def build(candidates, alpha, atom_domain=None):
    t = build_quantile_score_candidates(candidates, alpha, atom_domain)
    scores = replace(t.function, step=below_above_step, finish=below_above_score)
    return replace(t, function=scores,
                   stability_map=Map(constant=score_constant, params={"scores": scores}))


make_qsc_above = make_quantile_score_candidates.variant("make_quantile_score_candidates_above", build)
MECHANISMS = [Entry("outsider_right_qsc_above_count", make_qsc_above,
                    quantile_score_candidates_obligations(make_qsc_above,
                                                          "outsider_right_qsc_above_count"))]


def check() -> str:
    inf = float("inf")
    n = 0
    for cands, grid in (([-1.0, 0.0, 2.5], [-inf, -1.0, -0.0, 0.0, 1.0, 2.5, 7.0, inf]),
                        ([-3, 0, 5], [-4, -3, 0, 2, 5, 9])):
        for alpha in (0.0, 0.25, 0.5, 0.3, 0.123456, 1.0, 1):
            ours = make_qsc_above(cands, alpha)
            theirs = make_quantile_score_candidates(cands, alpha)
            assert ours.map(3) == theirs.map(3)
            for size in range(5):
                for v in itertools.product(grid, repeat=size):
                    assert ours(list(v)) == theirs(list(v)), (cands, alpha, v)
                    n += 1
    return f"same scores as the catalogue on {n} (candidates, alpha, vector) cases; same map"
