"""The outsiders' second round (tests/outsiders_new): new mechanisms, not variants of catalogue
constructors, written from README and the public API only. Wrong ones carry a witness that runs
the real code and asserts the violation; right ones an exact check. This runs them; the
checker's verdicts are scored by ``python -m checker.corpus tests/outsiders_new``
(``tests/outsiders_new/RESULTS.md``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # several seconds each: make test-slow

ROOT = Path(__file__).resolve().parent / "outsiders_new"
WRONG = sorted(p for p in (ROOT / "wrong").glob("*.py") if not p.name.startswith("_"))
RIGHT = sorted(p for p in (ROOT / "right").glob("*.py") if not p.name.startswith("_"))


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


@pytest.mark.parametrize("path", WRONG, ids=lambda p: p.stem)
def test_wrong_mechanism_witness(path: Path) -> None:
    summary = load(path).witness()
    assert isinstance(summary, str) and summary


@pytest.mark.parametrize("path", RIGHT, ids=lambda p: p.stem)
def test_right_mechanism_check(path: Path) -> None:
    summary = load(path).check()
    assert isinstance(summary, str) and summary


def test_the_round_covers_the_three_families_on_both_sides() -> None:
    assert len(WRONG) >= 6 and len(RIGHT) >= 6 and len(WRONG) + len(RIGHT) >= 14
