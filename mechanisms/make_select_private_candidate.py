"""``make_select_private_candidate(measurement, stop_probability, threshold)``: private selection
from private candidates with a random stopping rule (Liu and Talwar 2019, Algorithm 1; Papernot
and Steinke 2022, the geometric case of their truncated negative binomial).

``measurement`` is a pure-DP measurement (``MaxDivergence``) whose releases are pairs
``(score, candidate)`` (its output domain a ``ProductDomain`` of two, the first an ``int`` or
non-NaN ``float`` atom). The function runs it again and again on the same input, each run with
fresh draws:

* with a ``threshold``: after each run, a release whose score is ``>= threshold`` is returned at
  once; otherwise a coin stops the search with probability ``stop_probability`` ``= gamma`` and
  ``None`` is returned. Liu and Talwar 2019, Theorem 3.1: ``eps``-DP runs give a ``2 eps``-DP
  selection. Map ``d_in -> 2 * measurement.map(d_in)``.
* with ``threshold=None``: after each run the release is kept if its score is ``>=`` the best so
  far (ties go to the latest run), and the same coin stops the search, returning the best.
  The number of runs ``K`` is then geometric, ``Pr[K = k] = (1 - gamma)^(k-1) gamma``, the
  truncated negative binomial with ``eta = 1`` of Papernot and Steinke 2022, whose pure-DP bound
  is ``(2 + eta) eps = 3 eps`` (also Liu and Talwar 2019, Theorem 3.4). Map
  ``d_in -> 3 * measurement.map(d_in)``, rounded up.

The stopping coin is exact: ``sample_bernoulli_rational`` on the rational the float ``gamma``
denotes, drawn from the same ``rng`` after each run that did not return. Preconditions: a
``Measurement`` with ``MaxDivergence`` and pair-valued releases with a numeric score
(``CandidateMeasurementError``); ``gamma`` a float with ``0 < gamma < 1``
(``StopProbabilityError``); ``threshold`` ``None`` or a finite int or float
(``CandidateThresholdError``). The output domain is ``OptionDomain(measurement.output_domain)``.

Differences from OpenDP 0.16's ``make_select_private_candidate``: OpenDP draws the number of runs
up front from a geometric law of scale ``-1 / ln(1 - gamma)`` (``sample_geometric_exp_fast``), ours
flips the exact coin after each run (the same law on the number of runs); OpenDP admits
``gamma = 0`` (no stopping: the loop runs until a score reaches the threshold, possibly forever),
ours refuses it; OpenDP 0.16 requires a threshold, ours also offers the thresholdless best-of
variant (3 eps, which later OpenDP releases offer as a negative-binomial option); OpenDP's
threshold is a float, ours also an int. The thresholded map is the same, ``2 eps``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, OptionDomain, ProductDomain
from mechanisms.errors import (CandidateMeasurementError, CandidateThresholdError,
                               StopProbabilityError)
from mechanisms.measures import MaxDivergence
from mechanisms.samplers import sample_bernoulli_rational, system_rng

THRESHOLD_FACTOR = 2
"""Liu and Talwar 2019, Theorem 3.1: the first release at or above the threshold, 2 eps."""
BEST_OF_FACTOR = 3
"""Papernot and Steinke 2022 (geometric, eta = 1; Liu and Talwar 2019, Theorem 3.4): 3 eps."""


def stop_coin(stop_probability: Any, rng: Any) -> bool:
    """``True`` (stop) with probability ``stop_probability`` exactly: an exact Bernoulli on the
    rational the float denotes."""
    return sample_bernoulli_rational(ops.exact(stop_probability), rng)


def accepts(score: Any, threshold: Any) -> Any:
    """A release is returned at once when its score is at least the threshold."""
    return ops.le(threshold, score)


def improves(score: Any, best_score: Any) -> Any:
    """Best-of: a release replaces the best so far when its score is at least the best's (ties
    go to the latest run)."""
    return ops.le(best_score, score)


def selection_factor(threshold: Any) -> int:
    """The multiple of the runs' epsilon: 2 with a threshold, 3 without (best-of)."""
    return BEST_OF_FACTOR if threshold is None else THRESHOLD_FACTOR


