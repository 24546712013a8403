"""``make_above_threshold(scale, threshold)``: the sparse vector technique, AboveThreshold (Dwork and
Roth 2014, Algorithm 1; Lyu, Su and Li 2017, Algorithm 1).

Input: a vector of integer query answers ``q_0, ..., q_{k-1}`` (``VectorDomain(AtomDomain(int))``,
``LInfDistance``: neighbouring inputs move every answer by at most ``d_in``). Draw
``rho ~ DiscreteLaplace(scale)`` once and, in turn, ``nu_i ~ DiscreteLaplace(2 scale)``; return the
first ``i`` with ``q_i + nu_i >= threshold + rho``, or ``k`` if there is none. Output: an ``int`` in
``[0, k]``; ``MaxDivergence``; privacy map ``d_in -> 2 d_in / scale``, rounded up (the textbook
scales: threshold noise ``2 Delta / epsilon``, query noise ``4 Delta / epsilon``).

The discrete Laplace draws are exact (CKS 2020, Algorithm 2) and the comparisons are on integers,
so no floating-point arithmetic touches the data. OpenDP has no AboveThreshold constructor (its
``make_laplace_threshold`` releases noisy counts above a threshold, a different mechanism).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import SelectionScaleError, ThresholdError
from mechanisms.make_report_noisy_max import noisy_max_map
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import LInfDistance
from mechanisms.samplers import sample_discrete_laplace, system_rng


def threshold_noise_scale(scale: Any) -> Any:
    """The scale of ``rho``, the threshold's noise: ``scale`` (``2 Delta / epsilon``), exactly."""
    return ops.exact(scale)


def query_noise_scale(scale: Any) -> Any:
    """The scale of each ``nu_i``, a query's noise: ``2 scale`` (``4 Delta / epsilon``), exactly."""
    return 2 * ops.exact(scale)


def above(answer: Any, nu: Any, threshold: Any, rho: Any) -> Any:
    """Query ``i`` is reported when ``q_i + nu_i >= threshold + rho``."""
    return ops.le(threshold + rho, answer + nu)


def exhausted(num_queries: Any) -> Any:
    """The output when no query is above the threshold: ``k``, one past the last index."""
    return num_queries


@dataclass(frozen=True)
class AboveThreshold:
    """The mechanism's function: one threshold draw, then one query draw per query, in order."""

    scale: Any
    threshold: Any

    threshold_noise_scale = staticmethod(threshold_noise_scale)
    query_noise_scale = staticmethod(query_noise_scale)
    above = staticmethod(above)
    exhausted = staticmethod(exhausted)

    def __call__(self, answers: Sequence[int], rng: Any = None) -> int:
        rng = system_rng(rng)
        rho = sample_discrete_laplace(self.threshold_noise_scale(self.scale), rng)
        for index, answer in enumerate(answers):
            nu = sample_discrete_laplace(self.query_noise_scale(self.scale), rng)
            if self.above(answer, nu, self.threshold, rho):
                return index
        return self.exhausted(len(answers))


def validate_above_threshold(scale: Any, threshold: Any) -> None:
    """``scale`` a float or int (not bool); ``threshold`` an int (not bool)."""
    if type(scale) not in (int, float):
        raise SelectionScaleError(scale)
    if type(threshold) is not int:
        raise ThresholdError(threshold)


ABOVE_THRESHOLD_PRECONDITIONS = (
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: SelectionScaleError(scale)),
    Precondition("scale > 0", lambda scale, **_: ops.lt(0, scale),
                 lambda scale, **_: SelectionScaleError(scale)),
)


def build_above_threshold(scale: Any, threshold: Any) -> Measurement:
    return Measurement(
        input_domain=VectorDomain(AtomDomain(int)),
        output_domain=AtomDomain(int),
        input_metric=LInfDistance(),
        output_measure=MaxDivergence(),
        function=AboveThreshold(scale, threshold),
        privacy_map=Map(rule=noisy_max_map, params={"scale": scale}),
    )


make_above_threshold = Constructor("make_above_threshold", build_above_threshold,
                                   ABOVE_THRESHOLD_PRECONDITIONS, validate_above_threshold)
