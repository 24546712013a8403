"""A stop signal whose :class:`Interrupted` is lost (swallowed by the code being run, or raised
where the interpreter only prints it: a finaliser, an at-fork hook) is raised again by
:func:`checker.interrupts.raise_if_stopped`, and is not printed meanwhile."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from checker.interrupts import Interrupted, StopOnSignals, raise_if_stopped

ROOT = Path(__file__).resolve().parent.parent


class StopsWhenCollected:
    """An object whose finaliser receives SIGINT: the guard's handler raises inside ``__del__``,
    where the interpreter can only report the exception to ``sys.unraisablehook``."""

    def __del__(self) -> None:
        signal.raise_signal(signal.SIGINT)


class FailsWhenCollected:
    def __del__(self) -> None:
        raise ValueError("not a stop")


def test_a_stop_the_code_swallowed_is_raised_again():
    with StopOnSignals() as guard:
        try:
            signal.raise_signal(signal.SIGTERM)
        except Interrupted:
            pass  # the code being run swallows it
        with pytest.raises(Interrupted) as raised:
            raise_if_stopped()
    assert raised.value.signum == signal.SIGTERM and guard.raised == signal.SIGTERM


def test_a_stop_raised_in_a_finaliser_is_not_printed_and_is_raised_again(monkeypatch):
    printed: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", printed.append)
    with StopOnSignals():
        doomed = StopsWhenCollected()
        del doomed
        with pytest.raises(Interrupted) as raised:
            raise_if_stopped()
    assert raised.value.signum == signal.SIGINT and printed == []
    assert sys.unraisablehook == printed.append  # the previous hook is back


def test_other_lost_exceptions_still_reach_the_previous_hook(monkeypatch):
    printed: list[sys.UnraisableHookArgs] = []
    monkeypatch.setattr(sys, "unraisablehook", printed.append)
    with StopOnSignals():
        doomed = FailsWhenCollected()
        del doomed
        raise_if_stopped()  # no stop: nothing to raise
    assert [type(report.exc_value) for report in printed] == [ValueError]


def test_nothing_is_raised_outside_a_guard_or_after_it():
    raise_if_stopped()
    with pytest.raises(Interrupted):
        with StopOnSignals():
            signal.raise_signal(signal.SIGINT)
    raise_if_stopped()


def test_a_deferred_guard_is_polled_not_raised_again():
    """``defer=True`` code catches the stop on purpose and reports what it did."""
    with StopOnSignals(defer=True) as guard:
        with pytest.raises(Interrupted):
            with guard.interruptible():
                signal.raise_signal(signal.SIGINT)
        raise_if_stopped()
    assert guard.received == signal.SIGINT


AT_FORK = textwrap.dedent('''
    """SIGINT arrives while the parent runs its at-fork hooks (as multiprocessing forks)."""
    import os, signal
    from checker.interrupts import Interrupted, StopOnSignals, raise_if_stopped

    os.register_at_fork(after_in_parent=lambda: signal.raise_signal(signal.SIGINT))
    try:
        with StopOnSignals():
            child = os.fork()
            if child == 0:
                os._exit(0)
            os.waitpid(child, 0)
            print("the fork returned")
            raise_if_stopped()
            print("not stopped")
    except Interrupted as interruption:
        print(interruption.exit_code)
''')


def test_a_stop_during_a_fork_is_raised_at_the_next_check(tmp_path):
    result = subprocess.run([sys.executable, "-c", AT_FORK], cwd=tmp_path, capture_output=True,
                            text=True, timeout=60,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["the", "fork", "returned", "130"]
    assert result.stderr == ""  # the lost exception is not printed
