"""Wrong twins of ``make_select_private_candidate``: each obligation has one the checker must refute
with a counterexample confirmed on the real code, and one twin lies outside the proof method."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, ProductDomain
from mechanisms.errors import (CandidateMeasurementError, CandidateThresholdError,
                               StopProbabilityError)
from mechanisms.measures import MaxDivergence
from mechanisms.make_select_private_candidate import (SELECT_PRIVATE_CANDIDATE_PRECONDITIONS,
                                                      SelectPrivateCandidate,
                                                      build_select_private_candidate,
                                                      make_select_private_candidate,
                                                      validate_select_private_candidate)
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import sample_bernoulli_rational, system_rng
from obligations.base import Entry
from obligations.make_select_private_candidate import select_private_candidate_obligations


@dataclass(frozen=True)
class CandidateOnly(SelectPrivateCandidate):
    """Wrong: releases only the candidate of the accepted run, not the (score, candidate) pair
    (OpenDP's Python example unpacks the pair before returning)."""

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        release = SelectPrivateCandidate.__call__(self, arg, rng)
        return None if release is None else release[1]


@dataclass(frozen=True)
class ContinueCoin(SelectPrivateCandidate):
    """Wrong: the coin's sides swapped, it stops with probability 1 - gamma (gamma read as the
    probability of going on)."""

    stop = staticmethod(lambda stop_probability, rng: sample_bernoulli_rational(
        1 - ops.exact(stop_probability), rng))


@dataclass(frozen=True)
class StrictlyAbove(SelectPrivateCandidate):
    """Wrong: a score equal to the threshold is not accepted (``>`` for ``>=``)."""

    accepts = staticmethod(lambda score, threshold: ops.lt(threshold, score))


def with_function(cls: type):
    def build(measurement: Any, stop_probability: Any, threshold: Any = None) -> Measurement:
        real = build_select_private_candidate(measurement, stop_probability, threshold)
        return replace(real, function=cls(measurement, stop_probability, threshold))
    return build


def build_symmetric_metric(measurement: Any, stop_probability: Any, threshold: Any = None):
    """Wrong: the input metric fixed to the symmetric distance (datasets) whatever the runs'."""
    return replace(build_select_private_candidate(measurement, stop_probability, threshold),
                   input_metric=SymmetricDistance())


def once_map(d_in: Any, measurement: Measurement) -> Any:
    return measurement.map(d_in)


def build_once(measurement: Any, stop_probability: Any, threshold: Any = None):
    """Wrong: the map of one run ("only one release is made, the rest is post-processing")."""
    return replace(build_select_private_candidate(measurement, stop_probability, threshold),
                   privacy_map=Map(rule=once_map, params={"measurement": measurement}))


def nearest_map(d_in: Any, measurement: Measurement, factor: Any) -> Any:
    return measurement.map(d_in) * factor


def build_nearest(measurement: Any, stop_probability: Any, threshold: Any = None):
    """Wrong: ``factor * eps`` with a plain float product (rounded to nearest, may be below)."""
    real = build_select_private_candidate(measurement, stop_probability, threshold)
    return replace(real, privacy_map=Map(rule=nearest_map, params=real.privacy_map.params))


def build_twice_without_threshold(measurement: Any, stop_probability: Any, threshold: Any = None):
    """Wrong: 2 eps also for the best of the runs (OpenDP 0.16's docstring, read for the
    thresholdless variant; the theorem there gives 3 eps)."""
    real = build_select_private_candidate(measurement, stop_probability, threshold)
    return replace(real, privacy_map=Map(rule=real.privacy_map.rule,
                                         params={**real.privacy_map.params, "factor": 2}))


BELOW_ONE = Precondition("stop_probability < 1",
                         lambda stop_probability, **_: ops.lt(stop_probability, 1),
                         lambda stop_probability, **_: StopProbabilityError(stop_probability))
"""Wrong precondition: the lower bound forgotten; a negative gamma builds and the coin raises."""

make_spc_candidate_only = make_select_private_candidate.variant(
    "make_spc_candidate_only", with_function(CandidateOnly))
make_spc_continue_coin = make_select_private_candidate.variant(
    "make_spc_continue_coin", with_function(ContinueCoin))
make_spc_strictly_above = make_select_private_candidate.variant(
    "make_spc_strictly_above", with_function(StrictlyAbove))
make_spc_symmetric_metric = make_select_private_candidate.variant(
    "make_spc_symmetric_metric", build_symmetric_metric)
make_spc_once = make_select_private_candidate.variant("make_spc_once", build_once)
make_spc_nearest_map = make_select_private_candidate.variant("make_spc_nearest_map", build_nearest)
make_spc_twice_best_of = make_select_private_candidate.variant(
    "make_spc_twice_best_of", build_twice_without_threshold)
make_spc_no_lower_bound = Constructor(
    "make_spc_no_lower_bound", build_select_private_candidate,
    (SELECT_PRIVATE_CANDIDATE_PRECONDITIONS[0], BELOW_ONE,
     SELECT_PRIVATE_CANDIDATE_PRECONDITIONS[2]), validate_select_private_candidate)



def _candidate_as_score(domain: Any) -> bool:
    """Wrong: the release's second component (the candidate) checked as the score (mutant
    ``make_select_private_candidate:114:31:constant:0->1``)."""
    if not isinstance(domain, ProductDomain) or len(domain.components) != 2:
        return False
    score = domain.components[1]
    return isinstance(score, AtomDomain) and score.carrier in (int, float) and not score.nan


def _any_atom_score(domain: Any) -> bool:
    """Wrong: any atom domain accepted as the score's (mutant
    ``make_select_private_candidate:115:42:boolean:and->or``: text, NaN floats)."""
    return (isinstance(domain, ProductDomain) and len(domain.components) == 2
            and isinstance(domain.components[0], AtomDomain))


def validating_scores_with(score_ok):
    def validate(measurement: Any, stop_probability: Any, threshold: Any = None) -> None:
        if not isinstance(measurement, Measurement):
            raise CandidateMeasurementError(measurement, "it is not a Measurement")
        if not isinstance(measurement.output_measure, MaxDivergence):
            raise CandidateMeasurementError(measurement, "its output measure is not MaxDivergence")
        if not score_ok(measurement.output_domain):
            raise CandidateMeasurementError(measurement, "its scores are not int or float")
        if type(stop_probability) is not float:
            raise StopProbabilityError(stop_probability)
        if threshold is not None and type(threshold) not in (int, float):
            raise CandidateThresholdError(threshold)
    return validate


make_spc_score_of_candidate = Constructor(
    "make_spc_score_of_candidate", build_select_private_candidate,
    SELECT_PRIVATE_CANDIDATE_PRECONDITIONS, validating_scores_with(_candidate_as_score))
"""Refuses every scripted case (their candidates are text): the bounded law checks ran on
nothing and said 'every path' until they counted the cases that ran (now unknown); admits runs
with text scores, on which every call with a threshold raises (output domain refutes it)."""
make_spc_any_score = Constructor(
    "make_spc_any_score", build_select_private_candidate,
    SELECT_PRIVATE_CANDIDATE_PRECONDITIONS, validating_scores_with(_any_atom_score))

MECHANISMS = [
    Entry(c.name, c, select_private_candidate_obligations(c, c.name.removeprefix("make_")))
    for c in (make_spc_candidate_only, make_spc_continue_coin, make_spc_strictly_above,
              make_spc_symmetric_metric, make_spc_once, make_spc_nearest_map,
              make_spc_twice_best_of, make_spc_no_lower_bound, make_spc_score_of_candidate,
              make_spc_any_score)
]

EXPECTED_REFUTATIONS = {
    "spc_candidate_only.output_domain",
    "spc_candidate_only.distribution",
    "spc_continue_coin.distribution",
    "spc_strictly_above.distribution",
    "spc_symmetric_metric.compatibility",
    "spc_once.privacy",
    "spc_nearest_map.map_rounding",
    "spc_twice_best_of.privacy",
    "spc_no_lower_bound.runtime_errors",
    "spc_score_of_candidate.output_domain",
    "spc_any_score.output_domain",
}

TWIN_OF = {
    "select_private_candidate.output_domain": "spc_candidate_only.output_domain",
    "select_private_candidate.compatibility": "spc_symmetric_metric.compatibility",
    "select_private_candidate.runtime_errors": "spc_no_lower_bound.runtime_errors",
    "select_private_candidate.distribution": "spc_continue_coin.distribution",
    "select_private_candidate.privacy": "spc_once.privacy",
    "select_private_candidate.map_rounding": "spc_nearest_map.map_rounding",
}


@dataclass(frozen=True)
class OwnLoop:
    """Not a ``SelectPrivateCandidate``: its own loop (a fixed ten runs, the best released), no
    kernel to run; every obligation reading the function is unknown (unsupported) or refuted."""

    measurement: Measurement

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        rng = system_rng(rng)
        return max((self.measurement.function(arg, rng) for _ in range(10)),
                   key=lambda release: release[0])


def build_own_loop(measurement: Any, stop_probability: Any, threshold: Any = None):
    return replace(build_select_private_candidate(measurement, stop_probability, threshold),
                   function=OwnLoop(measurement))


make_spc_own_loop = make_select_private_candidate.variant("make_spc_own_loop", build_own_loop)
UNSUPPORTED = [Entry("make_spc_own_loop", make_spc_own_loop,
                     select_private_candidate_obligations(make_spc_own_loop, "spc_own_loop"))]
