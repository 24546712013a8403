"""Discharge obligations: each in its own process, under a hard time limit, ``jobs`` at a time.

A goal that Z3 cannot settle before the obligation's deadline is ``unknown``; a process still
running at the deadline (a SymPy call, a stuck replay) is killed and its obligation is ``unknown``
too. Nothing that did not finish is ever counted as proved.
"""

from __future__ import annotations

import gc
import multiprocessing
import reprlib
import signal
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterable

from checker import computed_backend, z3_backend
from checker.interrupts import STOP_SIGNALS, raise_if_stopped
from checker.results import GoalResult, ObligationResult, Verdict
from checker.type_tests import TypeTestWatch
from obligations.base import ComputedGoal, Obligation, Z3Goal
from obligations.one_body import one_body_goal

KILL_GRACE_SECONDS = 2.0
"""How long past its time limit an obligation's process may take to report before it is killed."""
POLL_SECONDS = 0.25
"""How often a wait for results checks for a stop signal that was lost (see
:func:`checker.interrupts.raise_if_stopped`)."""

_SEVERITY = [Verdict.PROVED, Verdict.UNKNOWN, Verdict.ERROR, Verdict.REFUTED]


@dataclass(frozen=True)
class Task:
    """One obligation of a mechanism; with its ``constructor``, every obligation also checks that
    the constructor runs one body of code on numbers and solver terms
    (:mod:`obligations.one_body`)."""

    mechanism: str
    obligation: Obligation
    constructor: Any = None


def _result(task: Task, verdict: Verdict, seconds: float, goals: list[GoalResult],
            message: str = "") -> ObligationResult:
    o = task.obligation
    return ObligationResult(task.mechanism, o.id, o.kind.value, o.statement, o.latex, verdict,
                            seconds, goals, o.uses, o.bound, o.arithmetic, message, o.cites,
                            o.assumes)


GOALS_EXPECTED = ("the obligation module's goals() must return a list of obligations.base.Z3Goal "
                  "or ComputedGoal")


def _junk_goals(obligation: Obligation, goals: Any) -> str | None:
    """Why what ``obligation.goals()`` returned is not a list of goals (naming the obligation, the
    goal and what it is), or None when it is one."""
    if not isinstance(goals, (list, tuple)):
        return (f"obligation {obligation.id}: goals() returned {reprlib.repr(goals)} (a "
                f"{type(goals).__name__}); {GOALS_EXPECTED}")
    for index, goal in enumerate(goals):
        if not isinstance(goal, (Z3Goal, ComputedGoal)):
            return (f"obligation {obligation.id}: goal {index} of goals() is "
                    f"{reprlib.repr(goal)} (a {type(goal).__name__}); {GOALS_EXPECTED}")
    return None


def check_obligation(task: Task, seconds: float) -> ObligationResult:
    """Every goal of the obligation, in order, within ``seconds`` in all."""
    start = time.perf_counter()
    deadline = start + seconds
    one_body = [one_body_result(task.constructor)] if task.constructor is not None else []
    with TypeTestWatch() as watch:
        try:
            goals = task.obligation.goals()
        except Exception:
            return _result(task, Verdict.ERROR, time.perf_counter() - start, one_body,
                           "building the goals raised:\n" + traceback.format_exc(limit=6))
        junk = _junk_goals(task.obligation, goals)
        if junk is not None:
            return _result(task, Verdict.ERROR, 0.0, one_body, junk)
        if not goals:
            return _result(task, Verdict.ERROR, 0.0, one_body,
                           "the obligation has no goals: nothing to prove")
        results = one_body + _decided(task, goals, deadline, seconds)
    if task.constructor is not None:
        results.append(computed_backend.decide(watch.goal(task.constructor.name)))
    verdict = max((g.verdict for g in results), key=_SEVERITY.index)
    message = next((g.message for g in results if g.verdict is verdict), "") \
        if verdict is not Verdict.PROVED else ""
    return _result(task, verdict, time.perf_counter() - start, results, message)


