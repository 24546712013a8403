"""A differentially private mean of one CSV column, built from catalogue constructors.

The pipeline, on the column's raw strings (one row per person):

    make_cast_default(str, float)                   text -> float; unparsable text -> 0.0
    >> make_clamp(LOWER, UPPER)                     into [LOWER, UPPER]; NaN -> LOWER
    >> make_resize(SIZE, MIDPOINT, ...)             exactly SIZE rows (pad or keep the least)
    >> make_sized_bounded_float_checked_sum(...)    float sum, map with its rounding error terms
    >> make_laplace(SCALE)                          exact Laplace noise on a 2^k grid

Each ``>>`` is ``make_chain_tt`` or ``make_chain_mt``, whose obligations prove that the chained
map bounds the pipeline whenever each component meets its own obligations, which ``dpcert check``
proves. The privacy map of the whole is therefore ``pipeline.map(1)``: the epsilon spent when one
person's row is added or removed. The release divided by the public ``SIZE`` is the DP mean
(post-processing costs no privacy).

Run: ``python examples/dp_mean_csv.py [examples/data/ages.csv] [--column age] [--seed S]``.
"""

from __future__ import annotations

import argparse
import csv
import random
from pathlib import Path
from typing import Any

from mechanisms.domains import AtomDomain
from mechanisms.make_cast_default import make_cast_default
from mechanisms.make_clamp import make_clamp
from mechanisms.make_laplace import make_laplace
from mechanisms.make_resize import make_resize
from mechanisms.make_sized_bounded_float_checked_sum import make_sized_bounded_float_checked_sum

DATA = Path(__file__).parent / "data" / "ages.csv"
LOWER, UPPER = 0.0, 100.0
MIDPOINT = (LOWER + UPPER) / 2
SIZE = 40
"""The public number of rows the release assumes (the data's size is not published)."""
SCALE = 100.0
"""Laplace scale of the noisy sum; the epsilon it buys is ``pipeline.map(1)``."""


def read_column(path: Path, column: str) -> list[str]:
    """The raw strings of ``column``, one per data row."""
    with path.open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    if rows and column not in rows[0]:
        raise SystemExit(f"{path} has no column {column!r}; its columns are {list(rows[0])}")
    return [row[column] for row in rows]


def make_dp_sum_pipeline(size: int = SIZE, scale: float = SCALE) -> Any:
    """Strings of one column to a noisy sum of ``size`` clamped values (a Measurement)."""
    rows = AtomDomain(float, bounds=(LOWER, UPPER))
    return (make_cast_default(str, float)
            >> make_clamp(LOWER, UPPER)
            >> make_resize(size, MIDPOINT, rows)
            >> make_sized_bounded_float_checked_sum(size, LOWER, UPPER)
            >> make_laplace(scale))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="?", type=Path, default=DATA)
    parser.add_argument("--column", default="age")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed the noise (for a reproducible demonstration only: a seeded "
                             "release is not private)")
    arguments = parser.parse_args(argv)
    column = read_column(arguments.csv, arguments.column)
    pipeline = make_dp_sum_pipeline()
    epsilon = pipeline.map(1)
    rng = random.Random(arguments.seed) if arguments.seed is not None else None
    noisy_sum = pipeline(column, rng)
    print(f"{len(column)} rows read from {arguments.csv}, column {arguments.column!r}")
    print(f"privacy: one row added or removed costs epsilon = pipeline.map(1) = {epsilon!r}")
    print(f"DP mean of {arguments.column} (clamped to [{LOWER}, {UPPER}], {SIZE} rows): "
          f"{noisy_sum / SIZE:.2f}")


if __name__ == "__main__":
    main()
