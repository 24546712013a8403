"""Stop cleanly on SIGINT and SIGTERM, and leave no child processes behind.

``with StopOnSignals() as stop:`` turns SIGINT and SIGTERM, arriving while the body runs, into
:class:`Interrupted` (a ``KeyboardInterrupt``, so it passes through ``except Exception`` in the
code being run). Whenever a signal arrived, leaving the block terminates every descendant process
(found before any is signalled: SIGTERM, then SIGKILL for those still alive after ``grace``
seconds) and restores the previous handlers. The caller catches :class:`Interrupted`, reports
what it has, and exits with :attr:`Interrupted.exit_code` (130 for SIGINT, 143 for SIGTERM).

``StopOnSignals(defer=True)`` is for code that can stop at a point of its choosing and still
report what it did (``dpcert audit`` prints the pairs tested so far): the first signal only sets
``stop.received``, which the code polls, except inside ``with stop.interruptible():`` (around a
call that may block), where it raises at once; a second signal raises anywhere, and a third exits
the process at once (after stopping the children), for code that swallows ``KeyboardInterrupt``.

A raised stop can be lost: the interpreter only prints an exception raised in an at-fork hook or a
finaliser (a signal that arrives while :mod:`multiprocessing` forks), and code may swallow
``KeyboardInterrupt``. While a guard is active such a lost :class:`Interrupted` is not printed,
and :func:`raise_if_stopped`, which code that waits long calls as it polls, raises it again.

No ``signal.alarm`` and no timers: the handlers are installed only from the main thread (a block
entered in another thread is a plain block), so code that runs in other tools' threads is left
alone. Descendants are found from ``/proc`` on Linux (every process whose parent chain leads here,
including grandchildren); elsewhere only :func:`multiprocessing.active_children`. A process that
left the tree on purpose (a daemon that double-forked, ``setsid`` and reparented) is not ours to
find.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from types import FrameType, TracebackType
from typing import Iterator

PROC = Path("/proc")
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """A stop signal arrived: ``signum``, its ``name`` and the conventional ``exit_code``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        self.name = signal.Signals(signum).name
        self.exit_code = 128 + signum

    def __str__(self) -> str:
        return f"interrupted by {self.name}"


def _stat(pid: int) -> tuple[str, int, int] | None:
    """``(state, parent pid, start time)`` of a process from ``/proc/PID/stat``, or None."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # the name, in parentheses, may hold spaces
    return fields[0], int(fields[1]), int(fields[19])


def _proc_table() -> dict[int, tuple[str, int, int]]:
    table = {}
    for entry in PROC.iterdir() if PROC.is_dir() else ():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None:
                table[int(entry.name)] = stat
    return table


def descendants(pid: int | None = None) -> list[tuple[int, int]]:
    """Every living descendant of ``pid`` (default: this process), parents before their
    children, each as ``(pid, start time)`` so that a reused pid is never taken for it. Linux
    (``/proc``) only; elsewhere the children :mod:`multiprocessing` knows of, start time 0."""
    root = os.getpid() if pid is None else pid
    table = _proc_table()
    if not table:
        return [(p.pid, 0) for p in multiprocessing.active_children() if p.pid is not None]
    children: dict[int, list[int]] = {}
    for child, (state, parent, _) in table.items():
        if state != "Z":
            children.setdefault(parent, []).append(child)
    found, frontier = [], [root]
    while frontier:
        frontier = [c for p in frontier for c in sorted(children.get(p, ()))]
        found += [(c, table[c][2]) for c in frontier]
    return found


def alive(process: tuple[int, int]) -> bool:
    """Whether ``(pid, start time)`` is still running (a zombie, or a new process that reused the
    pid, is not)."""
    pid, start = process
    stat = _stat(pid)
    if stat is None:
        if PROC.is_dir():
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    return stat[0] != "Z" and (start == 0 or stat[2] == start)


def _reap(processes: list[tuple[int, int]]) -> None:
    """Collect the exit status of those of ``processes`` that are this process's own children and
    have ended (no zombies left): :mod:`multiprocessing`'s own first, so that its objects know."""
    multiprocessing.active_children()
    for pid, _ in processes:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # not our child, or already collected
            pass


def _signal(processes: list[tuple[int, int]], signum: int) -> None:
    for process in processes:
        if alive(process):
            try:
                os.kill(process[0], signum)
            except (ProcessLookupError, PermissionError):
                pass


def stop_children(grace: float = 1.0, pid: int | None = None) -> list[int]:
    """Terminate every descendant of ``pid`` (default: this process): SIGTERM, then SIGKILL to
    those still alive after ``grace`` seconds. Returns the pids that were running. Within about
    ``grace + 0.5`` seconds every one of them is gone (SIGKILL cannot be refused)."""
    return _stop(descendants(pid), grace)


def stop_trees(roots: list[int], grace: float = 1.0) -> list[int]:
    """Terminate the processes ``roots`` (children of this one, say) and every descendant of
    theirs, found before any is signalled (killing a parent first would orphan its children),
    as :func:`stop_children` does."""
    tree = []
    for root in roots:
        stat = _stat(root) if PROC.is_dir() else None
        tree += [(root, stat[2] if stat is not None else 0)] + descendants(root)
    return _stop([process for process in tree if alive(process)], grace)


