"""Import a user's module once in a forked child before the checker imports it itself, so that a
module which exits (``sys.exit``, ``os._exit``), dies or hangs while imported stops nothing but
that child: the checker reports it, with the file and line, and checks nothing.

The child's verdict is one of :data:`OUTCOMES`; only ``"ok"`` lets the checker go on.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import signal
import sys
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from traceback import FrameSummary
from types import FrameType
from typing import Any, Callable

from checker.interrupts import STOP_SIGNALS

KILL_GRACE_SECONDS = 2.0
"""How long past its time limit the child may take to report before it is killed."""

OUTCOMES = ("ok", "raised", "exited", "hung")


class ImportTimedOut(BaseException):
    """Raised in the child by its alarm, in whatever line of the module is running."""


def probe_import(file: Path, seconds: float,
                 locate: Callable[[BaseException], FrameSummary | None],
                 is_user_code: Callable[[str], bool]) -> tuple[str, str, FrameSummary | None]:
    """``(outcome, detail, location)`` of importing ``file`` in a forked child within ``seconds``:
    ``("exited", "SystemExit(0)", line)`` for a module that calls ``sys.exit(0)``, say."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(file, seconds, sender, locate, is_user_code),
                              daemon=True)
    process.start()
    sender.close()
    try:
        if receiver.poll(seconds + KILL_GRACE_SECONDS):
            return receiver.recv()
    except EOFError:  # the child died without a word: killed by a signal, or os.abort()
        process.join()
        return "exited", f"the importing process died (exit code {process.exitcode})", None
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receiver.close()
    return "hung", f"still importing after {seconds:g} s, stopped", None


def _child(file: Path, seconds: float, connection: Connection,
           locate: Callable[[BaseException], FrameSummary | None],
           is_user_code: Callable[[str], bool]) -> None:
    """Import ``file`` and send the outcome; never returns into the checker's code."""
    real_exit = os._exit
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)

    def recording_exit(status: int) -> Any:
        caller = _user_frame(sys._getframe(1), is_user_code)
        connection.send(("exited", f"os._exit({status!r})", caller))
        real_exit(0)

    def alarm(signum: int, frame: FrameType | None) -> None:
        raise ImportTimedOut(f"still importing after {seconds:g} s")

    os._exit = recording_exit  # type: ignore[assignment]
    signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        _exec(file)
        outcome: tuple[str, str, FrameSummary | None] = ("ok", "", None)
    except ImportTimedOut as stopped:
        outcome = ("hung", f"{stopped}, stopped", locate(stopped))
    except SystemExit as exited:
        outcome = ("exited", f"SystemExit({exited.code!r})", locate(exited))
    except BaseException as error:  # noqa: BLE001 - the parent re-imports and reports it whole
        outcome = ("raised", f"{type(error).__name__}: {error}", locate(error))
    signal.setitimer(signal.ITIMER_REAL, 0)
    try:
        connection.send(outcome)
    finally:
        real_exit(0)


def _exec(file: Path) -> None:
    spec = importlib.util.spec_from_file_location(file.stem, file)
    assert spec is not None and spec.loader is not None  # checked by the caller
    sys.path.insert(0, str(file.resolve().parent))
    module = importlib.util.module_from_spec(spec)
    sys.modules[file.stem] = module
    spec.loader.exec_module(module)


def _user_frame(frame: FrameType, is_user_code: Callable[[str], bool]) -> FrameSummary | None:
    """The innermost frame of the user's code on the stack that ends at ``frame``."""
    frames = [f for f in traceback.extract_stack(frame) if is_user_code(f.filename)]
    return frames[-1] if frames else None
