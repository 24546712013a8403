"""Scoring a corpus of variants: a wrong variant that passes, or a right one rejected and not
listed, fails the acceptance; a listing of a module that does not exist is a problem too."""

from __future__ import annotations


import pytest

from checker.corpus import (CorpusError, Outcome, Score, check_module, checked_modules,
                            listed_outside, main)

HALF_MAP = '''
from dataclasses import replace
from mechanisms.core import Map
from mechanisms.make_clamp import build_clamp, make_clamp
from obligations.base import Entry
from obligations.make_clamp import clamp_obligations

def half(d_in):
    return d_in / 2

def build(lower, upper):
    return replace(build_clamp(lower, upper), stability_map=Map(rule=half))

make_clamp_half = make_clamp.variant("make_clamp_half", build)
MECHANISMS = [Entry("make_clamp_half", make_clamp_half, clamp_obligations(make_clamp_half, "half"))]
'''
SAME = '''
from mechanisms.make_clamp import build_clamp, make_clamp
from obligations.base import Entry
from obligations.make_clamp import clamp_obligations

same = make_clamp.variant("make_clamp_same", build_clamp)
MECHANISMS = [Entry("make_clamp_same", same, clamp_obligations(same, "same"))]
'''


def outcome(module, expected, exit_code, verdict):
    return Outcome(module, expected, exit_code, verdict, "")


@pytest.mark.slow  # over 2 s: make test-slow
def test_a_real_wrong_module_is_refuted_and_confirmed_and_a_right_one_passes(tmp_path):
    (tmp_path / "half.py").write_text(HALF_MAP)
    (tmp_path / "same.py").write_text(SAME)
    wrong = check_module(tmp_path / "half.py", "wrong", timeout=30)
    assert (wrong.exit_code, wrong.verdict) == (1, "refuted (confirmed)")
    assert "half.stability" in wrong.detail
    right = check_module(tmp_path / "same.py", "right", timeout=30)
    assert right.passed and right.verdict == "passed"


def test_a_module_that_exits_on_import_is_a_load_error_with_its_last_line(tmp_path):
    """Each module is checked in a forked process: one that ends the process on import is the
    loader's exit 2 there, reported with the loader's sentence, never a pass."""
    (tmp_path / "leaves.py").write_text("import os\nos._exit(0)\n")
    [left] = checked_modules([(tmp_path / "leaves.py", "wrong")], jobs=2, timeout=30)
    assert (left.exit_code, left.verdict) == (2, "load error")
    assert "leaves.py" in left.detail and not left.passed


def test_a_wrong_variant_that_passes_fails_the_acceptance():
    score = Score([outcome("w", "wrong", 0, "passed"), outcome("r", "right", 0, "passed")],
                  set(), 0.9, 0.1)
    assert score.failures()[0] == "wrong variant w passes the gate"


def test_too_few_confirmed_refutations_fail_the_acceptance():
    outcomes = [outcome(f"w{i}", "wrong", 1, "refuted (confirmed)") for i in range(8)]
    outcomes += [outcome("u1", "wrong", 1, "unknown"), outcome("u2", "wrong", 1, "unknown")]
    failures = Score(outcomes, set(), 0.9, 0.1).failures()
    assert failures == ["only 8 of 10 wrong variants are refuted with a confirmed replay (need 90%)"]
    assert Score(outcomes[:8] + outcomes[8:9] + [outcome("w9", "wrong", 1, "refuted (confirmed)")],
                 set(), 0.9, 0.1).failures() == []


def test_a_rejected_right_variant_must_be_listed_and_listings_are_bounded():
    right = [outcome(f"r{i}", "right", 0, "passed") for i in range(9)]
    right.append(outcome("odd", "right", 1, "unknown"))
    assert "right variant odd is rejected" in Score(right, set(), 0.9, 0.1).failures()[0]
    assert Score(right, {"odd"}, 0.9, 0.1).failures() == []
    assert "more than 10%" in Score(right, {"odd", "r1"}, 0.9, 0.1).failures()[0]
    assert "no such right variant" in Score(right, {"odd", "ghost"}, 0.9, 0.5).failures()[0]


def test_the_readme_listing_is_read_from_its_section(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n### Correct variants outside the proof method\n\n"
                      "| module | reason |\n|---|---|\n| `rr__odd.py` | why |\n| `nm__x` | why |\n"
                      "\n## Next\n| `not_this` | no |\n"
                      "\n### Another round\n\n| module | reason |\n|---|---|\n| `new_one` | why |\n")
    assert listed_outside(readme) == {"rr__odd", "nm__x"}
    assert listed_outside(readme, "Another round") == {"new_one"}


def test_usage_errors_exit_2(tmp_path, capsys):
    assert main([str(tmp_path / "missing")]) == 2
    assert "no such folder" in capsys.readouterr().err
    assert main([str(tmp_path)]) == 2
    with pytest.raises(CorpusError):
        from checker.corpus import modules
        modules(tmp_path)


def test_a_checker_crash_in_a_module_process_fails_and_shows_its_error(tmp_path, monkeypatch):
    """The checker itself raising in a module's process is exit 1 with its traceback's last
    line, never a pass."""
    import checker.cli
    monkeypatch.setattr(checker.cli, "main", lambda argv: 1 / 0)
    (tmp_path / "any.py").write_text("MECHANISMS = []\n")
    [crashed] = checked_modules([(tmp_path / "any.py", "right")], jobs=1, timeout=30)
    assert not crashed.passed and crashed.exit_code == 1
    assert crashed.detail == "ZeroDivisionError: division by zero"
