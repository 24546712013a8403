"""The refutation *an event the neighbour never reaches* (obligations/refuters/unreached_event.py):
a path of the draws on one input whose outputs no run on the other gives, with a probability
bounded below exactly, above the claimed delta. Wrong threshold releases are refuted; the
catalogue's are not, and neither is a claim whose delta covers the event."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

import pytest
import z3

from mechanisms.core import Map
from mechanisms.domains import AtomDomain, MapDomain
from mechanisms.make_gaussian_threshold import make_gaussian_threshold
from mechanisms.make_laplace_threshold import ThresholdedNoise, make_laplace_threshold
from mechanisms.samplers import sample_discrete_laplace, system_rng
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, ObjectKind, object_statements, standard_statements
from obligations.refutation_search import map_pairs
from obligations.refuters.unreached_event import _same, refute_constructor, refute_object


def _privacy(constructor):
    return next(s for s in standard_statements(constructor, ObjectKind.MEASUREMENT)
                if s.claim is Claim.PRIVACY)


def _refute(constructor, x, other, **arguments):
    built = constructor(**arguments)
    return refute_constructor(_privacy(constructor), constructor, arguments, x, other,
                              built.input_metric.distance(x, other))


@dataclass(frozen=True)
class KeepOnTrueCount(ThresholdedNoise):
    """Decides which keys to release on the true count, then adds the noise."""

    def __call__(self, counts, rng=None):
        rng = system_rng(rng)
        return {k: c + self.sampler(self.scale, rng) for k, c in counts.items()
                if self.keep(c, self.threshold)}


@dataclass(frozen=True)
class OneDraw(ThresholdedNoise):
    """One draw added to every count: the noise cancels in differences."""

    def __call__(self, counts, rng=None):
        z = self.sampler(self.scale, system_rng(rng))
        return {k: c + z for k, c in counts.items() if self.keep(c + z, self.threshold)}


def _variant(base, function_class, sampler=None):
    def build(carrier, scale, threshold):
        built = base.build(carrier, scale, threshold)
        return replace(built, function=function_class(scale, threshold,
                                                      sampler or built.function.sampler))
    return base.variant(f"{base.name}_{function_class.__name__}", build)


THRESHOLD = dict(carrier=str, scale=1.0, threshold=10)


def test_keys_chosen_on_the_true_count_are_refuted_with_probability_one():
    wrong = _variant(make_laplace_threshold, KeepOnTrueCount)
    refutation = _refute(wrong, {"a": 10}, {"a": 9}, **THRESHOLD)
    assert refutation.loss == math.inf
    assert "its condition always holds" in refutation.witness
    assert "no run from {'a': 9}" in refutation.witness


def test_one_shared_draw_is_refuted_by_an_event_on_two_keys():
    wrong = _variant(make_gaussian_threshold, OneDraw)
    refutation = _refute(wrong, {"a": 50, "b": 50}, {"a": 51, "b": 50}, carrier=str, scale=1.0,
                         threshold=50)
    assert "Pr[draws = [0]]" in refutation.witness  # sigma 1: at least 1 / (1 + sqrt(2 pi))
    assert "Bun and Steinke 2016, Definition 8.1" in refutation.witness


def test_a_laplace_sampler_under_a_gaussian_delta_is_refuted():
    wrong = _variant(make_gaussian_threshold, ThresholdedNoise, sample_discrete_laplace)
    refutation = _refute(wrong, {"a": 1}, {}, **THRESHOLD)
    # released iff 1 + Z >= 10; Pr[Z = 9] = (1 - q) / (1 + q) q^9, q = e^-1: about 5.7e-5
    assert "Pr[draws = [9]]" in refutation.witness and "5.70298e-05" in refutation.witness


@pytest.mark.parametrize("constructor", [make_laplace_threshold, make_gaussian_threshold])
def test_the_catalogue_threshold_releases_are_not_refuted(constructor):
    histograms = [{}, {"a": 0}, {"a": 1}, {"a": 9}, {"a": 10}, {"a": 50, "b": 50},
                  {"a": 51, "b": 50}]
    for x, other in itertools.permutations(histograms, 2):
        with pytest.raises(RuleRefused, match="no path"):
            _refute(constructor, x, other, **THRESHOLD)


def test_a_delta_that_covers_the_event_is_not_refuted():
    def covered(carrier, scale, threshold):
        built = _variant(make_laplace_threshold, KeepOnTrueCount).build(carrier, scale, threshold)
        return replace(built, privacy_map=Map(rule=lambda d_in: (1.0, 1.0)))
    honest = make_laplace_threshold.variant("keep_on_true_count_delta_one", covered)
    with pytest.raises(RuleRefused, match="no path"):
        _refute(honest, {"a": 10}, {"a": 9}, **THRESHOLD)


def test_an_infinite_epsilon_is_not_refuted_whatever_its_delta():
    """``(inf, delta)``-DP bounds no event: ``e^inf Pr'[S] + delta`` is never below
    ``Pr[S]``, even where ``Pr'[S] = 0`` (a mechanism with no noise may claim it)."""
    def unbounded(carrier, scale, threshold):
        built = _variant(make_laplace_threshold, KeepOnTrueCount).build(carrier, scale, threshold)
        return replace(built, privacy_map=Map(rule=lambda d_in: (math.inf, 1e-6)))
    honest = make_laplace_threshold.variant("keep_on_true_count_infinite_epsilon", unbounded)
    with pytest.raises(RuleRefused, match="finite epsilon"):
        _refute(honest, {"a": 10}, {"a": 9}, **THRESHOLD)


