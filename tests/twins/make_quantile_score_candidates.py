"""Wrong twins of ``make_quantile_score_candidates``: each obligation has one the checker must
refute with a counterexample the real (wrong) code confirms. Each is a slip a port of OpenDP's
``compute_score`` / ``score_candidates_map`` could make."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms import ops
from mechanisms.core import Map
from mechanisms.make_quantile_score_candidates import (build_quantile_score_candidates,
                                                       make_quantile_score_candidates)
from mechanisms.metrics import AbsoluteDistance
from obligations.base import Entry
from obligations.make_quantile_score_candidates import quantile_score_candidates_obligations


def score_ignoring_ties(counts: Any, num: Any, den: Any) -> Any:
    """Wrong: ``|den #(x < c) - num n|``, the rows equal to the candidate not taken out of ``n``
    (OpenDP's ``x.len() - eq`` read as ``x.len()``)."""
    below, _, rows = counts
    return ops.absolute(den * below - num * rows)


def signed_score(counts: Any, num: Any, den: Any) -> Any:
    """Wrong: the signed difference, ``abs_diff`` dropped: negative scores."""
    below, equal, rows = counts
    return den * below - num * (rows - equal)


def fractional_score(counts: Any, num: Any, den: Any) -> Any:
    """Wrong: OpenDP's older formula ``|#(x < c) - alpha (n - #(x = c))|`` with ``alpha = num /
    den`` a true division: float scores in an int output domain."""
    below, equal, rows = counts
    return ops.absolute(below - num / den * (rows - equal))


def sized_map(d_in: Any, scores: Any) -> Any:
    """Wrong: OpenDP's sized map ``(d_in // 2) * den`` on an unsized domain: one inserted row
    costs 0."""
    return (d_in // 2) * scores.den


def half_path_steps(d: Any) -> Any:
    """Wrong: symmetric distance d counted as d / 2 moves (the sized lemma's count)."""
    return d / 2


def _with_function(**changes: Any):
    def build(candidates: Any, alpha: Any, atom_domain: Any = None):
        t = build_quantile_score_candidates(candidates, alpha, atom_domain)
        scores = replace(t.function, **changes)
        return replace(t, function=scores,
                       stability_map=replace(t.stability_map, params={"scores": scores}))
    return build


def build_absolute_output(candidates: Any, alpha: Any, atom_domain: Any = None):
    """Wrong: absolute distance (OpenDP's older ``InfDifferenceDistance`` ported as a scalar
    metric) on a vector of scores."""
    return replace(build_quantile_score_candidates(candidates, alpha, atom_domain),
                   output_metric=AbsoluteDistance())


def build_grid_fraction(candidates: Any, alpha: Any, atom_domain: Any = None):
    """Wrong: every alpha on a grid of 1 (mutant
    ``make_quantile_score_candidates:53:14:constant:10_000->1``): ``floor(alpha)``/1, so 0.5
    scores the 0-quantile. Every proved statement held of the running fraction, whichever it was,
    until the specification compared it with alpha's."""
    t = build_quantile_score_candidates(candidates, alpha, atom_domain)
    scores = replace(t.function, num=int(alpha // 1), den=1)  # every den >= 1 is "on the grid"
    return replace(t, function=scores,
                   stability_map=replace(t.stability_map, params={"scores": scores}))


def build_sized_map(candidates: Any, alpha: Any, atom_domain: Any = None):
    t = build_quantile_score_candidates(candidates, alpha, atom_domain)
    return replace(t, stability_map=Map(rule=sized_map, params={"scores": t.function}))


make_qsc_ignoring_ties = make_quantile_score_candidates.variant(
    "make_qsc_ignoring_ties", _with_function(finish=score_ignoring_ties))
make_qsc_signed = make_quantile_score_candidates.variant(
    "make_qsc_signed", _with_function(finish=signed_score))
make_qsc_fractional = make_quantile_score_candidates.variant(
    "make_qsc_fractional", _with_function(finish=fractional_score))
make_qsc_absolute_output = make_quantile_score_candidates.variant(
    "make_qsc_absolute_output", build_absolute_output)
make_qsc_sized_map = make_quantile_score_candidates.variant(
    "make_qsc_sized_map", build_sized_map)
make_qsc_grid_fraction = make_quantile_score_candidates.variant(
    "make_qsc_grid_fraction", build_grid_fraction)

MECHANISMS = [
    Entry("make_qsc_ignoring_ties", make_qsc_ignoring_ties,
          quantile_score_candidates_obligations(make_qsc_ignoring_ties, "qsc_ignoring_ties")),
    Entry("make_qsc_signed", make_qsc_signed,
          quantile_score_candidates_obligations(make_qsc_signed, "qsc_signed")),
    Entry("make_qsc_fractional", make_qsc_fractional,
          quantile_score_candidates_obligations(make_qsc_fractional, "qsc_fractional")),
    Entry("make_qsc_absolute_output", make_qsc_absolute_output,
          quantile_score_candidates_obligations(make_qsc_absolute_output,
                                                "qsc_absolute_output")),
    Entry("make_qsc_sized_map", make_qsc_sized_map,
          quantile_score_candidates_obligations(make_qsc_sized_map, "qsc_sized_map")),
    Entry("make_qsc_grid_fraction", make_qsc_grid_fraction,
          quantile_score_candidates_obligations(make_qsc_grid_fraction, "qsc_grid_fraction")),
    Entry("make_qsc_half_path", make_quantile_score_candidates,
          quantile_score_candidates_obligations(make_quantile_score_candidates, "qsc_half_path",
                                                half_path_steps)),
]

EXPECTED_REFUTATIONS = {
    "qsc_ignoring_ties.specification",
    "qsc_signed.output_domain",
    "qsc_fractional.output_domain",
    "qsc_absolute_output.compatibility",
    "qsc_sized_map.stability",
    "qsc_half_path.unsized_path",
    "qsc_grid_fraction.specification",
}

TWIN_OF = {
    "quantile_score_candidates.specification": "qsc_ignoring_ties.specification",
    "quantile_score_candidates.output_domain": "qsc_fractional.output_domain",
    "quantile_score_candidates.compatibility": "qsc_absolute_output.compatibility",
    "quantile_score_candidates.stability": "qsc_sized_map.stability",
    "quantile_score_candidates.unsized_path": "qsc_half_path.unsized_path",
}