def _stop(tree: list[tuple[int, int]], grace: float) -> list[int]:
    if not tree:
        return []
    _signal(tree, signal.SIGTERM)
    end = time.monotonic() + grace
    while time.monotonic() < end:
        _reap(tree)
        if not any(alive(p) for p in tree):
            break
        time.sleep(0.02)
    else:
        # whatever is still alive, and anything it started meanwhile
        late = [p for p in tree if alive(p)]
        for process in late:
            late += [d for d in descendants(process[0]) if d not in late]
        _signal(late, signal.SIGKILL)
        end = time.monotonic() + 0.5
        while time.monotonic() < end and any(alive(p) for p in late):
            _reap(late)
            time.sleep(0.01)
    _reap(tree)
    return [p for p, _ in tree]


_ACTIVE: list["StopOnSignals"] = []
"""The guards (not ``defer``: those are polled) entered in the main thread and not yet left."""


def raise_if_stopped() -> None:
    """Raise again the :class:`Interrupted` that an active guard of this process raised and that
    did not end its block: the interpreter or the code being run swallowed it. Call it where a
    long wait polls."""
    for guard in _ACTIVE:
        if guard.raised is not None and not guard._leaving and guard._owner == os.getpid():
            raise Interrupted(guard.raised)


class StopOnSignals:
    """Context manager: SIGINT/SIGTERM in the body raise :class:`Interrupted`; on leaving after a
    signal (or always, with ``always_stop_children``) every descendant process is stopped.

    With ``defer=True`` the first signal only sets :attr:`received`, for code that polls it and
    stops at a point where it can still report what it has done; it is raised at once only inside
    :meth:`interruptible` (around a call that may block, such as a call of the code under test,
    whose caller turns the exception into a clean stop), and a second signal is raised anywhere.

    The ``force_after``-th signal (default the third: the code being run swallowed the others)
    stops the children and exits the process at once with 128 + the first signal.

    ``received`` is the first signal that arrived (None if none), ``raised`` the signal last raised
    as :class:`Interrupted` (None if none) and ``stopped`` the pids that were stopped. A signal
    that arrives while the children are being stopped is not raised again. A forked child that
    inherits the handler dies of the signal as if it had none (no ``KeyboardInterrupt`` traceback
    from it).
    """

    def __init__(self, signals: tuple[int, ...] = STOP_SIGNALS, grace: float = 1.0,
                 always_stop_children: bool = False, defer: bool = False,
                 force_after: int | None = 3) -> None:
        self.signals, self.grace, self.always = signals, grace, always_stop_children
        self.defer, self.force_after = defer, force_after
        self.received: int | None = None
        self.raised: int | None = None
        self.stopped: list[int] = []
        self._previous: dict[int, object] = {}
        self._owner = os.getpid()
        self._leaving = False
        self._count = 0
        self._inside = 0
        self._previous_hook = sys.unraisablehook

    @property
    def count(self) -> int:
        """How many stop signals arrived."""
        return self._count

    @property
    def name(self) -> str | None:
        """The received signal's name (``"SIGINT"``), or None."""
        return None if self.received is None else signal.Signals(self.received).name

    @property
    def exit_code(self) -> int | None:
        """128 + the received signal (130 for SIGINT, 143 for SIGTERM), or None."""
        return None if self.received is None else 128 + self.received

    @contextmanager
    def interruptible(self) -> Iterator[None]:
        """A section in which even a deferred first signal raises :class:`Interrupted` at once
        (and in which one already received raises on entry)."""
        if self.received is not None and not self._leaving:
            raise Interrupted(self.received)
        self._inside += 1
        try:
            yield
        finally:
            self._inside -= 1

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if os.getpid() != self._owner:  # a forked child inherited this handler
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        self._count += 1
        if self.received is None:
            self.received = signum
        if self.force_after is not None and self._count >= self.force_after:
            # the code being run swallowed the earlier ones: stop the children, exit at once
            os.write(2, f"stopped by {signal.Signals(signum).name} ({self._count} signals): "
                        "exiting at once\n".encode())
            stop_children(self.grace)
            os._exit(128 + self.received)
        if not self._leaving and (not self.defer or self._inside or self._count > 1):
            self.raised = signum
            raise Interrupted(signum)

    def _unraisable(self, report: "sys.UnraisableHookArgs") -> None:
        """Not printed: a stop of this guard's that the interpreter could not raise (it is raised
        again by :func:`raise_if_stopped`); anything else goes to the previous hook."""
        if not (isinstance(report.exc_value, Interrupted) and self.raised is not None):
            self._previous_hook(report)

    def __enter__(self) -> "StopOnSignals":
        self._owner, self._leaving, self.received, self.raised = os.getpid(), False, None, None
        self._count = self._inside = 0
        if threading.current_thread() is threading.main_thread():
            for signum in self.signals:
                self._previous[signum] = signal.signal(signum, self._handle)
            if not self.defer:
                self._previous_hook, sys.unraisablehook = sys.unraisablehook, self._unraisable
                _ACTIVE.append(self)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self._leaving = True
        try:
            if self.received is not None or self.always or isinstance(error, Interrupted):
                self.stopped = stop_children(self.grace)
        finally:
            for signum, previous in self._previous.items():
                signal.signal(signum, previous)
            if self in _ACTIVE:
                _ACTIVE.remove(self)
                sys.unraisablehook = self._previous_hook
            self._previous.clear()
