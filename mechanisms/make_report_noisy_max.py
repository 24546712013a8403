"""``make_report_noisy_max(scale, optimize="max", T=float)``: the exponential mechanism over the
indices of a score vector, ``Pr[i] = exp(s_i / scale) / sum_j exp(s_j / scale)`` (report-noisy-max
with Gumbel noise draws the same distribution), with ``s_i`` the scores, negated when
``optimize="min"``.

Input domain: non-empty vectors of finite, non-NaN ``T`` (``float`` or ``int``),
``VectorDomain(score_domain(T), min_size=1)``: exactly the vectors the function handles, so no
admitted input raises, and ``Measurement.__call__`` refuses ``[]`` with a ``DomainError`` before
the function runs; ``LInfDistance``; ``MaxDivergence``; privacy map ``d_in -> 2 d_in / scale``,
rounded up (OpenDP's ``make_noisy_max`` map for a non-monotonic LInf metric). Output: an ``int``
index in ``[0, k)`` for ``k >= 1`` scores.

Sampling is exact, by rejection: with ``m = max_j s_j``, pick ``i`` uniformly and accept it with
probability ``a_i = exp(-(m - s_i) / scale)`` (CKS 2020's exact Bernoulli(exp(-gamma)) on the
rational ``gamma``: a float is a rational), otherwise repeat. Round by round, ``i`` is returned
with probability ``a_i / k`` and the loop continues with ``1 - sum_j a_j / k``, so
``Pr[i] = a_i / sum_j a_j`` (a geometric series; ``a_argmax = 1`` makes it converge).

Differences from OpenDP: no zCDP output measure and no monotonic metric (OpenDP's map is then
``d_in / scale``); OpenDP adds Gumbel noise and takes the argmax, we use the rejection sampler,
which draws the same index distribution exactly. OpenDP's domain admits an empty score vector and
its function raises on it ("candidates set is empty"); ours holds no empty vector.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import CarrierError, OptimizeError, SelectionScaleError
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import LInfDistance
from mechanisms.samplers import sample_bernoulli_exp, system_rng

OPTIMIZE_SIGN = {"max": 1, "min": -1}
"""Scores are multiplied by this sign, so that the mechanism always favours the largest."""

FINITE_FLOATS = (-sys.float_info.max, sys.float_info.max)
"""Bounds that admit every finite float and exclude +-inf."""


def noisy_max_map(d_in: Any, scale: Any) -> Any:
    """``2 d_in / scale``, rounded up: every score moves by at most ``d_in``. (Doubling a float
    is exact, or overflows to ``inf``, which only rounds up.)"""
    return div_up(2 * d_in, scale)


def oriented(score: Any, sign: Any) -> Any:
    """The score the mechanism maximizes: ``sign * score``, exactly."""
    return sign * ops.exact(score)


def best_step(best: Any, score: Any) -> Any:
    """One step of the running maximum ``m = max_j s_j``."""
    return ops.maximum(best, score)


def rejection_gamma(score: Any, best: Any, scale: Any) -> Any:
    """``(m - s_i) / scale``: candidate ``i`` is accepted with probability ``exp(-gamma)``."""
    return (best - score) / ops.exact(scale)


def candidate(sample: Any) -> Any:
    """The candidate index proposed by a uniform ``sample`` in ``[0, k)``."""
    return sample


@dataclass(frozen=True)
class NoisyMax:
    """The mechanism's function: the exact rejection sampler of the exponential mechanism, on a
    non-empty score vector (the input domain's vectors; top-k's rounds and the private quantile's
    candidate scores are never empty either)."""

    scale: Any
    sign: int

    oriented = staticmethod(oriented)
    best_step = staticmethod(best_step)
    rejection_gamma = staticmethod(rejection_gamma)
    candidate = staticmethod(candidate)

    def gammas(self, scores: Sequence[Any]) -> list[Any]:
        """``gamma_i = (m - s_i) / scale`` for every candidate, exactly: scores are taken as
        Fractions, so no division below is Python's float division of two ints."""
        oriented_scores = [self.oriented(Fraction(s), self.sign) for s in scores]
        best = ops.fold(self.best_step, oriented_scores)
        return [self.rejection_gamma(s, best, self.scale) for s in oriented_scores]

    def __call__(self, scores: Sequence[Any], rng: Any = None) -> int:
        rng = system_rng(rng)
        gammas = self.gammas(scores)
        while True:
            index = self.candidate(rng.randrange(len(scores)))
            if sample_bernoulli_exp(gammas[index], rng):
                return index


def validate_noisy_max(scale: Any, optimize: Any, T: Any) -> None:
    """``scale`` a float or int (not bool), ``optimize`` "max" or "min", ``T`` float or int."""
    if type(scale) not in (int, float):
        raise SelectionScaleError(scale)
    if optimize not in OPTIMIZE_SIGN:
        raise OptimizeError(optimize)
    if T not in (int, float):
        raise CarrierError(T, (float, int))


NOISY_MAX_PRECONDITIONS = (
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: SelectionScaleError(scale)),
    Precondition("scale > 0", lambda scale, **_: ops.lt(0, scale),
                 lambda scale, **_: SelectionScaleError(scale)),
)


def score_domain(T: type) -> AtomDomain:
    """Finite scores of type ``T``: non-NaN floats without +-inf, or any int."""
    return AtomDomain(float, bounds=FINITE_FLOATS) if T is float else AtomDomain(int)


def build_report_noisy_max(scale: Any, optimize: str = "max", T: type = float) -> Measurement:
    return Measurement(
        input_domain=VectorDomain(score_domain(T), min_size=1),
        output_domain=AtomDomain(int),
        input_metric=LInfDistance(),
        output_measure=MaxDivergence(),
        function=NoisyMax(scale, OPTIMIZE_SIGN[optimize]),
        privacy_map=Map(rule=noisy_max_map, params={"scale": scale}),
    )


make_report_noisy_max = Constructor("make_report_noisy_max", build_report_noisy_max,
                                    NOISY_MAX_PRECONDITIONS, validate_noisy_max)