def _decided(task: Task, goals: list, deadline: float, seconds: float) -> list[GoalResult]:
    """Each goal decided in order, until the obligation's ``deadline``."""
    results: list[GoalResult] = []
    for goal in goals:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            results.append(GoalResult(goal.name, Verdict.UNKNOWN, "-", 0.0,
                                      f"time-out: the obligation's {seconds:g} s were used up"))
            continue
        try:
            results.append(z3_backend.prove(goal, remaining) if isinstance(goal, Z3Goal)
                           else computed_backend.decide(goal))
        except (z3_backend.UntypedClaimError, computed_backend.UntypedDecisionError) as untyped:
            results.append(GoalResult(goal.name, Verdict.ERROR, "-", 0.0,
                                      f"obligation {task.obligation.id}: {untyped}"))
        except Exception:
            results.append(GoalResult(goal.name, Verdict.ERROR, "-", 0.0,
                                      "raised:\n" + traceback.format_exc(limit=6)))
    return results


def _child(task: Task, seconds: float, connection: Connection) -> None:
    """The worker process of one task: sends its result through ``connection``. SIGINT and
    SIGTERM take their default action here (the worker dies at once, even inside solver code, with
    no traceback): stopping the run is the parent's job (``dpcert``'s signal guard)."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
    try:
        connection.send(check_obligation(task, seconds))
    except Exception:
        connection.send(_result(task, Verdict.ERROR, 0.0, [],
                                "the checker failed:\n" + traceback.format_exc(limit=6)))
    finally:
        connection.close()


def one_body_result(constructor: Any) -> GoalResult:
    """The one-body goal of ``constructor``, decided once per constructor in a process: the
    process that forks the workers decides it before the first worker of that constructor, and
    every worker inherits the answer."""
    key = id(constructor)
    if key not in _ONE_BODY:
        _ONE_BODY[key] = (constructor, computed_backend.decide(one_body_goal(constructor)))
    return _ONE_BODY[key][1]


_ONE_BODY: dict[int, tuple[Any, GoalResult]] = {}
"""What :func:`one_body_result` decided, the constructor kept so that its ``id`` is not reused."""


def run_tasks(tasks: Iterable[Task], seconds: float, jobs: int = 1,
              each: Callable[[int, ObligationResult], None] = lambda index, result: None
              ) -> list[ObligationResult]:
    """Results in the order of ``tasks``; ``each(index, result)`` is called as each finishes."""
    context = multiprocessing.get_context("fork")
    pending = list(enumerate(tasks))
    results: dict[int, ObligationResult] = {}
    running: dict[Connection, tuple[int, Task, multiprocessing.Process, float]] = {}

    def finish(index: int, result: ObligationResult) -> None:
        results[index] = result
        each(index, result)
    while pending or running:
        while pending and len(running) < max(1, jobs):
            index, task = pending.pop(0)
            if task.constructor is not None:
                try:  # decided here once, inherited by the worker
                    one_body_result(task.constructor)
                except Exception:  # noqa: BLE001 - the worker decides it again and reports it
                    pass
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=_child, args=(task, seconds, sender), daemon=True)
            process.start()
            sender.close()
            running[receiver] = (index, task, process, time.monotonic())
        now = time.monotonic()
        timeout = min(started + seconds + KILL_GRACE_SECONDS - now
                      for _, _, _, started in running.values())
        for receiver in wait(list(running), timeout=min(POLL_SECONDS, max(0.0, timeout))):
            index, task, process, started = running.pop(receiver)
            try:
                finish(index, receiver.recv())
            except EOFError:
                finish(index, _result(task, Verdict.ERROR, time.monotonic() - started, [],
                                      f"the checking process died (exit code {process.exitcode})"))
            process.join()
        raise_if_stopped()
        now = time.monotonic()
        for receiver, (index, task, process, started) in list(running.items()):
            if now - started > seconds + KILL_GRACE_SECONDS:
                process.kill()
                process.join()
                del running[receiver]
                finish(index, _result(task, Verdict.UNKNOWN, now - started, [],
                                      f"time-out: not finished within {seconds:g} s, stopped"))
    return [results[i] for i in sorted(results)]


class RunningTasks:
    """:func:`run_tasks` in a forked process, so that this one can work meanwhile: the tasks start
    in the order of ``first`` (a sort key) and each result is read as its task finishes.
    :meth:`of` waits for one mechanism's results, :meth:`all` for every one, in the order of
    ``tasks`` (:func:`apply_dependencies` applied). A manager that dies leaves each task it did
    not report an error naming its exit code."""

    def __init__(self, tasks: Iterable[Task], seconds: float, jobs: int = 1,
                 first: Callable[[Task], Any] = lambda task: 0) -> None:
        self.tasks = list(tasks)
        order = sorted(range(len(self.tasks)), key=lambda i: first(self.tasks[i]))
        context = multiprocessing.get_context("fork")
        self._receiver, sender = context.Pipe(duplex=False)
        self._manager = context.Process(target=_manage, args=(
            [self.tasks[i] for i in order], order, seconds, jobs, sender))
        self._manager.start()
        sender.close()
        self._arrived: dict[int, ObligationResult] = {}

    def of(self, mechanism: str) -> list[ObligationResult]:
        """The results of ``mechanism``'s tasks, each only as proved as the lemmas it uses."""
        own = self._wait([i for i, t in enumerate(self.tasks) if t.mechanism == mechanism])
        levels, used = [own], set()
        while wanted := {u for r in levels[-1] for u in r.uses} - used:  # lemmas using lemmas
            used |= wanted
            levels.append(self._wait([i for i, t in enumerate(self.tasks)
                                      if t.obligation.id in wanted]))
        apply_dependencies([r for level in reversed(levels) for r in level])  # deepest first
        return own

    def all(self) -> list[ObligationResult]:
        """Every result, in the order of the tasks."""
        found = self._wait(list(range(len(self.tasks))))
        self._manager.join()
        apply_dependencies(found)
        return found

    def abandon(self) -> None:
        """Stop reading: the manager stops at its next result (or is stopped with the rest of
        this process's children, on a stop signal)."""
        self._receiver.close()

    def _wait(self, indices: list[int]) -> list[ObligationResult]:
        while any(i not in self._arrived for i in indices) and not self._receiver.closed:
            try:
                if not self._receiver.poll(POLL_SECONDS):
                    raise_if_stopped()
                    continue
                index, result = self._receiver.recv()
                self._arrived[index] = result
            except EOFError:
                self._receiver.close()
                self._manager.join()
                for index, task in enumerate(self.tasks):
                    self._arrived.setdefault(index, _result(
                        task, Verdict.ERROR, 0.0, [], "the process running the obligations died "
                        f"(exit code {self._manager.exitcode})"))
        return [self._arrived[i] for i in indices]


def _manage(tasks: list[Task], indices: list[int], seconds: float, jobs: int,
            connection: Connection) -> None:
    """Runs ``tasks`` and sends each result with its index among the caller's (``indices``)."""
    gc.freeze()  # the workers forked from here do not copy every page to collect garbage
    try:
        run_tasks(tasks, seconds, jobs,
                  each=lambda index, result: connection.send((indices[index], result)))
    finally:
        connection.close()


def apply_dependencies(results: list[ObligationResult]) -> None:
    """An obligation proved with a lemma is only as proved as the lemma."""
    by_id = {r.id: r for r in results}
    for result in results:
        if result.verdict is not Verdict.PROVED:
            continue
        for used in result.uses:
            lemma = by_id.get(used)
            if lemma is None or lemma.verdict is not Verdict.PROVED:
                state = "was not checked" if lemma is None else f"is {lemma.verdict.value}"
                result.verdict = Verdict.UNKNOWN
                result.message = f"unproved lemma: relies on {used}, which {state}"
                break
