"""Long audits behave (issue 14): ``--timeout``, SIGINT and SIGTERM, pairs in error, the verdict
*unknown* (exit 2) and its JSON, the pytest fixture on *unknown*, and the reusable signal guard
of :mod:`checker.interrupts`. Seeded; the only timing asserts are generous bounds on stopping."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from checker.audit import audit, check_timeout
from checker.cli import main

pytestmark = pytest.mark.slow  # audits stopped by time-outs and signals: make test-slow

ROOT = Path(__file__).resolve().parent.parent

TARGETS = textwrap.dedent('''
    import json, multiprocessing, os, random, subprocess, time

    CALLS = [0]

    def slow_after(x):
        """Fast for the first FAST calls, then 10 ms per call."""
        CALLS[0] += 1
        if CALLS[0] > int(os.environ["FAST"]):
            time.sleep(0.01)
        return random.random()

    def slow(x):
        time.sleep(0.01)
        return random.random()

    def raises_on_two(x):
        if x == 2:
            raise ValueError("two is not a valid input")
        return random.random()

    def leaky_unless_100(x):
        """A violation on (0, 1) (Laplace noise of scale 0.25 against a claim of 1), and an
        error on 100."""
        if x == 100:
            raise ValueError("100 is out of range")
        return x + random.expovariate(4.0) * random.choice((-1, 1))

    PER_INPUT = {}

    def leaky_then_slow(x):
        """Leaky on (0, 1) (Laplace noise of scale 0.25 against a claim of 1); 10 ms per call on
        other inputs after their first 400 calls (the selection runs of --samples 2000)."""
        PER_INPUT[x] = PER_INPUT.get(x, 0) + 1
        if x > 1 and PER_INPUT[x] > 400:
            time.sleep(0.01)
        return x + random.expovariate(4.0) * random.choice((-1, 1))

    def raises_always(x):
        raise RuntimeError("boom")

    _children = []

    def _sleeper():
        child = subprocess.Popen(["sleep", "600"])
        with open(os.environ["DPCERT_PIDS"] + ".grandchild", "w") as stream:
            stream.write(str(child.pid))
        child.wait()

    def starts_children(x):
        """Starts `sleep 600` and a multiprocessing child (which starts its own `sleep 600`) on
        the first call, then answers slowly."""
        if not _children:
            _children.append(subprocess.Popen(["sleep", "600"]))
            worker = multiprocessing.get_context("fork").Process(target=_sleeper)
            worker.start()
            _children.append(worker)
            path = os.environ["DPCERT_PIDS"]
            while not os.path.exists(path + ".grandchild"):
                time.sleep(0.01)
            with open(path + ".tmp", "w") as stream:
                stream.write(json.dumps([_children[0].pid, worker.pid,
                                         int(open(path + ".grandchild").read())]))
            os.replace(path + ".tmp", path)
        time.sleep(0.002)
        return random.random()
''')


@pytest.fixture
def targets(tmp_path):
    path = tmp_path / "long_targets.py"
    path.write_text(TARGETS)
    return path


def pairs_file(tmp_path, pairs) -> str:
    path = tmp_path / "pairs.json"
    path.write_text(json.dumps(pairs))
    return str(path)


def gone(pid: int) -> bool:
    """Not running: no such process, or a zombie (reaped by no one in some containers)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False
    return state == "Z"


def wait_until(condition, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


# --timeout ----------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "0", "soon"])
def test_a_bad_timeout_is_a_usage_error_with_a_sentence(value, targets, capsys):
    assert main(["audit", f"{targets}:slow", "--epsilon", "1", f"--timeout={value}"]) == 2
    error = capsys.readouterr().err
    assert "--timeout" in error and "the timeout must be a" in error
    assert "finite number of seconds > 0" in error or "a number of seconds" in error


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1.0, 0, True, "soon"])
def test_the_python_api_refuses_a_bad_timeout(value):
    with pytest.raises(ValueError, match="the timeout must be"):
        audit(lambda x: x, 1.0, pairs=[(0, 1)], timeout=value)
    assert check_timeout(None) is None and check_timeout(2) == 2.0


