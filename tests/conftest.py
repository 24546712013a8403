"""Shared fixtures: the wrong-variants module and a runner for the CLI as a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def run_cli(tmp_path):
    """``dpcert ARGS`` in a fresh process, run from a folder outside the repository."""
    def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "checker", *args], cwd=tmp_path,
                              capture_output=True, text=True, timeout=timeout,
                              env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                                   "COLUMNS": "200"})
    return run


@pytest.fixture(scope="session")
def checked():
    """``checked(obligation_id)``: a wrong twin's obligation checked in a fresh process
    (:class:`tests.helpers.FreshChecker`), once per test process."""
    from tests.helpers import FreshChecker
    checker = FreshChecker()
    yield checker
    checker.close()


@pytest.fixture(autouse=True, scope="session")
def search_cache_outside_the_repository(tmp_path_factory):
    """The CLI's cache of refutation searches (``.dpcert_cache`` below the current folder by
    default) in a temporary folder: a test run writes nothing into the repository."""
    patch = pytest.MonkeyPatch()
    patch.setenv("DPCERT_CACHE_DIR", str(tmp_path_factory.mktemp("search-cache")))
    yield
    patch.undo()
