"""``dpcert`` in a CI log: the width follows ``COLUMNS`` (wide enough for everything when it is not
set), no obligation id is ever cut, and code (counterexamples, reproducers) is never wrapped."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
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
"""A twin refuted with reproducers whose lines are twice as long as a 60-column log."""


def json_reproducers(results: Path) -> list[str]:
    """The ``reproduce:`` snippets of the bug reports in a ``--json`` document, as written."""
    document = json.loads(results.read_text())
    return [snippet for m in document["mechanisms"] for o in m["obligations"]
            for g in o["goals"] if g["report"] for snippet in reproducers(g["report"])]


@pytest.mark.slow  # over 2 s: make test-slow
def test_reproducers_copied_from_a_narrow_log_compile(tmp_path):
    """In a process of its own, as a CI job runs it: Z3 inside a test process that already
    decided many goals can take past the time limit on this one."""
    module, results = tmp_path / "laplace_twin.py", tmp_path / "results.json"
    module.write_text(LAPLACE_TWIN)
    run = subprocess.run([sys.executable, "-m", "checker", "check", str(module), "--jobs", "2",
                          "--json", str(results)], cwd=TESTS.parent, capture_output=True,
                         text=True, env={**os.environ, "COLUMNS": "60"}, check=False)
    code, out = run.returncode, run.stdout
    assert code == 1
    snippets = reproducers(out)
    assert snippets, out  # the twin's refutation printed a reproducer
    assert snippets == json_reproducers(results)  # each line printed as the replay wrote it
    assert max(len(line) for s in snippets for line in s.splitlines()) > 2 * 60
    for snippet in snippets:
        compile(snippet, "<reproducer>", "exec")
    ids = [o["id"] for m in json.loads(results.read_text())["mechanisms"]
           for o in m["obligations"]]
    rows = table_rows(out)
    assert "laplace_no_relaxation.privacy" in ids
    assert all(sum(f" {i} " in row for row in rows) == 1 for i in ids)


BIG = 7 ** 500
LONG_LINE = (
    "from obligations.base import ComputedGoal, Decision, Entry, Kind, Obligation, Replay\n"
    "REPORT = 'VIOLATION: x too big\\n  reproduce:\\n    x = ' + str(7 ** 500) + "
    "'\\n    assert x < 10'\n"
    "def goals():\n"
    "    return [ComputedGoal('x is small', 'sympy', lambda: Decision(False, {'x': 1}),\n"
    "                         lambda model: Replay(True, REPORT))]\n"
    "MECHANISMS = [Entry('long_line', None, (Obligation('long_line.small', Kind.LEMMA, 'x', 'x',"
    " goals),))]\n")
"""A refutation whose reproducer holds a 400-digit integer literal: a line no width fits."""


@pytest.mark.parametrize("columns", [None, "60"])
def test_a_reproducer_line_longer_than_any_width_is_printed_whole(columns, tmp_path, capsys,
                                                                   monkeypatch):
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    module = tmp_path / "long_line.py"
    module.write_text(LONG_LINE)
    code, out = check([str(module)], capsys)
    assert code == 1
    [snippet] = reproducers(out)
    assert snippet == f"x = {BIG}\nassert x < 10"
    compile(snippet, "<reproducer>", "exec")