@pytest.mark.parametrize("fast, limit", [(0, 1), pytest.param(5600, 5, marks=pytest.mark.slow)])
def test_a_timeout_gives_unknown_exit_2_and_what_was_tested(fast, limit, targets, tmp_path):
    """``fast`` = 5600 calls: the screening (6 inputs x 400 selection runs) and the first tested
    pair's trials (2 x 1600) are fast (about 1 s unloaded: the limit leaves room for a loaded
    machine), the next tested pair's trials are slow (16 s): a partial audit."""
    out = tmp_path / "audit.json"
    start = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "checker", "audit", f"{targets}:slow_after", "--epsilon", "1",
         "--pairs", pairs_file(tmp_path, [[0, 1], [2, 3], [4, 5]]), "--samples", "2000",
         "--timeout", str(limit), "--json", str(out)], cwd=tmp_path, capture_output=True, text=True,
        timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "200",
                          "FAST": str(fast)})
    seconds = time.monotonic() - start
    assert result.returncode == 2, result.stdout + result.stderr
    assert seconds < limit + 30  # the slow runs alone would take 4 s to 20 s per input
    assert "Traceback" not in result.stderr
    document = json.loads(out.read_text())
    assert document["verdict"] == "unknown" and document["stopped"] == "timeout"
    assert document["violation"] is False
    run, planned = len(document["results"]), document["planned"]
    assert run < planned
    assert f"(--timeout {limit} s): {run} of {planned} tests run" in result.stdout
    assert "UNKNOWN" in result.stdout
    if fast:  # what was tested is shown
        assert run >= 1 and "privacy audit, worst pairs first" in result.stdout


def test_a_violation_on_a_partial_audit_stands(targets, tmp_path, capsys):
    out = tmp_path / "audit.json"
    code = main(["audit", f"{targets}:leaky_then_slow", "--epsilon", "1", "--pairs",
                 pairs_file(tmp_path, [[0, 1], [2, 3]]), "--samples", "2000", "--timeout", "2",
                 "--json", str(out)])
    printed = capsys.readouterr()
    document = json.loads(out.read_text())
    assert code == 1, printed.out + printed.err
    assert document["verdict"] == "violation" and document["stopped"] == "timeout"
    assert "VIOLATION" in printed.out and "tests run" in printed.out


def test_the_python_api_stops_at_the_timeout(tmp_path):
    import random

    def slow(x):
        time.sleep(0.01)
        return random.random()
    start = time.monotonic()
    result = audit(slow, 1.0, pairs=[(0, 1), (2, 3)], samples=2000, timeout=0.5)
    assert time.monotonic() - start < 15
    assert result.stopped == "timeout" and result.verdict == "unknown"
    assert result.planned == 4 and len(result.results) < 4


# pairs in error -----------------------------------------------------------------------------

def test_one_failing_pair_is_listed_and_the_others_tested(targets, tmp_path, capsys):
    out = tmp_path / "audit.json"
    code = main(["audit", f"{targets}:raises_on_two", "--epsilon", "1", "--pairs",
                 pairs_file(tmp_path, [[0, 1], [2, 3], [4, 5]]), "--samples", "2000",
                 "--json", str(out)])
    printed = capsys.readouterr()
    assert code == 2, printed.out + printed.err
    assert "pairs not tested" in printed.out and "two is not a valid input" in printed.out
    assert "privacy audit, worst pairs first" in printed.out and "UNKNOWN" in printed.out
    document = json.loads(out.read_text())
    assert document["verdict"] == "unknown" and document["stopped"] is None
    assert {(r["x"], r["x_prime"]) for r in document["results"]} == {(0, 1), (1, 0), (4, 5),
                                                                     (5, 4)}
    assert document["errors"] and all("two is not a valid input" in e["message"]
                                      for e in document["errors"])
    assert all(2 in (e["x"], e["x_prime"]) for e in document["errors"])


