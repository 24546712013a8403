"""Independent jobs run in forked worker processes, with progress, a deadline and clean stops.

The tester draws the runs of different inputs at once, one input per job, on the cores it may
use. Jobs are closures (the target need not be importable by name): the workers are forked, so
they inherit them, and only each job's result travels back (pickled through a pipe).

A worker dies quietly of SIGINT and SIGTERM (default dispositions, no traceback); the parent
polls :func:`run` 's ``tick`` and deadline between messages, and whatever way it leaves (results
in, a stop, an error, ``KeyboardInterrupt``), every worker, and every process the code it ran
started, is stopped and reaped before it returns.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import time
import traceback
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Sequence

from checker.interrupts import stop_trees

Job = Callable[[Callable[[int], None]], Any]
"""``job(progress)`` returns a picklable result and calls ``progress(runs)`` as it goes."""

POLL_SECONDS = 0.05
"""How often the parent passes on progress and looks at the deadline while it waits."""


class WorkerError(RuntimeError):
    """A worker raised, or died (killed by the system, or the code it ran called ``os._exit``)."""


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Forking is possible here: a POSIX system, and not inside a daemonic process
    (:mod:`multiprocessing` forbids those children; ``dpcert check`` runs its obligations in
    daemonic processes)."""
    return ("fork" in multiprocessing.get_all_start_methods()
            and not multiprocessing.current_process().daemon)


def _die_with(parent: int) -> None:
    """Linux: this process gets SIGKILL when ``parent`` ends, even by SIGKILL, which leaves it
    no time to stop its workers (elsewhere, or if it already ended, nothing is done)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it ended before the request was made
        os._exit(1)


PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal this process gets when its parent ends (``<sys/prctl.h>``)."""


def _worker(jobs: Sequence[Job], claimed: Any, progress: Any, out: Connection,
            parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with(parent)

    def tell(runs: int) -> None:
        with progress.get_lock():
            progress.value += runs

    while True:
        with claimed.get_lock():
            index = claimed.value
            claimed.value += 1
        if index >= len(jobs):
            break
        try:
            out.send((index, True, jobs[index](tell)))
        except BaseException as error:  # sent back as text: not every exception unpickles
            out.send((index, False, f"{type(error).__name__}: {error}\n"
                                    + "".join(traceback.format_exc(limit=8))))
    out.close()


def run(jobs: Sequence[Job], workers: int, tick: Callable[[int], None],
        deadline: float | None = None, stop: type[BaseException] = TimeoutError) -> list[Any]:
    """The results of ``jobs``, in order, computed by ``workers`` forked processes.

    ``tick(runs)`` is called in this process at every poll with the runs the workers reported
    since the last call (0 if none; it may raise to stop everything); past ``deadline`` (a ``time.monotonic()`` value) the
    parent raises ``stop()``. A job that raised, or a worker that died, raises
    :class:`WorkerError` naming it."""
    context = multiprocessing.get_context("fork")
    claimed, progress = context.Value("q", 0), context.Value("q", 0)
    results: dict[int, Any] = {}
    processes: dict[Connection, multiprocessing.process.BaseProcess] = {}
    reported = 0
    try:
        for _ in range(max(1, min(workers, len(jobs)))):
            receiver, sender = context.Pipe(duplex=False)
            # not daemonic: the code a worker runs may start processes of its own
            process = context.Process(target=_worker,
                                      args=(jobs, claimed, progress, sender, os.getpid()))
            process.start()
            sender.close()
            processes[receiver] = process
        open_ = set(processes)
        while len(results) < len(jobs):
            for receiver in wait(list(open_), timeout=POLL_SECONDS):
                try:
                    index, ok, value = receiver.recv()
                except EOFError:  # the worker is done, or died
                    open_.discard(receiver)
                    process = processes[receiver]
                    process.join(1.0)
                    if process.exitcode != 0:
                        tick(0)  # a stop signal that reached the workers too stops here
                        raise WorkerError(f"a worker process died (exit code {process.exitcode}"
                                          "; minus the number of the signal that killed it)"
                                          ) from None
                    continue
                if not ok:
                    raise WorkerError(f"job {index} raised {value}")
                results[index] = value
            with progress.get_lock():
                done = progress.value
            tick(done - reported)  # also when 0: the caller may want to stop
            reported = done
            if deadline is not None and time.monotonic() > deadline:
                raise stop()
            if not open_ and len(results) < len(jobs):
                raise WorkerError("every worker process ended before every job was done")
    finally:  # the workers, and any process the code they ran started
        stop_trees([process.pid for process in processes.values() if process.is_alive()])
        for receiver, process in processes.items():
            process.join()
            receiver.close()
    return [results[i] for i in range(len(jobs))]