def test_a_function_that_computes_otherwise_when_run_refutes_nothing():
    calls = []

    @dataclass(frozen=True)
    class Counting(ThresholdedNoise):
        def __call__(self, counts, rng=None):
            calls.append(1)
            z = self.sampler(self.scale, system_rng(rng))
            return {k: c + z + len(calls) for k, c in counts.items() if c >= self.threshold}

    with pytest.raises(RuleRefused, match="computes otherwise"):
        _refute(_variant(make_laplace_threshold, Counting), {"a": 10}, {"a": 9}, **THRESHOLD)


def test_inputs_farther_than_d_in_and_other_claims_are_refused():
    wrong = _variant(make_laplace_threshold, KeepOnTrueCount)
    built = wrong(**THRESHOLD)
    privacy = _privacy(wrong)
    with pytest.raises(RuleRefused, match="not within"):
        refute_constructor(privacy, wrong, THRESHOLD, {"a": 10}, {"a": 9}, (1, 0, 0))
    output_domain = next(s for s in standard_statements(wrong, ObjectKind.MEASUREMENT)
                         if s.claim is Claim.OUTPUT_DOMAIN)
    with pytest.raises(RuleRefused, match="not the privacy"):
        refute_constructor(output_domain, wrong, THRESHOLD, {"a": 10}, {"a": 9}, (1, 1, 1))
    owed = next(s for s in object_statements("wrong", built) if s.claim is Claim.PRIVACY)
    assert refute_object(owed, built, {"a": 10}, {"a": 9}, (1, 1, 1)).loss == math.inf


def test_outputs_are_told_apart_only_where_python_equality_is_known():
    class Loose(list):
        def __eq__(self, other):
            return True

    n = z3.Int("n")
    for never in (_same({"a": n}, {}), _same([n], (n,)), _same({"a": n}, 3), _same([n], None)):
        assert z3.is_false(z3.simplify(never))
    for maybe in (_same(Loose(), [n]), _same(1, 1.0), _same(True, n), _same(0.5, n)):
        assert z3.is_true(z3.simplify(maybe))  # 1 == 1.0 and True == 1 in Python
    solver = z3.Solver()
    solver.add(_same({"a": n + 1, "b": [n]}, {"a": 2, "b": [1]}), n != 1)
    assert solver.check() == z3.unsat


def test_histogram_pairs_move_a_count_by_one_at_a_key_the_domain_admits():
    built = make_laplace_threshold(str, 1.0, 10)
    arguments = {"carrier": str, "scale": 1.0, "threshold": 10}
    assert ({"": 10}, {"": 9}, (1, 1, 1)) in list(map_pairs(built, arguments, 0))
    assert ({"": 10, "a": 10}, {"": 11, "a": 10}, (1, 1, 1)) in list(map_pairs(built, arguments, 1))
    narrow = replace(built, input_domain=MapDomain(AtomDomain(int, bounds=(100, 200)),
                                                   AtomDomain(int)))
    assert list(map_pairs(narrow, arguments, 0)) == []  # no hard key in 100..200: no pair
