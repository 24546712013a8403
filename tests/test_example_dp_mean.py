"""examples/dp_mean_csv.py: the end-to-end DP mean of a CSV column, its map and its running code."""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from checker.empirical.privacy import Pair, PrivacyTester
from obligations.catalogue import builtin_catalogue

sys.path.insert(0, str(Path(__file__).parents[1] / "examples"))
import dp_mean_csv  # noqa: E402

ALPHA = 1e-6
"""False-alarm probability of each statistical test below (seeded, so CI is deterministic)."""


def column() -> list[str]:
    return dp_mean_csv.read_column(dp_mean_csv.DATA, "age")


def test_the_example_prints_its_epsilon_and_a_mean(capsys):
    dp_mean_csv.main(["--seed", "3"])
    out = capsys.readouterr().out
    epsilon = dp_mean_csv.make_dp_sum_pipeline().map(1)
    assert f"epsilon = pipeline.map(1) = {epsilon!r}" in out
    assert "40 rows read" in out
    release = dp_mean_csv.make_dp_sum_pipeline()(column(), random.Random(3))
    assert out.rstrip().endswith(f": {release / dp_mean_csv.SIZE:.2f}")


def test_the_shipped_column_has_dirty_rows_the_pipeline_handles():
    rows = column()
    assert {"", "unknown", "nan", "131"} <= set(rows)
    transformation = exact_sum_transformation()
    assert transformation(rows) == sum(min(float(r), 100.0) for r in rows
                                       if r not in {"", "unknown", "nan"})
    assert dp_mean_csv.make_dp_sum_pipeline().input_domain.member(rows)


def exact_sum_transformation():
    """The pipeline without its noise: cast, clamp, resize, float sum."""
    from mechanisms.domains import AtomDomain
    from mechanisms.make_cast_default import make_cast_default
    from mechanisms.make_clamp import make_clamp
    from mechanisms.make_resize import make_resize
    from mechanisms.make_sized_bounded_float_checked_sum import (
        make_sized_bounded_float_checked_sum)
    low, high, size = dp_mean_csv.LOWER, dp_mean_csv.UPPER, dp_mean_csv.SIZE
    return (make_cast_default(str, float) >> make_clamp(low, high)
            >> make_resize(size, dp_mean_csv.MIDPOINT, AtomDomain(float, bounds=(low, high)))
            >> make_sized_bounded_float_checked_sum(size, low, high))


def test_the_privacy_map_is_the_chain_of_the_component_maps():
    """One row added or removed: the resize turns it into 2 changed rows (map 2 d_in), the sum
    into at most (2 // 2)(U - L) plus its rounding terms, the Laplace into that over the scale."""
    from mechanisms.make_laplace import make_laplace
    pipeline = dp_mean_csv.make_dp_sum_pipeline()
    sensitivity = exact_sum_transformation().map(1)
    assert sensitivity > dp_mean_csv.UPPER - dp_mean_csv.LOWER  # the sum's rounding term is in
    assert pipeline.map(1) == make_laplace(dp_mean_csv.SCALE).map(sensitivity)
    epsilon = Fraction(pipeline.map(1))
    assert epsilon >= Fraction(sensitivity) / Fraction(dp_mean_csv.SCALE)  # rounded up, not down
    assert epsilon - 1 < Fraction(1, 10 ** 12)  # the rounding terms cost next to nothing
    assert pipeline.check(1, 1.0 + 1e-12) and not pipeline.check(1, 1.0)


def test_every_piece_of_the_pipeline_is_a_catalogue_constructor_the_gate_proves():
    names = {e.name for e in builtin_catalogue()}
    assert {"make_cast_default", "make_clamp", "make_resize", "make_sized_bounded_float_checked_sum",
            "make_laplace", "make_chain_tt", "make_chain_mt"} <= names


def sampler(pipeline):
    def sample(dataset, n: int, rng: np.random.Generator):
        source = random.Random(int(rng.integers(2 ** 63)))
        return [pipeline(dataset, source) for _ in range(n)]
    return sample


def substituted() -> tuple[list[str], list[str]]:
    """Two columns one substitution apart (d_in = 2): a row of 0 becomes a row of 100, the
    largest move of the sum."""
    rows = column()
    return ["0", *rows[1:]], ["100", *rows[1:]]


def test_the_running_pipeline_meets_its_map_on_a_worst_case_pair():
    pipeline = dp_mean_csv.make_dp_sum_pipeline()
    x, x_prime = substituted()
    audit = PrivacyTester(sampler(pipeline), samples=3000, alpha=ALPHA, seed=5).audit(
        [Pair(x, x_prime, pipeline.map(2), 2)])
    assert not audit.violations, audit.summary()


def test_the_same_audit_catches_a_pipeline_with_a_quarter_of_the_noise():
    """The control: the claim is the real pipeline's map(2), the noise is scale / 4."""
    claimed = dp_mean_csv.make_dp_sum_pipeline().map(2)
    under_noised = dp_mean_csv.make_dp_sum_pipeline(scale=dp_mean_csv.SCALE / 4)
    x, x_prime = substituted()
    audit = PrivacyTester(sampler(under_noised), samples=3000, alpha=ALPHA, seed=5).audit(
        [Pair(x, x_prime, claimed, 2)])
    assert audit.violations, audit.summary()


@pytest.mark.parametrize("bad", [["--column", "height"]])
def test_a_missing_column_is_a_clear_error(bad):
    with pytest.raises(SystemExit, match="no column 'height'"):
        dp_mean_csv.main(bad)
