"""Time limits for code the checker runs in its own process (the report's example builds)."""

from __future__ import annotations

import contextlib
import signal
from typing import Iterator


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
