"""``make_quantile_score_candidates(candidates, alpha, atom_domain=None)``: how far each candidate
is from the ``alpha``-quantile of a vector of any length, as an integer score (lower is better).

With ``alpha`` made the fraction ``num / den`` (below), the score of candidate ``c`` on rows ``x``
(``n`` of them) is

    score_c(x) = | den * #{i : x_i < c} - num * (n - #{i : x_i = c}) |
               = | (den - num) * #{x_i < c} - num * #{x_i > c} |,

``den`` times the distance between the rows below ``c`` and the ``alpha`` share of the rows other
than ``c`` (OpenDP 0.16's ``compute_score``; Smith 2011's quantile utility). Each candidate's score
is a fold over the rows of the counts ``(#{x_i < c}, #{x_i = c}, n)``; the output is one score per
candidate, in the candidates' order (at least one: the candidates are never empty):
``VectorDomain(AtomDomain(int), min_size=1)`` under ``LInfDistance``.

Stability map ``d_in -> d_in * max(num, den - num)``: inserting or deleting one row moves the inner
difference by ``den - num`` (a row below ``c``), ``-num`` (above) or ``0`` (equal), so each score
by at most ``max(num, den - num)``, and symmetric distance ``d_in`` is ``d_in`` such moves. Exact
on Python ints.

``alpha`` as a fraction (OpenDP 0.16's ``score_candidates_constants`` on an unsized domain): its
exact ratio ``alpha.as_integer_ratio()`` when the denominator is below ``10_000``; otherwise
``den = 10_000`` and ``num`` the float product ``alpha * 10_000`` truncated to an int (as OpenDP's
cast, checked against opendp 0.16 in the tests). So ``0.5`` is ``1/2``, ``0.25`` is ``1/4``,
``0.3`` is ``3000/10000`` and ``0.123456`` is ``1234/10000``.
Validation checks ``0 <= num <= den`` and ``den >= 1`` on the fraction it will use.

Preconditions: ``candidates`` a non-empty list or tuple of ints or of non-NaN floats (one type,
no ``bool``), strictly increasing (:class:`QuantileCandidatesError`); ``alpha`` a float or int in
``[0, 1]`` (:class:`QuantileAlphaError`); ``atom_domain`` (default ``AtomDomain(T)``, ``T`` the
candidates' type) an ``AtomDomain(T)`` without NaN, bounds allowed (:class:`QuantileDomainError`).

Differences from OpenDP 0.16: unsized input domains only (OpenDP's sized domain has the map
``(d_in // 2) * den`` and a finer ``den = u64::MAX // size``); Python ints do not overflow, so no
``size_limit`` truncation of the counts (OpenDP caps them at ``u64::MAX // den``); counts by one
pass per candidate rather than binary search over the sorted rows (the same counts); the output
domain records only that the length is at least 1, not ``len(candidates)`` (so that it is the
input domain of ``make_report_noisy_max(..., T=int)``); OpenDP takes ``input_domain`` and ``input_metric``
(symmetric or insert-delete distance), we take the row domain and symmetric distance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from mechanisms import ops
from mechanisms.core import Constructor, Map, Precondition, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import QuantileAlphaError, QuantileCandidatesError, QuantileDomainError
from mechanisms.metrics import LInfDistance, SymmetricDistance

ALPHA_GRID = 10_000
"""OpenDP's default alpha granularity on unsized inputs: ``den`` when the exact one is larger."""

NO_ROWS = (0, 0, 0)
"""The counts ``(#{x < c}, #{x = c}, n)`` of no rows."""


def alpha_fraction(alpha: float | int) -> tuple[int, int]:
    """``(num, den)`` with ``num / den`` the ``alpha`` the scores use (see the module docstring)."""
    num, den = alpha.as_integer_ratio()
    if den < ALPHA_GRID:
        return num, den
    return math.floor(alpha * ALPHA_GRID), ALPHA_GRID


def count_step(counts: Any, x: Any, candidate: Any) -> Any:
    """One row more: ``#{x < c}`` and ``#{x = c}`` grow by the row's comparisons, ``n`` by one."""
    below, equal, rows = counts
    return (below + ops.bool_as(ops.lt(x, candidate), int),
            equal + ops.bool_as(ops.eq(x, candidate), int),
            rows + 1)


