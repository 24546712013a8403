"""README keeps a current catalogue table: one row per catalogue constructor."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from obligations.catalogue import builtin_catalogue

README = Path(__file__).parents[1] / "README.md"


def test_the_catalogue_table_has_a_row_for_every_constructor_and_no_other():
    rows = re.findall(r"^\| `(make_\w+)\(", README.read_text(encoding="utf-8"), flags=re.M)
    constructors = [e.name for e in builtin_catalogue() if e.constructor is not None]
    assert sorted(rows) == sorted(constructors)


def check_guide_module(name: str, folder: Path) -> int:
    """``dpcert check`` on the README's module ``# name`` (a ```python block), written to
    ``folder``: its exit code."""
    from checker.cli import main
    source = re.search(rf"```python\n# {re.escape(name)}\n(.*?)```",
                       README.read_text(encoding="utf-8"), flags=re.S).group(1)
    (folder / name).write_text(source)
    return main(["check", str(folder / name)])


@pytest.mark.slow  # over 2 s: make test-slow
def test_the_composed_constructor_of_the_guide_passes_the_gate(tmp_path, capsys):
    assert check_guide_module("noisy_sum.py", tmp_path) == 0
    assert "0 not proved" in capsys.readouterr().out


@pytest.mark.slow  # over 2 s: make test-slow
def test_the_halved_clamp_of_the_guide_is_refuted_with_no_claim(tmp_path, capsys):
    assert check_guide_module("my_clamp.py", tmp_path) == 1
    out = capsys.readouterr().out
    assert "make_clamp_half stability: refuted (confirmed on the running code)" in out
    assert "at distance 1 > map(1) = 0.5" in out and "4 obligations" in out  # make_clamp's


@pytest.mark.slow  # over 2 s: make test-slow
def test_the_counter_refactor_of_the_guide_inherits_its_reference_s_theorems(tmp_path, capsys):
    assert check_guide_module("counter.py", tmp_path) == 0
    assert "6 proved by the kernel's rules" in capsys.readouterr().out


def _lines(package: str) -> int:
    folder = Path(__file__).parents[1] / "obligations" / package
    return sum(len(f.read_text().splitlines()) for f in folder.glob("*.py"))


def test_the_kernel_and_refuters_line_counts_are_current():
    text = README.read_text(encoding="utf-8")
    assert f"`obligations/kernel/` ({_lines('kernel')} lines," in text
    assert f"(`obligations/refuters/`, {_lines('refuters')} lines," in text