def test_a_violation_elsewhere_still_exits_1_with_the_error_listed(targets, tmp_path, capsys):
    code = main(["audit", f"{targets}:leaky_unless_100", "--epsilon", "1", "--pairs",
                 pairs_file(tmp_path, [[0, 1], [100, 101]]), "--samples", "5000"])
    printed = capsys.readouterr()
    assert code == 1, printed.out + printed.err
    assert "VIOLATION" in printed.out and "100 is out of range" in printed.out


def test_a_target_raising_on_every_pair_says_what_it_raised(run_cli, targets, tmp_path):
    out = tmp_path / "audit.json"
    result = run_cli("audit", f"{targets}:raises_always", "--epsilon", "1", "--pairs",
                     pairs_file(tmp_path, [[0, 1], [2, 3]]), "--samples", "200", "--json",
                     str(out))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "pairs not tested" in result.stdout and result.stdout.count("boom") >= 4  # per pair
    document = json.loads(out.read_text())
    assert document["verdict"] == "unknown" and not document["results"]
    assert len(document["errors"]) == 4 and all("RuntimeError: boom" in e["message"]
                                                for e in document["errors"])


def test_assert_private_fails_on_unknown(assert_private):
    import random

    def raises_on_two(x):
        if x == 2:
            raise ValueError("two is not a valid input")
        return random.random()
    with pytest.raises(pytest.fail.Exception, match="UNKNOWN.*two is not a valid input"):
        assert_private(raises_on_two, 1.0, pairs=[(0, 1), (2, 3)], samples=500)
    assert assert_private(lambda x: random.random(), 1.0, pairs=[(0, 1)],
                                 samples=500).verdict == "none found"


# SIGINT and SIGTERM -------------------------------------------------------------------------

@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.parametrize("signum, code, name", [(signal.SIGTERM, 143, "SIGTERM"),
                                                (signal.SIGINT, 130, "SIGINT")])
def test_a_signal_stops_the_audit_and_every_child(signum, code, name, targets, tmp_path):
    pids_path = tmp_path / "pids.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "checker", "audit", f"{targets}:starts_children", "--epsilon",
         "1", "--pairs", pairs_file(tmp_path, [[0, 1], [2, 3]]), "--samples", "1000000"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "200",
             "DPCERT_PIDS": str(pids_path)})
    try:
        assert wait_until(pids_path.exists, 60), "the target never started its children"
        children = json.loads(pids_path.read_text())
        assert not any(gone(pid) for pid in children)
        process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == code, stdout + stderr
    assert f"stopped by {name}" in stderr and "Traceback" not in stderr
    assert len([line for line in stderr.splitlines() if line.strip()]) == 1, stderr
    assert f"stopped by {name}" in stdout  # what was tested so far
    assert wait_until(lambda: all(gone(pid) for pid in children), 5), children


GUARD = textwrap.dedent('''
    import json, os, signal, subprocess, sys, time
    from checker.interrupts import Interrupted, StopOnSignals
    signum = int(sys.argv[1])
    try:
        with StopOnSignals(grace=0.5) as guard:
            plain = subprocess.Popen(["sleep", "600"])
            stubborn = subprocess.Popen(["sh", "-c", "trap '' TERM; sleep 600 & wait"])
            time.sleep(0.3)
            os.kill(os.getpid(), signum)
            time.sleep(30)
        print(json.dumps({"error": "no interruption"}))
    except Interrupted as interruption:
        print(json.dumps({"code": interruption.exit_code, "name": interruption.name,
                          "stopped": guard.stopped, "handler": str(signal.getsignal(signum))}))
''')


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_the_signal_guard_stops_children_even_those_ignoring_sigterm(signum, code, tmp_path):
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-c", GUARD, str(int(signum))], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["code"] == code and report["name"] == signal.Signals(signum).name
    assert len(report["stopped"]) >= 3  # sleep, sh, and the sleep sh started
    assert all(gone(pid) for pid in report["stopped"])
    assert "StopOnSignals" not in report["handler"]  # the previous handler is back
    assert time.monotonic() - start < 30
