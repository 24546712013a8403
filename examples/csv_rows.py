"""Reading the examples' CSV files: the data rows, or one sentence saying why the file cannot be
used (a file that does not exist, is not UTF-8 text, is not CSV, or lacks a column)."""

from __future__ import annotations

import csv
from pathlib import Path


class DataError(Exception):
    """The CSV at ``path`` cannot be used; ``problem`` says why and what to do."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path} {problem}")
        self.path, self.problem = path, problem


def read_rows(path: Path, needed: list[str], hint: str) -> list[dict[str, str]]:
    """The data rows of the CSV at ``path`` (a row too short for a column holds ""), which must
    have the columns ``needed``; ``hint`` ends the sentence when one is missing."""
    try:
        with path.open(newline="", encoding="utf-8") as file:
            reader = csv.DictReader(file, restval="")
            rows = list(reader)
            columns = list(reader.fieldnames or [])
    except FileNotFoundError:
        raise DataError(path, "does not exist: give the path of a CSV file with a header "
                              "row") from None
    except UnicodeDecodeError as error:
        raise DataError(path, f"is not UTF-8 text ({error.reason} at byte {error.start}): save "
                              "it as a UTF-8 CSV file") from None
    except (OSError, csv.Error) as error:
        reason = error.strerror if isinstance(error, OSError) else str(error)
        raise DataError(path, f"cannot be read as a CSV file ({reason}): give the path of a "
                              "readable CSV file with a header row") from None
    missing = [c for c in needed if c not in columns]
    if missing:
        raise DataError(path, f"has no column {', '.join(map(repr, missing))} (its columns: "
                              f"{', '.join(columns)}): {hint}")
    return rows
