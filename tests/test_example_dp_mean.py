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


SIZE = 40
"""Rows of the shipped examples/data/ages.csv."""


def column() -> list[str]:
    return dp_mean_csv.read_column(dp_mean_csv.DATA, "age")


def pipeline(scale: float = dp_mean_csv.SCALE):
    return dp_mean_csv.make_dp_sum_pipeline(SIZE, scale)


def test_the_example_prints_its_epsilon_and_a_mean(capsys):
    assert dp_mean_csv.main(["--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert len(column()) == SIZE
    assert f"epsilon = pipeline.map(2) = {pipeline().map(2)!r}" in out  # the row count is public
    assert "40 rows read" in out and "the row count is public" in out
    release = pipeline()(column(), random.Random(3))
    assert out.rstrip().endswith(f": {release / SIZE:.2f}")


def write_ages(path: Path, ages: list[int]) -> Path:
    path.write_text("id,age\n" + "".join(f"{i},{age}\n" for i, age in enumerate(ages)))
    return path


def test_the_mean_is_of_every_row_of_a_longer_file(tmp_path, capsys):
    """100 rows, the 40 smallest 0 and the others 100: every row is in the mean (60), none left
    out (the 40 smallest alone would give 0)."""
    data = write_ages(tmp_path / "hundred.csv", [0] * 40 + [100] * 60)
    assert dp_mean_csv.main([str(data), "--seed", "7"]) == 0
    captured = capsys.readouterr()
    rows = dp_mean_csv.read_column(data, "age")
    hundred = dp_mean_csv.make_dp_sum_pipeline(100)
    assert "100 rows read" in captured.out and "100 rows): " in captured.out
    assert f"pipeline.map(2) = {hundred.map(2)!r}" in captured.out
    release = hundred(rows, random.Random(7)) / 100
    assert captured.out.rstrip().endswith(f": {release:.2f}")
    assert abs(release - 60.0) < 15  # Laplace(100) on the sum is Laplace(1) on this mean
    assert captured.err == ""


@pytest.mark.parametrize("ages, note", [
    ([0] * 40 + [100] * 60, "the file has 100 rows, 60 more than --rows 40: the release leaves "
                            "out its 60 largest values"),
    ([100] * 30, "the file has 30 rows, 10 fewer than --rows 40: the release adds 10 rows of "
                 "50.0"),
    ([100] * 40, None),
])
def test_a_public_size_resizes_the_file_and_tells_the_curator(ages, note, tmp_path, capsys):
    data = write_ages(tmp_path / "ages.csv", ages)
    assert dp_mean_csv.main([str(data), "--rows", "40", "--seed", "7"]) == 0
    captured = capsys.readouterr()
    assert f"epsilon = pipeline.map(1) = {pipeline().map(1)!r}" in captured.out
    assert "rows read" not in captured.out  # the file's own count is not released
    if len(ages) != SIZE:
        assert f"{len(ages)} rows" not in captured.out
    release = pipeline()(dp_mean_csv.read_column(data, "age"), random.Random(7)) / SIZE
    assert captured.out.rstrip().endswith(f": {release:.2f}")
    if note is None:
        assert captured.err == ""
    else:
        assert captured.err.count("\n") == 1 and note in captured.err
        assert "not released" in captured.err


def test_the_shipped_column_has_dirty_rows_the_pipeline_handles():
    rows = column()
    assert {"", "unknown", "nan", "131"} <= set(rows)
    transformation = exact_sum_transformation()
    assert transformation(rows) == sum(min(float(r), 100.0) for r in rows
                                       if r not in {"", "unknown", "nan"})
    assert pipeline().input_domain.member(rows)


def exact_sum_transformation():
    """The pipeline without its noise: cast, clamp, resize, float sum."""
    from mechanisms.domains import AtomDomain
    from mechanisms.make_cast_default import make_cast_default
    from mechanisms.make_clamp import make_clamp
    from mechanisms.make_resize import make_resize
    from mechanisms.make_sized_bounded_float_checked_sum import (
        make_sized_bounded_float_checked_sum)
    low, high, size = dp_mean_csv.LOWER, dp_mean_csv.UPPER, SIZE
    return (make_cast_default(str, float) >> make_clamp(low, high)
            >> make_resize(size, dp_mean_csv.MIDPOINT, AtomDomain(float, bounds=(low, high)))
            >> make_sized_bounded_float_checked_sum(size, low, high))


def test_the_privacy_map_is_the_chain_of_the_component_maps():
    """One row added or removed: the resize turns it into 2 changed rows (map 2 d_in), the sum
    into at most (2 // 2)(U - L) plus its rounding terms, the Laplace into that over the scale."""
    from mechanisms.make_laplace import make_laplace
    measurement = pipeline()
    sensitivity = exact_sum_transformation().map(1)
    assert sensitivity > dp_mean_csv.UPPER - dp_mean_csv.LOWER  # the sum's rounding term is in
    assert measurement.map(1) == make_laplace(dp_mean_csv.SCALE).map(sensitivity)
    epsilon = Fraction(measurement.map(1))
    assert epsilon >= Fraction(sensitivity) / Fraction(dp_mean_csv.SCALE)  # rounded up, not down
    assert epsilon - 1 < Fraction(1, 10 ** 12)  # the rounding terms cost next to nothing
    assert measurement.check(1, 1.0 + 1e-12) and not measurement.check(1, 1.0)


def test_every_piece_of_the_pipeline_is_a_catalogue_constructor_the_gate_proves():
    names = {e.name for e in builtin_catalogue()}
    assert {"make_cast_default", "make_clamp", "make_resize", "make_sized_bounded_float_checked_sum",
            "make_laplace", "make_chain_tt", "make_chain_mt"} <= names


def sampler(measurement):
    def sample(dataset, n: int, rng: np.random.Generator):
        source = random.Random(int(rng.integers(2 ** 63)))
        return [measurement(dataset, source) for _ in range(n)]
    return sample


def substituted() -> tuple[list[str], list[str]]:
    """Two columns one substitution apart (d_in = 2): a row of 0 becomes a row of 100, the
    largest move of the sum."""
    rows = column()
    return ["0", *rows[1:]], ["100", *rows[1:]]


@pytest.mark.slow  # over 2 s: make test-slow
def test_the_running_pipeline_meets_its_map_on_a_worst_case_pair():
    x, x_prime = substituted()
    audit = PrivacyTester(sampler(pipeline()), samples=3000, alpha=ALPHA, seed=5).audit(
        [Pair(x, x_prime, pipeline().map(2), 2)])
    assert not audit.violations, audit.summary()


@pytest.mark.slow  # over 2 s: make test-slow
def test_the_same_audit_catches_a_pipeline_with_a_quarter_of_the_noise():
    """The control: the claim is the real pipeline's map(2), the noise is scale / 4."""
    claimed = pipeline().map(2)
    under_noised = pipeline(scale=dp_mean_csv.SCALE / 4)
    x, x_prime = substituted()
    audit = PrivacyTester(sampler(under_noised), samples=3000, alpha=ALPHA, seed=5).audit(
        [Pair(x, x_prime, claimed, 2)])
    assert audit.violations, audit.summary()


def bad_input(argv: list[str], capsys) -> str:
    """Run the example on bad input: exit 2 and one line on stderr, which is returned."""
    assert dp_mean_csv.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err and captured.err.startswith("dp_mean_csv: ")
    return captured.err


def test_a_missing_file_is_one_sentence_and_exit_2(tmp_path, capsys):
    missing = tmp_path / "nowhere.csv"
    assert f"{missing} does not exist: give the path of a CSV file" in bad_input([str(missing)],
                                                                                  capsys)


def test_an_unreadable_file_is_one_sentence_and_exit_2(tmp_path, capsys):
    assert "cannot be read as a CSV file (Is a directory)" in bad_input([str(tmp_path)], capsys)
    latin = tmp_path / "latin1.csv"
    latin.write_bytes("id,age\n1,\xe9\n".encode("latin-1"))
    assert "is not UTF-8 text (invalid continuation byte at byte 9)" in bad_input(
        [str(latin)], capsys)


def test_a_missing_column_or_no_rows_is_one_sentence_and_exit_2(tmp_path, capsys):
    assert ("has no column 'height' (its columns: id, age): choose one with --column"
            in bad_input(["--column", "height"], capsys))
    empty = tmp_path / "empty.csv"
    empty.write_text("id,age\n")
    assert "has no data rows" in bad_input([str(empty)], capsys)
    assert dp_mean_csv.main([str(empty), "--rows", "3", "--seed", "1"]) == 0  # a public size: padded


@pytest.mark.parametrize("rows", ["0", "-3", "many"])
def test_rows_must_be_a_positive_whole_number(rows, capsys):
    with pytest.raises(SystemExit) as exit_:
        dp_mean_csv.main(["--rows", rows])
    assert exit_.value.code == 2
    assert f"--rows must be a whole number >= 1, not '{rows}'" in capsys.readouterr().err
