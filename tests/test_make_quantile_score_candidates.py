"""mechanisms.make_quantile_score_candidates: the scores, the fraction of alpha, the map, the
refusals, random neighbouring vectors against the map, and agreement of scores and maps with
opendp 0.16's ``make_quantile_score_candidates`` on an unsized vector domain (seeded grid)."""

from __future__ import annotations

import math
import random

import pytest

from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import (DomainError, QuantileAlphaError, QuantileCandidatesError,
                               QuantileDomainError)
from mechanisms.make_quantile_score_candidates import (CandidateScores, alpha_fraction,
                                                       make_quantile_score_candidates)
from mechanisms.metrics import LInfDistance, SymmetricDistance


def test_scores_by_hand():
    t = make_quantile_score_candidates([0.0, 1.0, 2.0, 3.0], 0.5)
    # n = 6; candidate 1.0: 2 rows below, 2 equal: |2*2 - 1*(6 - 2)| = 0, the median
    assert t([0.0, 0.5, 1.0, 1.0, 2.5, 3.0]) == [5, 0, 2, 5]
    assert t([]) == [0, 0, 0, 0]
    assert all(type(s) is int for s in t([0.0, 7.0]))


def test_alpha_zero_and_one_count_below_and_above():
    data = [0, 1, 1, 2, 5]
    assert make_quantile_score_candidates([0, 1, 2, 3], 0.0)(data) == [0, 1, 3, 4]
    assert make_quantile_score_candidates([0, 1, 2, 3], 1.0)(data) == [4, 2, 1, 1]


def test_signed_zero_and_infinities_compare_as_reals():
    t = make_quantile_score_candidates([-math.inf, 0.0, math.inf], 0.5)
    assert t([-0.0]) == t([0.0]) == [1, 0, 1]
    assert t([math.inf, -math.inf]) == [1, 0, 1]


@pytest.mark.parametrize("alpha, fraction", [
    (0.5, (1, 2)), (0.25, (1, 4)), (0.0, (0, 1)), (1.0, (1, 1)), (1, (1, 1)), (0, (0, 1)),
    (0.3, (3000, 10_000)), (1 / 3, (3333, 10_000)), (0.123456, (1234, 10_000)),
    (5e-324, (0, 10_000)), (math.nextafter(1.0, 0.0), (9999, 10_000)),
    (1 / 8192, (1, 8192)), (1 / 16384, (0, 10_000))])
def test_alpha_fraction(alpha, fraction):
    assert alpha_fraction(alpha) == fraction
    t = make_quantile_score_candidates([0], alpha)
    assert (t.function.num, t.function.den) == fraction


def test_domains_metrics_and_map():
    t = make_quantile_score_candidates([1, 2], 0.3)
    assert t.input_domain == VectorDomain(AtomDomain(int))
    assert t.output_domain == VectorDomain(AtomDomain(int), min_size=1)
    assert t([]) == [0, 0] and t.output_domain.member(t([]))  # one score per candidate
    assert t.input_metric == SymmetricDistance() and t.output_metric == LInfDistance()
    assert isinstance(t.function, CandidateScores)
    assert [t.map(d) for d in range(4)] == [0, 7000, 14000, 21000]
    assert make_quantile_score_candidates([1, 2], 0.5).map(5) == 5
    bounded = make_quantile_score_candidates([1.0], 0.5, AtomDomain(float, bounds=(0.0, 9.0)))
    assert bounded.input_domain == VectorDomain(AtomDomain(float, bounds=(0.0, 9.0)))
    with pytest.raises(DomainError):
        bounded([10.0])


def test_huge_ints_do_not_overflow():
    big = 2 ** 80
    t = make_quantile_score_candidates([big], 0.5)
    assert t([big + 1] * 3) == [3]


@pytest.mark.parametrize("candidates, reason", [
    ([], "not a non-empty list or tuple"), ((), "not a non-empty list or tuple"),
    ({1, 2}, "not a non-empty list or tuple"), ([2, 1], "not strictly increasing"),
    ([1, 1], "not strictly increasing"), ([1, 2.0], "not all ints or all floats"),
    ([True, False], "not all ints or all floats"), (["a", "b"], "not all ints or all floats"),
    ([0.0, math.nan], "a candidate is NaN")])
