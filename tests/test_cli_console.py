"""``dpcert`` in a CI log: the width follows ``COLUMNS`` (wide enough for everything when it is not
set), no obligation id is ever cut, and code (counterexamples, reproducers) is never wrapped."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from checker.cli import main

TESTS = Path(__file__).resolve().parent

NAME = "make_a_mechanism_with_a_rather_long_name"
PREFIX = "a_rather_long_obligation_prefix_that_goes_on.number_"
"""Four ids that differ only at their end: cut short, their rows read alike."""
CITES = ("A. Author and B. Author, A Long Title of a Paper on Differential Privacy and Its "
         "Accounting, 2024, Theorem 12")
LONG_IDS = (
    "import z3\n"
    "from obligations.base import Entry, Kind, Obligation, Z3Goal\n"
    "def goals():\n"
    "    x = z3.Int('x')\n"
    "    return [Z3Goal('x + 0 is x', x + 0 == x, [x >= 0])]\n"
    f"MECHANISMS = [Entry({NAME!r}, None, tuple(\n"
    f"    Obligation({PREFIX!r} + str(i), Kind.LEMMA, 'x', 'x', goals, cites=({CITES!r},))\n"
    "    for i in range(4)))]\n")
LABEL = f"proved (cites {CITES})"


def check(argv: list[str], capsys) -> tuple[int, str]:
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out


def table_rows(out: str) -> list[str]:
    """The lines of the ``dpcert check`` table: those before the summary ``N obligations: ...``."""
    lines = out.splitlines()
    end = next(i for i, line in enumerate(lines) if re.match(r"\d+ obligations: ", line))
    return lines[:end]


@pytest.fixture
def long_ids(tmp_path) -> str:
    module = tmp_path / "long_ids.py"
    module.write_text(LONG_IDS)
    return str(module)


def test_off_a_terminal_without_columns_nothing_is_cut_or_wrapped(long_ids, capsys, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out = check([long_ids], capsys)
    assert code == 0, out
    rows = [line for line in table_rows(out) if PREFIX in line]
    assert len(rows) == 4
    for i, row in enumerate(rows):
        assert f"{PREFIX}{i} " in row and LABEL in row


@pytest.mark.parametrize("columns", [170, 140, 60])
def test_columns_is_honoured_and_ids_are_never_cut(columns, long_ids, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", str(columns))
    code, out = check([long_ids], capsys)
    assert code == 0, out
    rows = table_rows(out)
    for i in range(4):
        assert sum(f"{PREFIX}{i} " in row for row in rows) == 1, out
    assert LABEL not in out  # the label is wrapped to the width, the ids are not
    widest = max(len(row) for row in rows)
    assert "…" not in out
    if columns >= 140:  # room for the ids: the table takes the width, the long label wraps in it
        assert widest == columns, out
    else:  # the ids and the name alone need more than 60 columns: the table is wider, not cut
        assert widest > 60, out


def reproducers(out: str) -> list[str]:
    """Each ``reproduce:`` snippet printed in ``out``, dedented: the lines after a line ending in
    ``reproduce:`` that are indented deeper than it."""
    snippets, lines = [], out.splitlines()
    for start, line in enumerate(lines):
        if not line.rstrip().endswith("reproduce:"):
            continue
        depth = len(line) - len(line.lstrip())
        body = []
        for following in lines[start + 1:]:
            if not following.strip() or len(following) - len(following.lstrip()) <= depth:
                break
            body.append(following)
        snippets.append(textwrap.dedent("\n".join(body)))
    return snippets


LAPLACE_TWIN = (
    "from tests.twins.make_laplace import MECHANISMS as TWINS\n"
    "MECHANISMS = [e for e in TWINS if e.name == 'make_laplace_no_relaxation']\n")
"""A twin refuted with reproducers whose lines run to hundreds of characters (a map evaluated at
an exact ``Fraction`` with a 300-digit denominator): wrapped at any width, they no longer
compile."""


def test_reproducers_copied_from_a_narrow_log_compile(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("COLUMNS", "60")
    module, results = tmp_path / "laplace_twin.py", tmp_path / "results.json"
    module.write_text(LAPLACE_TWIN)
    code, out = check([str(module), "--jobs", "2", "--json", str(results)], capsys)
    assert code == 1
    snippets = reproducers(out)
    assert snippets and max(len(line) for s in snippets for line in s.splitlines()) > 300
    for snippet in snippets:
        compile(snippet, "<reproducer>", "exec")
    ids = [o["id"] for m in json.loads(results.read_text())["mechanisms"]
           for o in m["obligations"]]
    rows = table_rows(out)
    assert "laplace_no_relaxation.privacy" in ids
    assert all(sum(f" {i} " in row for row in rows) == 1 for i in ids)
