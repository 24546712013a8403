"""The outsiders' second and third rounds (tests/outsiders_new, tests/outsiders_round3): new
mechanisms, not variants of catalogue constructors, written from README and the public API only.
Wrong ones carry a witness that runs the real code and asserts the violation; right ones an exact
check. This runs them; the checker's verdicts are scored by ``python -m checker.corpus`` on each
folder (its ``RESULTS.md``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # several seconds each: make test-slow

ROUNDS = [Path(__file__).resolve().parent / name for name in ("outsiders_new", "outsiders_round3")]
"""The second and third rounds: new mechanisms, held out."""
WRONG = sorted(p for root in ROUNDS for p in (root / "wrong").glob("*.py")
               if not p.name.startswith("_"))
RIGHT = sorted(p for root in ROUNDS for p in (root / "right").glob("*.py")
               if not p.name.startswith("_"))


def load(path: Path):
    sys.path.insert(0, str(path.parent))  # their examples import the module by its stem
    try:
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(path.parent))


@pytest.mark.parametrize("path", WRONG, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_wrong_mechanism_witness(path: Path) -> None:
    summary = load(path).witness()
    assert isinstance(summary, str) and summary


@pytest.mark.parametrize("path", RIGHT, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_right_mechanism_check(path: Path) -> None:
    summary = load(path).check()
    assert isinstance(summary, str) and summary


@pytest.mark.parametrize("root", ROUNDS, ids=lambda r: r.name)
def test_each_round_has_at_least_ten_mechanisms_on_both_sides(root: Path) -> None:
    wrong = [p for p in WRONG if p.parent.parent == root]
    right = [p for p in RIGHT if p.parent.parent == root]
    assert len(wrong) >= 10 and len(right) >= 10
