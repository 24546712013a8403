"""mechanisms.make_private_quantile: the chain it builds, its map, the refusals, seeded sampling
against the exact exponential-mechanism law, agreement of the map with opendp 0.16's
``make_private_quantile`` on a grid, and examples/dp_median_csv.py end to end."""

from __future__ import annotations

import math
import random
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import (QuantileAlphaError, QuantileCandidatesError, QuantileDomainError,
                               SelectionScaleError)
from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_private_quantile import make_private_quantile
from mechanisms.make_quantile_score_candidates import make_quantile_score_candidates
from mechanisms.make_report_noisy_max import make_report_noisy_max
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance

sys.path.insert(0, str(Path(__file__).parents[1] / "examples"))
import dp_median_csv  # noqa: E402

FALSE_ALARM = 1e-6
"""False-alarm probability of the statistical test below (seeded, so CI is deterministic)."""


def law(candidates, alpha, scale, data):
    """The exponential mechanism over the stated scores: Pr[j] ~ exp(-score_j / (scale den))."""
    num, den = make_quantile_score_candidates(candidates, alpha).function.num, \
        make_quantile_score_candidates(candidates, alpha).function.den
    scores = [abs(den * sum(x < c for x in data) - num * (len(data) - sum(x == c for x in data)))
              for c in candidates]
    weights = [math.exp(-s / (scale * den)) for s in scores]
    return [w / sum(weights) for w in weights]


def test_it_is_the_chain_of_the_two_constructors():
    m = make_private_quantile([0, 5, 10], 0.3, 2.0)
    scores = make_quantile_score_candidates([0, 5, 10], 0.3)
    assert m == make_chain_mt(make_report_noisy_max(2.0 * 10_000, "min", int), scores)
    assert m.input_domain == VectorDomain(AtomDomain(int))
    # the domains meet: the scores are never empty, which is what the noisy max admits
    assert scores.output_domain == make_report_noisy_max(1.0, T=int).input_domain \
        == VectorDomain(AtomDomain(int), min_size=1)
    assert m([], random.Random(0)) in (0, 1, 2)   # no rows: still one score per candidate
    assert m.input_metric == SymmetricDistance() and m.output_measure == MaxDivergence()
    assert m.output_domain == AtomDomain(int)


@pytest.mark.parametrize("alpha, scale, epsilon", [
    (0.5, 1.0, 1.0), (0.5, 2.0, 0.5), (0.0, 1.0, 2.0), (1.0, 4.0, 0.5), (0.25, 1.0, 1.5),
    (0.3, 1.0, 1.4)])
def test_map_is_two_max_alpha_over_scale(alpha, scale, epsilon):
    m = make_private_quantile([0, 1, 2], alpha, scale)
    assert m.map(0) == 0
    for d_in in (1, 2, 5):
        assert m.map(d_in) >= Fraction(epsilon) * d_in * Fraction(1 - 1e-15)
        assert m.map(d_in) <= epsilon * d_in * (1 + 1e-15)


def test_release_is_an_index():
    m = make_private_quantile([0.0, 2.5, 5.0], 0.5, 1.0)
    rng = random.Random(1)
    assert all(m([1.0, 2.0, 3.0], rng) in (0, 1, 2) for _ in range(50))
    assert m([], rng) in (0, 1, 2)


def test_seeded_frequencies_match_the_exponential_mechanism():
    """2000 seeded draws of the median of 0..9 over 5 candidates: chi-square against the exact
    law; false alarm FALSE_ALARM."""
    scipy_stats = pytest.importorskip("scipy.stats")
    candidates, data = [0, 3, 5, 7, 9], list(range(10))
    m = make_private_quantile(candidates, 0.5, 1.0)
    rng = random.Random(2026)
    counts = Counter(m(data, rng) for _ in range(2000))
    expected = [2000 * p for p in law(candidates, 0.5, 1.0, data)]
    observed = [counts[j] for j in range(len(candidates))]
    assert scipy_stats.chisquare(observed, expected).pvalue > FALSE_ALARM


