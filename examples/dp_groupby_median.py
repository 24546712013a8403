"""A differentially private release of a table: a group-by count with key selection, and a median.

One person is one row of a CSV file with a header (``id,age,city``). The release is two queries
on the same rows, composed:

    counts: make_select_column("city") >> make_count_by(str)
            >> make_laplace_threshold(str, COUNT_SCALE, THRESHOLD)
            a noisy count per city, released only for the cities whose noisy count reaches
            THRESHOLD: which cities appear is itself private (stability-based key selection)
    median: make_select_column("age") >> make_cast_default(str, int)
            >> make_private_quantile(AGES, 0.5, MEDIAN_SCALE), made (epsilon, 0)-DP by
            make_pureDP_to_approxDP
    release = make_approxDP_composition([counts, median])

Each ``>>`` is ``make_chain_tt`` or ``make_chain_mt``; ``dpcert check`` proves the obligations of
every constructor used, so the composed map bounds the release. Adding or removing one person's
row is ``d_in = 1``, and ``(epsilon, delta) = release.map(1)`` is printed from the chained maps,
never from a formula written here. ``--audit`` then tests that claim statistically on a worst-case
pair (:func:`worst_case_pair`): a small table and the same table with one more person, from a city
no one else lives in, of an age that moves the median.

Run: ``python examples/dp_groupby_median.py [examples/data/people.csv] [--seed S] [--audit]``.
A file that cannot be read, lacks a column or has no data rows: one sentence on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from csv_rows import DataError, read_rows
from mechanisms.make_approxDP_composition import make_approxDP_composition
from mechanisms.make_cast_default import make_cast_default
from mechanisms.make_count_by import make_count_by
from mechanisms.make_laplace_threshold import make_laplace_threshold
from mechanisms.make_private_quantile import make_private_quantile
from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP
from mechanisms.make_select_column import make_select_column

DATA = Path(__file__).parent / "data" / "people.csv"
COLUMNS = ("id", "age", "city")
COUNT_SCALE = 2.0
"""Discrete Laplace scale of each city's count."""
THRESHOLD = 30
"""A city is released when its noisy count is at least this."""
AGES = list(range(0, 101, 5))
"""The median's candidates: 0, 5, ..., 100 (public, chosen without looking at the data)."""
MEDIAN_SCALE = 2.0
"""Exponential-mechanism scale of the median, in rows."""
EXIT_BAD_INPUT = 2


def read_table(path: Path) -> list[tuple[str, ...]]:
    """The data rows as tuples of strings in the order of :data:`COLUMNS` (a row too short for a
    column holds "")."""
    rows = read_rows(path, list(COLUMNS), f"the release needs {', '.join(COLUMNS)}")
    if not rows:
        raise DataError(path, "has no data rows: give a file with at least one row")
    return [tuple(row[c] or "" for c in COLUMNS) for row in rows]


def make_counts(count_scale: float = COUNT_SCALE, threshold: int = THRESHOLD) -> Any:
    """Records to the noisy counts of the cities whose noisy count reaches ``threshold``."""
    return (make_select_column("city", COLUMNS) >> make_count_by(str)
            >> make_laplace_threshold(str, count_scale, threshold))


def make_median(median_scale: float = MEDIAN_SCALE) -> Any:
    """Records to the index in :data:`AGES` of the DP median age, as (epsilon, 0)-DP."""
    return make_pureDP_to_approxDP(make_select_column("age", COLUMNS)
                                   >> make_cast_default(str, int)
                                   >> make_private_quantile(AGES, 0.5, median_scale))


def make_release() -> Any:
    """Records to ``(noisy counts of the selected cities, index of the DP median in AGES)``."""
    return make_approxDP_composition([make_counts(), make_median()])


def worst_case_pair(release: Any) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    """Two tables one person apart (``d_in = 1``) where the release differs most: ten people in
    one city, aged around the middle of AGES, and the same with an eleventh person from a city
    no one else lives in (its key exists on one side only: the threshold's delta) who is old
    enough to move the median to the next candidate."""
    x = tuple((str(i), str(age), "Lyon") for i, age in enumerate(
        (40, 40, 45, 45, 50, 50, 55, 55, 60, 60)))
    x_prime = x + (("99", "100", "Oslo"),)
    assert release.input_metric.distance(list(x), list(x_prime)) == 1
    return x, x_prime


def audit_release(release: Any, samples: int, seed: int) -> Any:
    """The statistical audit of ``release.map(1)`` on :func:`worst_case_pair` (false-alarm
    probability at most 1e-3; sampling cannot prove privacy). The release draws from Python's
    global generator, which the auditor seeds, so an audit is reproducible from its seed."""
    from checker.audit import audit
    epsilon, delta = release.map(1)
    x, x_prime = worst_case_pair(release)
    return audit(lambda table: _flat(release(list(table), random)), float(epsilon),
                 pairs=[(x, x_prime)], samples=samples, seed=seed, delta=float(delta))


def _flat(output: tuple[dict[str, int], int]) -> tuple[Any, ...]:
    """An output as a tuple the audit's event families read: the sorted released cities with
    their counts, then the median's index."""
    counts, index = output
    return (*sorted(counts.items()), index)


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="?", type=Path, default=DATA)
    parser.add_argument("--seed", type=int, default=None,
                        help="seed the noise (for a reproducible demonstration only: a seeded "
                             "release is not private)")
    parser.add_argument("--audit", type=int, nargs="?", const=4000, default=None,
                        metavar="RUNS", help="also audit the claim on a worst-case pair, with "
                                             "RUNS runs per input (default 4000)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Print the release and its (epsilon, delta); the exit code (2 for a file that cannot be
    used, 1 if the audit finds a violation)."""
    arguments = parser().parse_args(argv)
    try:
        table = read_table(arguments.csv)
    except DataError as error:
        print(f"dp_groupby_median: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    release = make_release()
    epsilon, delta = release.map(1)
    print(f"{len(table)} people read from {arguments.csv}")
    print(f"privacy: one person added or removed costs (epsilon, delta) = release.map(1) = "
          f"({epsilon!r}, {delta!r})")
    rng = random.Random(arguments.seed) if arguments.seed is not None else None
    counts, index = release(table, rng)
    print(f"DP count per city (released when >= {THRESHOLD}): "
          + (", ".join(f"{city} {count}" for city, count in sorted(counts.items()))
             or "no city reaches the threshold"))
    print(f"DP median age (candidates {AGES[0]}, {AGES[1]}, ..., {AGES[-1]}): {AGES[index]}")
    if arguments.audit is None:
        return 0
    result = audit_release(release, arguments.audit, arguments.seed or 0)
    print(f"audit on a worst-case pair: {result.summary()}")
    return 1 if result.verdict == "violation" else 0


if __name__ == "__main__":
    raise SystemExit(main())