def test_candidates_error(candidates, reason):
    with pytest.raises(QuantileCandidatesError) as info:
        make_quantile_score_candidates(candidates, 0.5)
    assert info.value.candidates is candidates and info.value.reason == reason


@pytest.mark.parametrize("alpha", [-0.1, 1.5, math.nan, math.inf, True, "0.5", None, 2])
def test_alpha_error(alpha):
    with pytest.raises(QuantileAlphaError) as info:
        make_quantile_score_candidates([0, 1], alpha)
    assert info.value.alpha is alpha


@pytest.mark.parametrize("candidates, domain", [
    ([0.0], AtomDomain(float, nan=True)), ([0], AtomDomain(float)), ([0.0], AtomDomain(int)),
    ([0], VectorDomain(AtomDomain(int)))])
def test_domain_error(candidates, domain):
    with pytest.raises(QuantileDomainError) as info:
        make_quantile_score_candidates(candidates, 0.5, domain)
    assert info.value.domain is domain


def test_random_neighbours_within_the_map():
    """Seeded: 400 random pairs (insertions, deletions, substitutions, shuffles); deterministic,
    no false alarm."""
    rng = random.Random(20261126)
    for _ in range(400):
        candidates = sorted(set(rng.randint(-4, 4) for _ in range(rng.randint(1, 5))))
        alpha = rng.choice([0.5, 0.3, 0.0, 1.0, rng.random()])
        t = make_quantile_score_candidates(candidates, alpha)
        v = [rng.randint(-5, 5) for _ in range(rng.randint(0, 8))]
        w = [x for x in v if rng.random() < 0.7] + [rng.randint(-5, 5)
                                                   for _ in range(rng.randint(0, 3))]
        rng.shuffle(w)
        d_in = t.input_metric.distance(v, w)
        assert t.output_metric.distance(t(v), t(w)) <= t.map(d_in)


# --- agreement with opendp ----------------------------------------------------------------------

def test_scores_and_maps_equal_opendp_on_a_seeded_grid():
    """Same scores and same map at d_in = 0..3 as opendp 0.16 on an unsized vector domain, for
    int and float candidates, exact fractions and the 10_000 grid (300 seeded cases)."""
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    rng = random.Random(7)
    alphas = [0.5, 0.3, 0.25, 1 / 3, 0.0, 1.0, 0.75, 0.123456, 0.99999, 1e-5, 5e-324, 0.00015]
    for _ in range(300):
        alpha = rng.choice(alphas + [rng.random()])
        carrier = rng.choice([int, float])
        candidates = sorted(set(carrier(rng.randint(-5, 5)) for _ in range(rng.randint(1, 6))))
        data = [carrier(rng.randint(-6, 6)) for _ in range(rng.randint(0, 12))]
        ours = make_quantile_score_candidates(candidates, alpha)
        atoms = dp.atom_domain(T=carrier, nan=False) if carrier is float \
            else dp.atom_domain(T=carrier)
        theirs = dp.t.make_quantile_score_candidates(dp.vector_domain(atoms),
                                                     dp.symmetric_distance(), candidates, alpha)
        assert ours(data) == theirs(data), (candidates, alpha, data)
        assert [ours.map(d) for d in range(4)] == [theirs.map(d) for d in range(4)]


def test_opendp_sized_map_differs():
    """opendp's sized domain uses (d_in // 2) * den; ours is unsized only: on the unsized domain
    both give d_in * max(num, den - num)."""
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    sized = dp.t.make_quantile_score_candidates(
        dp.vector_domain(dp.atom_domain(T=int), size=10), dp.symmetric_distance(), [0, 1], 0.5)
    assert [sized.map(d) for d in (1, 2, 3)] == [0, 2, 2]
    assert [make_quantile_score_candidates([0, 1], 0.5).map(d) for d in (1, 2, 3)] == [1, 2, 3]
