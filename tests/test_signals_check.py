"""SIGINT and SIGTERM to ``dpcert check``, ``report`` and ``proofs`` (issue 15, "Processes"): every
worker and grandchild gone within 2 s, even one that ignores SIGTERM; one line on stderr; exit 130
or 143; a reader of the output pipe gets EOF. Subprocesses: signals are what is tested."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from checker.interrupts import alive, descendants

ROOT = Path(__file__).resolve().parent.parent
STOP_WITHIN = 2.0
"""Seconds within which every process the command started must be gone (the issue's bound)."""
SLACK = 0.5
"""Added to :data:`STOP_WITHIN` for this test's own polling and a loaded machine."""

pytestmark = [pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc"),
              pytest.mark.slow]  # whole commands stopped by signals: make test-slow

SLEEPY = textwrap.dedent('''
    """Two obligations that never finish: one sleeps beside a grandchild, one ignores SIGTERM."""
    import os, signal, subprocess, time
    from pathlib import Path
    from obligations.base import ComputedGoal, Decision, Entry, Kind, Obligation

    MARKS = Path(os.environ["DPCERT_MARKS"])

    def sleeps():
        subprocess.Popen(["sleep", "600"])  # a grandchild, holding the output pipes too
        (MARKS / "sleeps").touch()
        time.sleep(600)
        return Decision(True)

    def ignores_sigterm():
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        (MARKS / "ignores_sigterm").touch()
        time.sleep(600)
        return Decision(True)

    def obligation(name, decide):
        return Obligation(f"sleepy.{name}", Kind.LEMMA, name, "x",
                          lambda: [ComputedGoal(name, "sympy", decide)])

    MECHANISMS = [Entry("sleepy", None, (obligation("sleeps", sleeps),
                                         obligation("ignores_sigterm", ignores_sigterm)))]
''')


def start(arguments: list[str], tmp_path: Path) -> subprocess.Popen:
    """``python -m checker ARGUMENTS`` from ``tmp_path``, its output read through pipes."""
    (tmp_path / "marks").mkdir()
    return subprocess.Popen([sys.executable, "-m", "checker", *arguments], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                                 "DPCERT_MARKS": str(tmp_path / "marks")})


def wait_for(condition, seconds: float) -> bool:
    """Poll ``condition`` every 20 ms for at most ``seconds``; whether it came true."""
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def wait_for_workers(process: subprocess.Popen, ready) -> None:
    """Wait (at most 60 s) until ``ready()``; fail with the command's output if it ended first."""
    if not wait_for(lambda: process.poll() is not None or ready(), 60) or \
            process.poll() is not None:
        stdout, stderr = clean_up(process, [])
        pytest.fail(f"the workers did not start:\n{stdout}\n{stderr}")


def clean_up(process: subprocess.Popen, tree: list[tuple[int, int]]) -> tuple[str, str]:
    """This test's own clean-up, whatever happened (not the code under test): SIGKILL to the
    command and every process it started (``tree``, taken before any signal, finds them orphaned
    too), then its stdout and stderr, read to the end."""
    tree = tree + descendants(process.pid)
    if process.poll() is None:
        process.kill()
    for member in tree:
        if alive(member):
            os.kill(member[0], signal.SIGKILL)
    return process.communicate(timeout=10)


def stop_and_watch(process: subprocess.Popen, tree: list[tuple[int, int]],
                   signum: int) -> tuple[bool, float, str, str]:
    """Send ``signum``; whether every process of ``tree`` was gone within the bound, the seconds
    until both output pipes reached EOF (and the command exited), its stdout and stderr."""
    sent = time.monotonic()
    process.send_signal(signum)
    gone = wait_for(lambda: not any(alive(p) for p in tree), STOP_WITHIN + SLACK)
    stdout, stderr = process.communicate(timeout=20)
    return gone, time.monotonic() - sent, stdout, stderr


@pytest.mark.parametrize("command, signum", [
    (["check"], signal.SIGTERM),
    (["check"], signal.SIGINT),
    (["report", "--out", "reports"], signal.SIGTERM),
], ids=["check-SIGTERM", "check-SIGINT", "report-SIGTERM"])
def test_a_signal_stops_the_command_and_every_worker(command, signum, tmp_path):
    module = tmp_path / "sleepy.py"
    module.write_text(SLEEPY)
    process = start([*command, str(module), "--jobs", "2", "--timeout", "300"], tmp_path)
    tree: list[tuple[int, int]] = []
    try:
        marks = tmp_path / "marks"
        wait_for_workers(process, lambda: {p.name for p in marks.iterdir()}
                         == {"sleeps", "ignores_sigterm"})
        tree = descendants(process.pid)
        assert len(tree) == 4, tree  # the obligations' manager, its two workers, a sleep
        gone, eof, stdout, stderr = stop_and_watch(process, tree, signum)
    finally:
        clean_up(process, tree)
    name = signal.Signals(signum).name
    assert gone, f"still running {STOP_WITHIN + SLACK} s after {name}: {tree}"
    assert eof < STOP_WITHIN + 2 * SLACK, eof  # a pipe reader is not left waiting
    assert process.returncode == 128 + signum
    assert stderr.splitlines() == [f"dpcert {command[0]}: stopped by {name}; stopped 4 worker "
                                   "process(es)"], stderr
    assert stdout == ""


def test_a_signal_stops_proofs_while_its_workers_run_the_solvers(tmp_path):
    """``dpcert proofs`` over the catalogue: SIGINT while Z3 and SymPy run in the workers."""
    process = start(["proofs", "--no-build", "--jobs", "2"], tmp_path)
    tree: list[tuple[int, int]] = []
    try:
        wait_for_workers(process, lambda: len(descendants(process.pid)) >= 2)
        tree = descendants(process.pid)
        gone, eof, _, stderr = stop_and_watch(process, tree, signal.SIGINT)
    finally:
        clean_up(process, tree)
    assert gone and eof < STOP_WITHIN + 2 * SLACK, (tree, eof)
    assert process.returncode == 130
    assert re.fullmatch(r"dpcert proofs: stopped by SIGINT; stopped \d+ worker process\(es\)\n",
                        stderr), stderr
