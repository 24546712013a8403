"""README keeps a current catalogue table: one row per catalogue constructor."""

from __future__ import annotations

import re
from pathlib import Path

from obligations.catalogue import builtin_catalogue

README = Path(__file__).parents[1] / "README.md"


def test_the_catalogue_table_has_a_row_for_every_constructor_and_no_other():
    rows = re.findall(r"^\| `(make_\w+)\(", README.read_text(encoding="utf-8"), flags=re.M)
    constructors = [e.name for e in builtin_catalogue() if e.constructor is not None]
    assert sorted(rows) == sorted(constructors)