def candidate_map(d_in: Any, measurement: Measurement, factor: Any) -> Any:
    """``factor * measurement.map(d_in)``, rounded up on floats."""
    return ops.mul_up(measurement.map(d_in), factor)


@dataclass(frozen=True)
class SelectPrivateCandidate:
    """The mechanism's function: runs of ``measurement`` on the same input until a score
    reaches ``threshold`` or the exact stopping coin says stop; the release at the threshold, or
    ``None`` (with a threshold) or the best release (without one)."""

    measurement: Measurement
    stop_probability: Any
    threshold: Any

    stop = staticmethod(stop_coin)
    accepts = staticmethod(accepts)
    improves = staticmethod(improves)

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        rng = system_rng(rng)
        best = None
        while True:
            release = self.measurement.function(arg, rng)
            if self.threshold is not None:
                if ops.truthy(self.accepts(release[0], self.threshold)):
                    return release
            elif best is None or ops.truthy(self.improves(release[0], best[0])):
                best = release
            if self.stop(self.stop_probability, rng):
                return best


def _score_domain_ok(domain: Any) -> bool:
    if not isinstance(domain, ProductDomain) or len(domain.components) != 2:
        return False
    score = domain.components[0]
    return isinstance(score, AtomDomain) and score.carrier in (int, float) and not score.nan


def validate_select_private_candidate(measurement: Any, stop_probability: Any,
                                      threshold: Any) -> None:
    """``measurement`` a pure-DP ``Measurement`` releasing ``(score, candidate)`` pairs with an
    int or non-NaN float score; ``stop_probability`` a float; ``threshold`` None, an int or a
    float (not bool)."""
    if not isinstance(measurement, Measurement):
        raise CandidateMeasurementError(measurement, "it is not a Measurement")
    if not isinstance(measurement.output_measure, MaxDivergence):
        raise CandidateMeasurementError(measurement, f"its output measure is "
                                        f"{measurement.output_measure}, not MaxDivergence()")
    if not _score_domain_ok(measurement.output_domain):
        raise CandidateMeasurementError(measurement, f"its output domain is "
                                        f"{measurement.output_domain}, not pairs (score, candidate) "
                                        "with an int or non-NaN float score")
    if type(stop_probability) is not float:
        raise StopProbabilityError(stop_probability)
    if threshold is not None and type(threshold) not in (int, float):
        raise CandidateThresholdError(threshold)


SELECT_PRIVATE_CANDIDATE_PRECONDITIONS = (
    Precondition("stop_probability is finite",
                 lambda stop_probability, **_: ops.is_finite(stop_probability),
                 lambda stop_probability, **_: StopProbabilityError(stop_probability)),
    Precondition("0 < stop_probability < 1",
                 lambda stop_probability, **_: ops.all_of(ops.lt(0, stop_probability),
                                                          ops.lt(stop_probability, 1)),
                 lambda stop_probability, **_: StopProbabilityError(stop_probability)),
    Precondition("threshold is None or finite",
                 lambda threshold, **_: True if threshold is None else ops.is_finite(threshold),
                 lambda threshold, **_: CandidateThresholdError(threshold)),
)


def build_select_private_candidate(measurement: Measurement, stop_probability: Any,
                                   threshold: Any = None) -> Measurement:
    return Measurement(
        input_domain=measurement.input_domain,
        output_domain=OptionDomain(measurement.output_domain),
        input_metric=measurement.input_metric,
        output_measure=measurement.output_measure,
        function=SelectPrivateCandidate(measurement, stop_probability, threshold),
        privacy_map=Map(rule=candidate_map, params={"measurement": measurement,
                                                    "factor": selection_factor(threshold)}),
    )


make_select_private_candidate = Constructor(
    "make_select_private_candidate", build_select_private_candidate,
    SELECT_PRIVATE_CANDIDATE_PRECONDITIONS, validate_select_private_candidate)
