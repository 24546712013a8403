"""Bad input to ``dpcert``: one sentence naming the problem, exit 2 (usage) or the documented code,
no Python traceback unless ``-v``. Each bad-input case is checked before any work is done."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import checker.audit

from checker import cli
from checker.cli import main
from obligations.base import Entry, EntryObligationsError

HELPER = "import math\n\nimport no_such_module_for_dpcert\n"
"""A helper module that fails to import at its line 3."""

MODULES = {
    "uses_helper.py": "import math\nimport helper_that_fails\n\nMECHANISMS = []\n",
    "helper_that_fails.py": HELPER,
    "bad_entry.py": ("from obligations.base import Entry\n\n"
                     "MECHANISMS = [Entry('bad', None, ('not an obligation',))]\n"),
    "entry_with_function.py": ("from obligations.base import Entry\n"
                               "from obligations.make_clamp import clamp_obligations\n"
                               "MECHANISMS = [Entry('lazy', None, clamp_obligations)]\n"),
    "bad_syntax.py": "x = 1\ny = (2 +\n",
    "target.py": "def mechanism(x):\n    return x\n",
    "a_file.txt": "not a folder\n",
    "quits.py": "import sys\n\n\ndef leave():\n    sys.exit(0)\n\n\nleave()\nMECHANISMS = []\n",
    "hard_exit.py": "import os\nos._exit(0)\n",
    "killed.py": "import os\nimport signal\nos.kill(os.getpid(), signal.SIGKILL)\n",
    "hangs.py": "while True:\n    pass\n",
}

GATE_TIMEOUT = "--timeout must be a finite number of seconds in (0, 86400]"
SEED = "--seed must be a whole number from 0 to 4294967295"
AUDIT = ["audit", "{tmp}/target.py:mechanism", "--epsilon", "1", "--samples", "100"]

CASES = {
    # --timeout of check and report: finite, > 0, at most a day
    **{f"check --timeout {value}": (["check", "clamp", "--timeout", value], GATE_TIMEOUT)
       for value in ("nan", "inf", "-1", "0", "5e6", "ten")},
    **{f"report --timeout {value}": (["report", "clamp", "--out", "{tmp}/r", "--timeout", value],
                                     GATE_TIMEOUT) for value in ("nan", "5e6")},
    "check --jobs 0": (["check", "clamp", "--jobs", "0"], "--jobs must be a whole number >= 1"),
    "check --samples 5": (["check", "clamp", "--empirical", "--samples", "5"],
                          "--samples must be a whole number >= 10"),
    "check --alpha 2": (["check", "clamp", "--alpha", "2"], "--alpha must be a number in (0, 1)"),
    "check --alpha nan": (["check", "clamp", "--alpha", "nan"],
                          "--alpha must be a number in (0, 1)"),
    "check --seed -1": (["check", "clamp", "--empirical", "--seed", "-1"], SEED),
    "report --seed 2**32": (["report", "clamp", "--out", "{tmp}/r", "--seed", "4294967296"], SEED),
    "audit --seed -1": ([*AUDIT, "--seed", "-1"], SEED),
    **{f"audit --epsilon {value}": (["audit", "{tmp}/target.py:mechanism", "--epsilon", value],
                                    "--epsilon must be a finite number >= 0")
       for value in ("inf", "nan", "-1")},
    # outputs that cannot be written, refused before the gate or the audit runs
    "report --out an existing file": (["report", "clamp", "--out", "{tmp}/a_file.txt"],
                                      "a_file.txt is a file, not a folder"),
    "report --out under a file": (["report", "clamp", "--out", "{tmp}/a_file.txt/sub"],
                                  "a_file.txt is a file, not a folder"),
    "report --out under /proc": (["report", "clamp", "--out", "/proc/dpcert_x/reports"],
                                 "--out /proc/dpcert_x/reports: no file can be written in /proc"),
    "check --json under a file": (["check", "clamp", "--json", "{tmp}/a_file.txt/out.json"],
                                  "out.json: cannot be written (Not a directory)"),
    "check --json a folder": (["check", "clamp", "--json", "{tmp}"],
                              "cannot be written (Is a directory)"),
    "check --json under /proc": (["check", "clamp", "--json", "/proc/dpcert_x.json"],
                                 "--json /proc/dpcert_x.json: cannot be written"),
    "audit --json under a file": ([*AUDIT, "--json", "{tmp}/a_file.txt/audit.json"],
                                  "audit.json: cannot be written (Not a directory)"),
    "check --cache-dir an existing file": (["check", "clamp", "--cache-dir", "{tmp}/a_file.txt"],
                                           "--cache-dir {tmp}/a_file.txt: {tmp}/a_file.txt is a "
                                           "file, not a folder"),
    "report --cache-dir under /proc": (["report", "clamp", "--out", "{tmp}/r", "--cache-dir",
                                        "/proc/dpcert_x/cache"],
                                       "--cache-dir /proc/dpcert_x/cache: no file can be "
                                       "written in /proc"),
    # modules that cannot be loaded: where, in the user's code, and what
    "Entry with a str obligation": (
        ["check", "{tmp}/bad_entry.py"],
        "bad_entry.py failed to import: EntryObligationsError: Entry 'bad': obligation 0 is "
        "'not an obligation' (a str); pass a tuple or list of obligations.base.Obligation"),
    "Entry with the factory, not its obligations": (
        ["check", "{tmp}/entry_with_function.py"],
        "Entry 'lazy': obligations is a function; pass a tuple or list"),
    "import error in a helper module": (
        ["check", "{tmp}/uses_helper.py"],
        "uses_helper.py failed to import: ModuleNotFoundError: No module named "
        "'no_such_module_for_dpcert'\n  at {tmp}/helper_that_fails.py, line 3: "
        "import no_such_module_for_dpcert"),
    "syntax error": (["check", "{tmp}/bad_syntax.py"],
                     "bad_syntax.py failed to import: SyntaxError: "),
    # modules that exit, die or hang while imported: exit 2, never 0 with nothing checked
    **{f"{command} of a module calling sys.exit(0)": (
        [command, "{tmp}/quits.py", *extra],
        "quits.py exited while being imported (SystemExit(0)); nothing was checked: a checked "
        "module must only define its mechanisms when imported\n  at {tmp}/quits.py, line 5: "
        "sys.exit(0)") for command, extra in (("check", []), ("report", ["--out", "{tmp}/r"]))},
    "audit target calling sys.exit(0)": (["audit", "{tmp}/quits.py:f", "--epsilon", "1"],
                                         "quits.py exited while being imported (SystemExit(0))"),
    "module calling os._exit(0)": (
        ["check", "{tmp}/hard_exit.py"],
        "hard_exit.py exited while being imported (os._exit(0)); nothing was checked: a checked "
        "module must only define its mechanisms when imported\n  at {tmp}/hard_exit.py, line 2: "
        "os._exit(0)"),
    "module killing its own process": (
        ["check", "{tmp}/killed.py"],
        "killed.py exited while being imported (the importing process died (exit code -9))"),
    "module hanging": (
        ["check", "{tmp}/hangs.py", "--timeout", "1"],
        "hangs.py hung while being imported (still importing after 1 s, stopped); nothing was "
        "checked: a checked module must only define its mechanisms when imported\n  at "
        "{tmp}/hangs.py, line 1: while True:"),
    "audit target whose helper fails to import": (
        ["audit", "{tmp}/uses_helper.py:f", "--epsilon", "1"],
        "at {tmp}/helper_that_fails.py, line 3: import no_such_module_for_dpcert"),
}
"""Bad input -> the sentence expected on stderr; every one exits 2."""


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """``tmp_path`` holding :data:`MODULES`; the gate and the audit fail the test if they run,
    and modules imported by a case are forgotten afterwards."""
    for name, text in MODULES.items():
        (tmp_path / name).write_text(text)

    def must_not_run(*_: object, **__: object) -> None:
        raise AssertionError("the work ran although the input was bad")
    monkeypatch.setattr(cli, "run_gate", must_not_run)
    monkeypatch.setattr(checker.audit, "audit", must_not_run)  # command_audit imports it
    monkeypatch.setattr(sys, "path", list(sys.path))
    before = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - before:
        del sys.modules[name]


def run(argv: list[str], folder: Path, capsys) -> tuple[int, str, str]:
    code = main([part.format(tmp=folder) for part in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_one_sentence_and_exit_2(case, folder, capsys):
    argv, sentence = CASES[case]
    code, out, err = run(argv, folder, capsys)
    assert code == 2, out + err
    assert sentence.format(tmp=folder) in err
    assert "Traceback" not in out + err


def test_a_usage_error_writes_nothing(folder, capsys):
    json_file = folder / "out.json"
    assert run(["check", "clamp", "--timeout", "0", "--json", str(json_file)], folder, capsys)[0] == 2
    assert run(["check", "clamp", "--json", str(folder / "a_file.txt" / "x.json")], folder,
               capsys)[0] == 2
    assert not json_file.exists() and (folder / "a_file.txt").read_text() == "not a folder\n"


def test_the_writable_check_leaves_an_existing_file_as_it_was(folder, capsys):
    existing = folder / "a_file.txt"
    cli.writable_file("--json", str(existing))
    cli.writable_file("--json", str(folder / "new.json"))
    assert existing.read_text() == "not a folder\n" and not (folder / "new.json").exists()


@pytest.mark.parametrize("argv", [["check", "{tmp}/uses_helper.py", "-v"],
                                  ["report", "{tmp}/uses_helper.py", "--out", "{tmp}/r", "-v"],
                                  ["audit", "{tmp}/uses_helper.py:f", "--epsilon", "1", "-v"]])
def test_verbose_shows_the_traceback(argv, folder, capsys):
    code, out, err = run(argv, folder, capsys)
    assert code == 2
    assert "Traceback" in err and 'helper_that_fails.py", line 3' in err
    assert "failed to import: ModuleNotFoundError" in err.splitlines()[-2]


def test_entry_refuses_items_that_are_not_obligations():
    with pytest.raises(EntryObligationsError) as raised:
        Entry("mine", None, ("clamp.stability",))
    assert isinstance(raised.value, TypeError)
    assert (raised.value.entry, raised.value.index, raised.value.value) == \
        ("mine", 0, "clamp.stability")
    with pytest.raises(EntryObligationsError, match="obligations is a generator"):
        Entry("mine", None, (o for o in ()))


JUNK_GOALS = (
    "import z3\n"
    "from mechanisms.make_clamp import make_clamp\n"
    "from obligations.base import ComputedGoal, Entry, Kind, Obligation, Z3Goal\n"
    "def junk(name, goals):\n"
    "    return Obligation(f'junk.{name}', Kind.LEMMA, 'returns junk', 'x', goals)\n"
    "MECHANISMS = [Entry('junk', None, (\n"
    "    junk('string', lambda: 'not goals'),\n"
    "    junk('none', lambda: None),\n"
    "    junk('item', lambda: [None]),\n"
    "    junk('decide_str', lambda: [ComputedGoal('says yes', 'sympy', lambda: 'yes')]),\n"
    "    junk('claim_none', lambda: [Z3Goal('no claim', None)]),\n"
    ")), Entry('junk_clamp', make_clamp, (junk('clamp_string', lambda: 'not goals'),))]\n")
EXPECTED = "the obligation module's goals() must return a list of obligations.base.Z3Goal or " \
           "ComputedGoal"


def test_goals_that_return_junk_name_the_obligation_and_what_it_returned(tmp_path, capsys):
    module = tmp_path / "junk_goals.py"
    module.write_text(JUNK_GOALS)
    code = main(["check", str(module)])
    out, err = capsys.readouterr()
    assert code == 1, out + err
    # beside the catalogue's own obligations of make_clamp, which the entry's constructor is
    assert re.search(r"\d+ obligations: \d+ proved, 0 refuted, 0 unknown, 6 error", out)
    for sentence in (
            f"obligation junk.string: goals() returned 'not goals' (a str); {EXPECTED}",
            # shown although the constructor's own goal (one body of code) is proved:
            f"obligation junk.clamp_string: goals() returned 'not goals' (a str); {EXPECTED}",
            f"obligation junk.none: goals() returned None (a NoneType); {EXPECTED}",
            f"obligation junk.item: goal 0 of goals() is None (a NoneType); {EXPECTED}",
            "obligation junk.decide_str: goal 'says yes': decide() returned str; it must return "
            "a Decision whose proved is True or False",
            "obligation junk.claim_none: goal 'no claim': its claim is a NoneType, not a Z3 "
            "Boolean"):
        assert sentence in out
    assert "the checker failed" not in out and "Traceback" not in out + err
