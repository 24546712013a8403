"""A differentially private mean of one CSV column, built from catalogue constructors.

The pipeline, on the column's raw strings (one row per person), for a public number of rows N:

    make_cast_default(str, float)                   text -> float; unparsable text -> 0.0
    >> make_clamp(LOWER, UPPER)                     into [LOWER, UPPER]; NaN -> LOWER
    >> make_resize(N, MIDPOINT, ...)                exactly N rows (pad or keep the least)
    >> make_sized_bounded_float_checked_sum(...)    float sum, map with its rounding error terms
    >> make_laplace(SCALE)                          exact Laplace noise on a 2^k grid

Each ``>>`` is ``make_chain_tt`` or ``make_chain_mt``, whose obligations prove that the chained
map bounds the pipeline whenever each component meets its own obligations, which ``dpcert check``
proves. The release divided by N is the DP mean (post-processing costs no privacy). N is public,
and where it comes from decides what the epsilon protects:

* ``--rows N`` (a size known in advance, or estimated privately): N does not depend on the data,
  so adding or removing one person's row costs ``pipeline.map(1)``. A file of another size is
  resized (its largest values left out, or midpoint rows added), and a note on stderr tells the
  data curator so; the note is not part of the release.
* no ``--rows``: N is the file's own row count, and it is published with the release (the mean is
  of every row). Adding or removing a row changes N, which is released as is, so the guarantee is
  for changing one row's value: ``pipeline.map(2)`` (two rows apart in the symmetric distance).

Run: ``python examples/dp_mean_csv.py [examples/data/ages.csv] [--column age] [--rows N]
[--seed S]``. A file that cannot be read, has no such column or no data rows: one sentence on
stderr, exit 2.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from csv_rows import DataError, read_rows
from mechanisms.domains import AtomDomain
from mechanisms.make_cast_default import make_cast_default
from mechanisms.make_clamp import make_clamp
from mechanisms.make_laplace import make_laplace
from mechanisms.make_resize import make_resize
from mechanisms.make_sized_bounded_float_checked_sum import make_sized_bounded_float_checked_sum

DATA = Path(__file__).parent / "data" / "ages.csv"
LOWER, UPPER = 0.0, 100.0
MIDPOINT = (LOWER + UPPER) / 2
SCALE = 100.0
"""Laplace scale of the noisy sum; the epsilon it buys is ``pipeline.map(1)`` (or ``map(2)``)."""
EXIT_BAD_INPUT = 2


def read_column(path: Path, column: str) -> list[str]:
    """The raw strings of ``column``, one per data row (a row too short for it holds "")."""
    return [row[column] for row in read_rows(path, [column], "choose one with --column")]


def make_dp_sum_pipeline(size: int, scale: float = SCALE) -> Any:
    """Strings of one column to a noisy sum of ``size`` clamped values (a Measurement)."""
    rows = AtomDomain(float, bounds=(LOWER, UPPER))
    return (make_cast_default(str, float)
            >> make_clamp(LOWER, UPPER)
            >> make_resize(size, MIDPOINT, rows)
            >> make_sized_bounded_float_checked_sum(size, LOWER, UPPER)
            >> make_laplace(scale))


def resize_note(rows: int, size: int) -> str | None:
    """For the data curator: what resizing a column of ``rows`` rows to the public ``size`` does
    to it; None when the two agree."""
    if rows > size:
        return (f"the file has {rows} rows, {rows - size} more than --rows {size}: the release "
                f"leaves out its {rows - size} largest values (make_resize keeps the least)")
    if rows < size:
        return (f"the file has {rows} rows, {size - rows} fewer than --rows {size}: the release "
                f"adds {size - rows} rows of {MIDPOINT} (make_resize pads with it)")
    return None


def positive_rows(text: str) -> int:
    """``--rows``: a whole number >= 1."""
    try:
        rows = int(text)
    except ValueError:
        rows = 0
    if rows < 1:
        raise argparse.ArgumentTypeError(f"--rows must be a whole number >= 1, not {text!r}")
    return rows


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="?", type=Path, default=DATA)
    parser.add_argument("--column", default="age")
    parser.add_argument("--rows", type=positive_rows, default=None, metavar="N",
                        help="the public number of rows (default: the file's row count, which "
                             "is then published with the release)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed the noise (for a reproducible demonstration only: a seeded "
                             "release is not private)")
    return parser


def public_size(path: Path, rows: int, declared: int | None) -> int:
    """The public number of rows: ``--rows`` if given, else the file's own ``rows``."""
    if declared is None and rows == 0:
        raise DataError(path, "has no data rows: give a file with at least one row, or a public "
                              "size with --rows N")
    return declared if declared is not None else rows


def announce(arguments: argparse.Namespace, rows: int, size: int, pipeline: Any) -> None:
    """Say what is released and what epsilon it costs (stdout); with ``--rows``, tell the curator
    how the file was resized to it (stderr, not part of the release)."""
    if arguments.rows is None:
        print(f"{size} rows read from {arguments.csv}, column {arguments.column!r} (the row "
              "count is public: it is released as is; --rows N fixes a public size instead)")
        print("privacy: with the row count public, changing one row costs epsilon = "
              f"pipeline.map(2) = {pipeline.map(2)!r}")
        return
    note = resize_note(rows, size)
    if note:
        print(f"dp_mean_csv: note for the data curator (not released): {note}", file=sys.stderr)
    print(f"column {arguments.column!r} of {arguments.csv}, at the public size --rows {size}")
    print(f"privacy: one row added or removed costs epsilon = pipeline.map(1) = "
          f"{pipeline.map(1)!r}")


def main(argv: list[str] | None = None) -> int:
    """Print the DP mean of the column; the exit code (2 for a file that cannot be used)."""
    arguments = parser().parse_args(argv)
    try:
        column = read_column(arguments.csv, arguments.column)
        size = public_size(arguments.csv, len(column), arguments.rows)
    except DataError as error:
        print(f"dp_mean_csv: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    pipeline = make_dp_sum_pipeline(size)
    announce(arguments, len(column), size, pipeline)
    rng = random.Random(arguments.seed) if arguments.seed is not None else None
    noisy_sum = pipeline(column, rng)
    print(f"DP mean of {arguments.column} (clamped to [{LOWER}, {UPPER}], {size} rows): "
          f"{noisy_sum / size:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
