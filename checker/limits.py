"""Limits for code the checker runs in its own process (the examples it builds): a time limit, and
no way out of the process."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from typing import Any, Iterator


class TimeLimitExpired(BaseException):
    """A :func:`time_limit` ran out while code ran inside it: a ``BaseException``, so that no
    ``except Exception`` of the code it stops (a user's, or a rule's that counts what the code
    raises) takes it for the code's own failure. The limit's block turns it into
    ``TimeoutError``."""


_DEADLINES: list[list] = []
"""The limits active now, outermost first: ``[deadline (time.monotonic()), expired]``."""


def _arm() -> None:
    """The timer for the nearest deadline not yet expired (an expired one is being raised)."""
    waiting = [d for d, expired in _DEADLINES if not expired]
    signal.setitimer(signal.ITIMER_REAL, 0 if not waiting
                     else max(min(waiting) - time.monotonic(), 1e-6))


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise ``TimeoutError`` out of this block after ``seconds`` (Unix, main thread), so a
    mechanism whose code never returns cannot stall the checker. Limits nest: an inner one
    never extends an outer one, and an outer one that runs out inside an inner block passes
    through it."""
    limit = [time.monotonic() + seconds, False]

    def expire(signum, frame):
        nearest = min((entry for entry in _DEADLINES if not entry[1]), key=lambda e: e[0],
                      default=None)
        if nearest is not None:  # else a stale alarm: every limit is already being raised
            nearest[1] = True
            raise TimeLimitExpired(nearest)
    previous = signal.signal(signal.SIGALRM, expire)
    _DEADLINES.append(limit)
    _arm()
    try:
        yield
    except TimeLimitExpired as expired:
        if expired.args[0] is not limit:  # an outer limit's
            raise
        raise TimeoutError(f"still running after {seconds} s") from None
    finally:
        _DEADLINES[:] = [entry for entry in _DEADLINES if entry is not limit]
        _arm()
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
