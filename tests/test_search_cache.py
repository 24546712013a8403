"""The cache of refutation searches that found nothing: an identical search is answered from
it, anything else runs the search again, and a refutation is never recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import checker.search_cache as search_cache
from checker.cli import main
from checker.gate import Options, run_gate
from checker.loading import catalogue_entry
from checker.search_cache import SearchCache, named_by_code
from mechanisms.make_clamp import make_clamp
from mechanisms.core import Constructor
from tests.test_kernel import ZERO_ONE_RR


@pytest.fixture
def searched(monkeypatch):
    """The statements whose search really ran, in order."""
    calls = []
    real = search_cache.propose_refutation

    def spy(statement, *arguments, **options):
        calls.append(statement)
        return real(statement, *arguments, **options)
    monkeypatch.setattr(search_cache, "propose_refutation", spy)
    return calls


def _gate(folder: Path):
    """The gate on the discrete Laplace, whose privacy theorem is bounded at scale 0 (the map
    checked at five ``d_in``), so that its privacy statement is searched."""
    return run_gate([catalogue_entry("make_discrete_laplace")],
                    Options(search_cache=str(folder)), whole_catalogue=False)


def test_a_search_that_found_nothing_is_not_run_again(tmp_path, searched):
    first = _gate(tmp_path)
    assert searched and all(not s.cached for s in first.searches.values())
    assert len(list((tmp_path / "search").glob("*.json"))) == len(first.searches)
    searched.clear()
    second = _gate(tmp_path)
    assert searched == []
    assert second.searches.keys() == first.searches.keys()
    assert all(s.cached for s in second.searches.values())
    assert [(c.statement, c.proved, c.theorem.rule) for _, c in second.statements] == \
        [(c.statement, c.proved, c.theorem.rule) for _, c in first.statements]
    assert second.passed


def test_changed_sources_run_every_search_again(tmp_path, searched, monkeypatch):
    first = _gate(tmp_path)
    monkeypatch.setattr(search_cache, "_sources_digest", lambda: "one file changed")
    searched.clear()
    again = _gate(tmp_path)
    assert len(searched) == len(first.searches)
    assert not any(s.cached for s in again.searches.values())


def test_an_unreadable_record_is_not_an_answer(tmp_path, searched):
    _gate(tmp_path)
    for record in (tmp_path / "search").glob("*.json"):
        record.write_text("{not json")
    searched.clear()
    again = _gate(tmp_path)
    assert len(searched) == len(again.searches)
    assert all(json.loads(r.read_text())["claim"] for r in (tmp_path / "search").glob("*.json"))


@pytest.mark.slow  # over 2 s (two runs of the gate): make test-slow
def test_a_refutation_is_never_recorded(tmp_path, monkeypatch, capsys):
    """The wrong twin of the 0/1 randomized response (its output domain ``[0, 0]``) is refuted
    on every run, and only the statements whose search found nothing are recorded."""
    (tmp_path / "variant.py").write_text(ZERO_ONE_RR.replace("UPPER", "0"))
    monkeypatch.syspath_prepend(str(tmp_path))
    cache, report = tmp_path / "cache", tmp_path / "report.json"
    for _ in range(2):
        assert main(["check", str(tmp_path / "variant.py"), "--cache-dir", str(cache),
                     "--json", str(report)]) == 1
        statements = json.loads(report.read_text())["mechanisms"][0]["statements"]
        refuted = {s["claim"] for s in statements if s["refuted"]}
        assert refuted and not any(s["search"]["cached"] for s in statements if s["refuted"])
    recorded = {json.loads(r.read_text())["claim"] for r in (cache / "search").glob("*.json")}
    assert recorded and not recorded & refuted


def _build_in_a_function(scale: float) -> Constructor:
    def build(lower, upper):
        return make_clamp(lower * scale, upper * scale)
    return Constructor("make_scaled_clamp", build)


def test_a_build_defined_in_a_function_is_never_cached():
    """Its closure (here the scale) is not in the sources the key hashes."""
    assert named_by_code(_build_in_a_function(2.0)) is None
    assert named_by_code(None) is None
    assert named_by_code(make_clamp) is not None


def test_the_folder_gets_a_gitignore(tmp_path):
    SearchCache(tmp_path / "cache")
    assert (tmp_path / "cache" / ".gitignore").read_text().splitlines()[-1] == "*"


def test_a_folder_that_cannot_be_written_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    assert main(["check", "make_clamp", "--cache-dir", str(tmp_path / "file" / "cache")]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "--cache-dir" in err and "is a file, not a folder" in err


def test_no_cache_runs_every_search_and_writes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DPCERT_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["check", "make_discrete_laplace", "--no-cache"]) == 0
    assert not (tmp_path / "cache").exists()
    out = " ".join(capsys.readouterr().out.split())
    assert "0 found nothing in an identical earlier search (no cache)" in out