def score_of_counts(counts: Any, num: Any, den: Any) -> Any:
    """``|den * #{x < c} - num * (n - #{x = c})|``."""
    below, equal, rows = counts
    return ops.absolute(den * below - num * (rows - equal))


def score_constant(scores: "CandidateScores") -> Any:
    """``max(num, den - num)`` of the running function: the most one row moves a score."""
    return ops.maximum(scores.num, scores.den - scores.num)


@dataclass(frozen=True)
class CandidateScores:
    """The function: for each candidate, a fold of ``step`` over the rows from ``start``,
    finished by ``finish`` with the fraction ``num / den`` (by default :func:`count_step`,
    :data:`NO_ROWS` and :func:`score_of_counts`)."""

    candidates: tuple
    num: int
    den: int
    step: Callable[[Any, Any, Any], Any] = count_step
    finish: Callable[[Any, Any, Any], Any] = score_of_counts
    start: tuple = NO_ROWS

    def score(self, data: Sequence[Any], candidate: Any) -> Any:
        """One candidate's score on ``data``."""
        counts = self.start
        for x in data:
            counts = self.step(counts, x, candidate)
        return self.finish(counts, self.num, self.den)

    def __call__(self, data: Sequence[Any]) -> list[Any]:
        return [self.score(data, c) for c in self.candidates]


def candidate_carrier(candidates: Any) -> type:
    """``int`` or ``float``: the one type of the candidates (validated)."""
    return type(candidates[0])


def validate_quantile_scores(candidates: Any, alpha: Any, atom_domain: Any = None) -> None:
    """The candidates, ``alpha`` and the row domain, as the module docstring states."""
    if not isinstance(candidates, (list, tuple)) or len(candidates) == 0:
        raise QuantileCandidatesError(candidates, "not a non-empty list or tuple")
    carrier = type(candidates[0])
    if carrier not in (int, float) or any(type(c) is not carrier for c in candidates):
        raise QuantileCandidatesError(candidates, "not all ints or all floats")
    if any(c != c for c in candidates):
        raise QuantileCandidatesError(candidates, "a candidate is NaN")
    if any(not a < b for a, b in zip(candidates, candidates[1:])):
        raise QuantileCandidatesError(candidates, "not strictly increasing")
    if type(alpha) not in (int, float) or not 0 <= alpha <= 1:
        raise QuantileAlphaError(alpha)
    num, den = alpha_fraction(alpha)
    if not (type(num) is int and type(den) is int and 0 <= num <= den and den >= 1):
        raise QuantileAlphaError(alpha)
    if atom_domain is not None and (not isinstance(atom_domain, AtomDomain)
                                    or atom_domain.carrier is not carrier or atom_domain.nan):
        raise QuantileDomainError(atom_domain, carrier)


QUANTILE_SCORE_PRECONDITIONS = (
    Precondition("0 <= alpha <= 1",
                 lambda alpha, **_: ops.all_of(ops.le(0, alpha), ops.le(alpha, 1)),
                 lambda alpha, **_: QuantileAlphaError(alpha)),
)


def build_quantile_score_candidates(candidates: Sequence[Any], alpha: float,
                                    atom_domain: AtomDomain | None = None) -> Transformation:
    num, den = alpha_fraction(alpha)
    scores = CandidateScores(tuple(candidates), num, den)
    rows = atom_domain if atom_domain is not None else AtomDomain(candidate_carrier(candidates))
    return Transformation(
        input_domain=VectorDomain(rows),
        output_domain=VectorDomain(AtomDomain(int), min_size=1),
        input_metric=SymmetricDistance(),
        output_metric=LInfDistance(),
        function=scores,
        stability_map=Map(constant=score_constant, params={"scores": scores}),
    )


make_quantile_score_candidates = Constructor(
    "make_quantile_score_candidates", build_quantile_score_candidates,
    QUANTILE_SCORE_PRECONDITIONS, validate_quantile_scores)