@pytest.mark.parametrize("arguments, error", [
    (([1, 0], 0.5, 1.0), QuantileCandidatesError), (([], 0.5, 1.0), QuantileCandidatesError),
    (([0, 1], 1.5, 1.0), QuantileAlphaError), (([0, 1], math.nan, 1.0), QuantileAlphaError),
    (([0, 1], 0.5, 0.0), SelectionScaleError), (([0, 1], 0.5, -1.0), SelectionScaleError),
    (([0, 1], 0.5, math.inf), SelectionScaleError), (([0, 1], 0.5, math.nan), SelectionScaleError),
    (([0, 1], 0.5, True), SelectionScaleError), (([0, 1], 0.5, "1"), SelectionScaleError),
    (([0, 1], 0.3, 1e308), SelectionScaleError)])
def test_refusals(arguments, error):
    with pytest.raises(error):
        make_private_quantile(*arguments)


def test_row_domain_must_match_the_candidates():
    with pytest.raises(QuantileDomainError):
        make_private_quantile([0, 1], 0.5, 1.0, AtomDomain(float))


# --- agreement with opendp ----------------------------------------------------------------------

def test_maps_equal_opendp_on_a_grid():
    """Same map as opendp 0.16 (pure DP, unsized domain) at d_in = 1..3 on 6 alphas x 5 scales
    x int and float candidates: equal, to the last bit (both divide 2 d_in max(num, den - num)
    by the float scale * den; ours rounds up, opendp's agrees on this grid)."""
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    for carrier in (int, float):
        candidates = [carrier(c) for c in (0, 1, 2, 3)]
        atoms = dp.atom_domain(T=carrier, nan=False) if carrier is float \
            else dp.atom_domain(T=carrier)
        for alpha in (0.5, 0.3, 0.0, 0.25, 1 / 3, 0.123456):
            for scale in (1.0, 0.7, 3.0, 1e-3, 12.5):
                ours = make_private_quantile(candidates, alpha, scale)
                theirs = dp.m.make_private_quantile(dp.vector_domain(atoms),
                                                    dp.symmetric_distance(), dp.max_divergence(),
                                                    candidates, alpha, scale)
                assert [ours.map(d) for d in (1, 2, 3)] == [theirs.map(d) for d in (1, 2, 3)]


def test_scores_behind_opendp_release_are_ours():
    """opendp samples by Gumbel noise (not seedable here), so the law is compared through its
    score transformation: the same scores, hence the same exponential-mechanism law."""
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    data = [1, 4, 4, 6, 9, 9, 9]
    theirs = dp.t.make_quantile_score_candidates(dp.vector_domain(dp.atom_domain(T=int)),
                                                 dp.symmetric_distance(), [0, 4, 9], 0.75)
    ours = make_private_quantile([0, 4, 9], 0.75, 1.0)
    assert ours.function.first(data) == theirs(data)


# --- examples/dp_median_csv.py -------------------------------------------------------------------

def test_example_prints_epsilon_and_median(capsys):
    assert dp_median_csv.main(["--seed", "1"]) == 0
    out = capsys.readouterr().out
    pipeline = dp_median_csv.make_dp_median_pipeline()
    assert f"epsilon = pipeline.map(1) = {pipeline.map(1)!r}" in out and pipeline.map(1) == 1.0
    column = dp_median_csv.read_column(dp_median_csv.DATA, "age")
    index = pipeline(column, random.Random(1))
    assert out.rstrip().endswith(f": {dp_median_csv.CANDIDATES[index]:g}")


def test_example_bad_files_exit_2(tmp_path, capsys):
    assert dp_median_csv.main([str(tmp_path / "missing.csv")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert dp_median_csv.main(["--column", "height"]) == 2
    assert "has no column 'height'" in capsys.readouterr().err
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"\xff\xfe\x00age\n")
    assert dp_median_csv.main([str(binary)]) == 2


def test_example_median_is_near_the_true_one():
    """Seeded: on 41 rows 0..40 the release at scale 0.25 (epsilon 4) is within 5 of 20 on each
    of 20 seeds (the law puts mass < 1e-6 beyond that)."""
    pipeline = dp_median_csv.make_dp_median_pipeline(scale=0.25)
    rows = [str(age) for age in range(41)]
    for seed in range(20):
        assert abs(dp_median_csv.CANDIDATES[pipeline(rows, random.Random(seed))] - 20) <= 5
