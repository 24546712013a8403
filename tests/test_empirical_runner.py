"""``check --empirical`` on entries: every example run, untested entries never pass."""

from __future__ import annotations

import pytest

from checker.empirical.runner import NOT_TESTED, VIOLATION, run_empirical
from mechanisms.make_clamp import make_clamp
from obligations.base import Entry, Example
from obligations.catalogue import builtin_catalogue
from obligations.make_randomized_response import stated_distribution
from tests.wrong_variants import make_rr_lies_without_skipping


def test_a_sampler_that_misses_its_stated_distribution_is_caught():
    entry = Entry("rr_lies_without_skipping", make_rr_lies_without_skipping, (), "",
                  (Example("make_rr_lies_without_skipping(['a', 'b', 'c'], 0.75)",
                           lambda: make_rr_lies_without_skipping(["a", "b", "c"], 0.75),
                           distribution=stated_distribution),))
    results = {r.test: r for r in run_empirical([entry], samples=5_000, seed=0)}
    fit = results["sampler vs stated distribution"]
    assert fit.verdict == VIOLATION and "SAMPLER MISMATCH" in fit.summary


@pytest.mark.slow  # over 2 s: make test-slow
def test_catalogue_measurements_match_their_stated_distribution():
    rr = next(e for e in builtin_catalogue() if e.name == "make_randomized_response")
    results = run_empirical([rr], samples=5_000, seed=0)
    assert {r.test for r in results} == {"privacy", "sampler vs stated distribution"}
    assert not any(r.failed for r in results), [r.summary for r in results if r.failed]


def test_an_entry_without_examples_is_not_tested_and_fails():
    clamp = next(e for e in builtin_catalogue() if e.name == "make_clamp")
    bare = Entry("bare", clamp.constructor, clamp.obligations)
    [result] = run_empirical([bare])
    assert result.verdict == NOT_TESTED and result.failed


def test_an_example_that_raises_is_an_error_not_a_pass():
    from checker.empirical.runner import ERROR

    def broken():
        raise RuntimeError("cannot build")
    entry = Entry("broken", make_clamp, (), "", (Example("broken()", broken),))
    [result] = run_empirical([entry])
    assert result.verdict == ERROR and result.failed and "cannot build" in result.summary


def test_inputs_are_made_distinct_even_when_they_are_vectors():
    from checker.empirical.runner import distinct
    assert distinct([[1.0, 2.0], [1.0, 2.0], 1, 1.0, True, 1]) == [[1.0, 2.0], 1, 1.0, True]


def test_a_zcdp_claim_is_not_tested_by_the_pure_dp_tester_and_says_so():
    gaussian = next(e for e in builtin_catalogue() if e.name == "make_gaussian")
    results = run_empirical([gaussian], samples=200)
    assert results and all(r.verdict == NOT_TESTED and r.failed for r in results)
    assert "ZeroConcentratedDivergence" in results[0].summary


def test_pairs_the_tester_could_not_test_make_an_error_not_a_pass(monkeypatch):
    """An audit with untested pairs (verdict unknown) fails ``check --empirical``."""
    from checker.empirical import runner
    from checker.empirical.privacy import PairError, PrivacyAudit

    def unknown(self, pairs, **_):
        return PrivacyAudit([], 1e-3, 10, 40, errors=[PairError("a", "b", "it raised")],
                            planned=2, screened=2)
    monkeypatch.setattr(runner.PrivacyTester, "audit", unknown)
    rr = next(e for e in builtin_catalogue() if e.name == "make_randomized_response")
    privacy = next(r for r in run_empirical([rr], samples=200, seed=0) if r.test == "privacy")
    assert privacy.verdict == runner.ERROR and privacy.failed and "UNKNOWN" in privacy.summary


def test_a_fixed_delta_claim_is_tested_with_its_delta():
    """The pair's claim is the map's (epsilon, delta): a converted discrete Laplace is tested, and
    a wrong twin that claims half the epsilon is found (seeded; false alarm <= alpha)."""
    from dataclasses import replace

    from checker.empirical.runner import _pair
    from mechanisms.core import Map
    from mechanisms.make_discrete_laplace import make_discrete_laplace
    from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP
    m = make_pureDP_to_approxDP(make_discrete_laplace(1.0))
    pair = _pair(m, 0, 3)
    assert (pair.claim, pair.delta, pair.d_in) == (3.0, 0.0, 3)
    halved = replace(m, privacy_map=Map(rule=lambda d: (d / 2, 1e-9)))
    wrong = _pair(halved, 0, 3)
    assert (wrong.claim, wrong.delta) == (1.5, 1e-9)
    from checker.empirical.privacy import PrivacyTester
    from checker.empirical.runner import measurement_sampler
    found = PrivacyTester(measurement_sampler(halved), 4000, 1e-3, 0).audit([wrong])
    assert found.verdict == "violation", found.summary()
    entry = next(e for e in builtin_catalogue() if e.name == "make_pureDP_to_approxDP")
    results = run_empirical([entry], samples=2000)
    assert results and not any(r.failed for r in results), [r.summary for r in results]
