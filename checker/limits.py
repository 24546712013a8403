"""Limits for code the checker runs in its own process (the examples it builds): a time limit, and
no way out of the process."""

from __future__ import annotations

import contextlib
import os
import signal
from typing import Any, Iterator


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise ``TimeoutError`` in the running Python code after ``seconds`` (Unix, main thread),
    so a mechanism whose code never returns cannot stall the checker."""
    def expire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class ExitAttempted(Exception):
    """Code run under :func:`no_exit` tried to end the process (``sys.exit``, ``os._exit``)."""


@contextlib.contextmanager
def no_exit() -> Iterator[None]:
    """Run a user's code that must not end the checker's process: ``os._exit`` and
    ``sys.exit`` inside raise :class:`ExitAttempted` instead (a failure of that code, never
    the checker's exit code)."""
    real_exit = os._exit

    def refused(status: Any) -> None:
        raise ExitAttempted(f"os._exit({status!r})")
    os._exit = refused  # type: ignore[assignment]
    try:
        yield
    except SystemExit as exited:
        raise ExitAttempted(f"SystemExit({exited.code!r})") from None
    finally:
        os._exit = real_exit
