"""Helpers shared by test modules."""

from __future__ import annotations

from checker.limits import time_limit  # noqa: F401 - re-exported for the tests


class ScriptedRng:
    """An rng whose first ``randrange`` returns ``sample`` and whose next one (the Bernoulli coin
    of ``sample_bernoulli_rational``, ``u < numerator``) makes the coin come out ``honest``."""

    def __init__(self, sample: int, honest: bool) -> None:
        self.draws = [lambda bound: sample, lambda bound: 0 if honest else bound - 1]

    def randrange(self, bound: int) -> int:
        return self.draws.pop(0)(bound)


CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars")
"""Debian's Chromium, headless, with nothing that reaches for the network (this machine has none)."""


def chromium(page: str, *args: str, profile: str) -> str:
    """Run headless Chromium on ``page`` (a path); returns its standard output."""
    import subprocess
    command = ["chromium", *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args, f"file://{page}"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout
