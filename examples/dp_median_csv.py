"""A differentially private median of one CSV column, built from catalogue constructors.

The pipeline, on the column's raw strings (one row per person, any number of rows):

    make_cast_default(str, float)                   text -> float; unparsable text -> 0.0
    >> make_clamp(LOWER, UPPER)                     into [LOWER, UPPER]; NaN -> LOWER
    >> make_private_quantile(CANDIDATES, 0.5, SCALE, rows)
                                                    scores of the candidates 0, 1, ..., 100 and
                                                    the exponential mechanism over them

Each ``>>`` is ``make_chain_tt`` or ``make_chain_mt``, whose obligations prove that the chained
map bounds the pipeline whenever each component meets its own obligations, which ``dpcert check``
proves. The release is the index of a candidate; the candidate itself is printed (post-processing
costs no privacy). No row count is needed or released: adding or removing one person's row costs
``pipeline.map(1)``, ``2 max(alpha', 1 - alpha') / SCALE = 1 / SCALE`` for the median.

Run: ``python examples/dp_median_csv.py [examples/data/ages.csv] [--column age] [--seed S]``. A
file that cannot be read or has no such column: one sentence on stderr, exit 2. A file with no
data rows is a valid (empty) dataset: its release is still private, and close to uniform.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from mechanisms.domains import AtomDomain
from mechanisms.make_cast_default import make_cast_default
from mechanisms.make_clamp import make_clamp
from mechanisms.make_private_quantile import make_private_quantile

EXAMPLES = Path(__file__).parent
if str(EXAMPLES) not in sys.path:
    sys.path.insert(0, str(EXAMPLES))
from dp_mean_csv import DataError, read_column  # noqa: E402  (the same CSV reading)

DATA = EXAMPLES / "data" / "ages.csv"
LOWER, UPPER = 0.0, 100.0
CANDIDATES = [float(c) for c in range(int(LOWER), int(UPPER) + 1)]
"""The public candidates: every whole age from LOWER to UPPER."""
ALPHA = 0.5
SCALE = 1.0
"""Noise scale in rows; the epsilon it buys is ``pipeline.map(1)``."""
EXIT_BAD_INPUT = 2


def make_dp_median_pipeline(scale: float = SCALE, alpha: float = ALPHA) -> Any:
    """Strings of one column to the index of a candidate near the alpha-quantile (a Measurement)."""
    rows = AtomDomain(float, bounds=(LOWER, UPPER))
    return (make_cast_default(str, float)
            >> make_clamp(LOWER, UPPER)
            >> make_private_quantile(CANDIDATES, alpha, scale, rows))


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="?", type=Path, default=DATA)
    parser.add_argument("--column", default="age")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed the noise (for a reproducible demonstration only: a seeded "
                             "release is not private)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Print the DP median of the column; the exit code (2 for a file that cannot be used)."""
    arguments = parser().parse_args(argv)
    try:
        column = read_column(arguments.csv, arguments.column)
    except DataError as error:
        print(f"dp_median_csv: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    pipeline = make_dp_median_pipeline()
    print(f"{len(column)} rows read from {arguments.csv}, column {arguments.column!r} (the row "
          "count is not used)")
    print(f"privacy: one row added or removed costs epsilon = pipeline.map(1) = "
          f"{pipeline.map(1)!r}")
    rng = random.Random(arguments.seed) if arguments.seed is not None else None
    index = pipeline(column, rng)
    print(f"DP median of {arguments.column} (clamped to [{LOWER}, {UPPER}], candidates "
          f"{CANDIDATES[0]:g}, {CANDIDATES[1]:g}, ..., {CANDIDATES[-1]:g}): "
          f"{CANDIDATES[index]:g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
