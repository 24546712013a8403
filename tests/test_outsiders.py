"""The outsiders' corpus (tests/outsiders): wrong variants with executable witnesses of their
violation, correct-but-different variants with exact checks, and the corpus's size and coverage.

This runs the witnesses and checks only; the checker's verdicts on the corpus (``dpcert check``
on each module) are recorded in ``tests/outsiders/BASELINE.md`` by a separate runner.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from obligations.base import Entry

ROOT = Path(__file__).resolve().parent / "outsiders"
WRONG = sorted((ROOT / "wrong").glob("make_*.py"))
RIGHT = sorted((ROOT / "right").glob("make_*.py"))
HOLE_CLASSES = set(range(1, 15))
SLOW = {"make_laplace_threshold__skip_nonpositive", "make_is_equal__nan_guard",
        "make_quantile_score_candidates__above_count", "make_laplace_threshold__untightened_map",
        "make_noisy_top_k__reject_chosen", "make_gaussian_threshold__strict_release",
        "make_quantile_score_candidates__nan_rows"}
"""Exact checks of more than 1.5 s each (make test-slow runs them; make test has a 3-minute
budget on 2 cores)."""


def cases(paths: list[Path]) -> list:
    return [pytest.param(p, id=p.stem, marks=[pytest.mark.slow] if p.stem in SLOW else [])
            for p in paths]


def load(path: Path):
    spec = importlib.util.spec_from_file_location(f"outsiders_{path.parent.name}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_CACHE: dict[Path, object] = {}


def module(path: Path):
    if path not in _CACHE:
        _CACHE[path] = load(path)
    return _CACHE[path]


def _well_formed(m, path: Path) -> None:
    assert m.__doc__ and len(m.__doc__.strip()) > 40, f"{path.name}: docstring"
    assert m.CONSTRUCTOR.startswith("make_") and path.stem.startswith(m.CONSTRUCTOR + "__")
    assert isinstance(m.MECHANISMS, list) and m.MECHANISMS
    for entry in m.MECHANISMS:  # obligations optional: the kernel's statements are checked
        assert isinstance(entry, Entry) and entry.constructor is not None


@pytest.mark.parametrize("path", cases(WRONG))
def test_wrong_variant_witness(path: Path) -> None:
    m = module(path)
    _well_formed(m, path)
    assert isinstance(m.CLASSES, tuple) and set(m.CLASSES) <= HOLE_CLASSES
    assert "Hole classes" in m.__doc__
    summary = m.witness()
    assert isinstance(summary, str) and summary


@pytest.mark.parametrize("path", cases(RIGHT))
def test_right_variant_check(path: Path) -> None:
    m = module(path)
    _well_formed(m, path)
    summary = m.check()
    assert isinstance(summary, str) and summary


def test_corpus_size_and_coverage() -> None:
    assert len(WRONG) >= 40
    assert len(RIGHT) >= 20
    wrong = [module(p) for p in WRONG]
    right = [module(p) for p in RIGHT]
    assert len({m.CONSTRUCTOR for m in wrong}) >= 15
    covered = set().union(*(set(m.CLASSES) for m in wrong))
    assert HOLE_CLASSES <= covered, sorted(HOLE_CLASSES - covered)
    for hole in (1, 2, 4, 7, 11, 12, 13, 14):
        assert sum(hole in m.CLASSES for m in wrong) >= 2, hole
    names = [e.name for m in wrong + right for e in m.MECHANISMS]
    prefixes = [o.id.rsplit(".", 1)[0] if hasattr(o, "id") else None
                for m in wrong + right for e in m.MECHANISMS for o in e.obligations[:1]]
    assert len(names) == len(set(names)), "mechanism names must be unique across the corpus"
    assert len(prefixes) == len(set(prefixes)) or None in prefixes
