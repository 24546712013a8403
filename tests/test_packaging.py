"""dpcert as installed (issue 15, "Packaging and paths"): the console script loads targets from
the current directory as ``python -m checker`` does; a wheel, installed outside the repository,
checks the catalogue and binds its proofs; building it prints no setuptools deprecation."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DPCERT = Path(sys.executable).parent / "dpcert"
"""The console script of the environment running the tests (``make venv`` installs it)."""
PROGRAMS = {"console script": [str(DPCERT)], "python -m checker": [sys.executable, "-m", "checker"]}
SOURCES = ("pyproject.toml", "README.md", "mechanisms", "obligations", "checker", "proofs_tex")
"""What a wheel is built from."""

TARGET = textwrap.dedent('''
    """A Laplace(1) release of a number: 1-DP for |x - x'| <= 1 (seeded by the tester)."""
    import random

    def release(x):
        return x + random.expovariate(1.0) - random.expovariate(1.0)
''')
SHARED = textwrap.dedent('''
    """Imported by twins/trivial.py from the folder the command runs in."""
    from obligations.base import ComputedGoal, Decision, Entry, Kind, Obligation

    TRUE = Obligation("trivial.true", Kind.LEMMA, "true", "x",
                      lambda: [ComputedGoal("true", "sympy", lambda: Decision(True))])
    MECHANISMS = [Entry("trivial", None, (TRUE,))]
''')


def run(command: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    """``command`` from ``cwd`` with no PYTHONPATH: what is importable is what is installed."""
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"})


@pytest.mark.slow  # over 2 s: make test-slow
@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_a_target_named_as_a_module_loads_from_the_current_directory(program, tmp_path):
    (tmp_path / "mytarget.py").write_text(TARGET)
    result = run([*PROGRAMS[program], "audit", "mytarget:release", "--epsilon", "1",
                  "--pairs", pairs(tmp_path), "--samples", "2000"], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no violation found in 2000 runs" in result.stdout


def pairs(folder: Path) -> str:
    """A ``--pairs`` file with the one pair 0, 1."""
    path = folder / "pairs.json"
    path.write_text("[[0, 1]]")
    return str(path)


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_a_checked_file_imports_from_the_current_directory(program, tmp_path):
    (tmp_path / "shared_checks.py").write_text(SHARED)
    (tmp_path / "twins").mkdir()
    (tmp_path / "twins" / "trivial.py").write_text("from shared_checks import MECHANISMS\n")
    result = run([*PROGRAMS[program], "check", "twins/trivial.py"], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "trivial.true" in result.stdout and "gate passed" in result.stdout


def build_wheel(folder: Path) -> tuple[Path, str]:
    """A wheel of dpcert built from a copy of its sources (the repository is left untouched), and
    pip's verbose log of the build (the build back end's warnings included)."""
    source = folder / "source"
    source.mkdir()
    for name in SOURCES:
        origin = ROOT / name
        if origin.is_dir():
            shutil.copytree(origin, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "build", "generated"))
        else:
            shutil.copy(origin, source / name)
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "--wheel-dir",
                 str(folder / "dist"), str(source)], folder)
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = (folder / "dist").glob("dpcert-*.whl")
    return wheel, built.stdout + built.stderr


def install(wheel: Path, folder: Path) -> Path:
    """A fresh venv with only ``wheel`` installed in it; its dependencies are this environment's,
    reached by a ``.pth`` line (a path line: the ``.pth`` files there, dpcert's editable finder
    among them, are not run). Being outside that venv's library folders, they are entered by the
    code scans (:mod:`obligations.reach`) as a real install's are not: more is scanned, never
    less. Returns the venv's bin folder."""
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    installed = run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
                     "install", "--no-deps", str(wheel)], folder)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    (site_packages(venv / "bin") / "dpcert_test_dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n")
    return venv / "bin"


def site_packages(bin_: Path) -> Path:
    """The site-packages folder of the venv whose bin folder is ``bin_``."""
    return Path(run([str(bin_ / "python"), "-c",
                     "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                    bin_).stdout.strip())


@pytest.mark.slow
def test_a_wheel_installed_outside_the_repository_checks_the_catalogue(tmp_path):
    """The gate, --strict, from a folder outside the repository, on the first of three shards:
    every proof bound and fresh (the first shard checks all of them), read from the wheel's own
    proofs_tex, and the obligations of a third of the mechanisms (row transforms, folds, a
    conversion and reviewed modules among them) proved on the installed code."""
    wheel, log = build_wheel(tmp_path)
    warnings = [line for line in log.splitlines()
                if "deprecat" in line.lower() or "absent from the `packages`" in line]
    assert not warnings, warnings  # setuptools's metadata warnings (license table, templates)
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"proofs_tex/make_clamp.tex", "proofs_tex/definitions.tex", "proofs_tex/dpcert.sty",
            "checker/report/templates/report.html.j2"} <= names
    bin_ = install(wheel, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = run([str(bin_ / "python"), "-c",
                 "import checker.proofs.binding as b; print(b.PROOFS)"], elsewhere)
    assert where.stdout.strip() == str(site_packages(bin_) / "proofs_tex"), where
    scanned = run([str(bin_ / "python"), "-c",
                   "import importlib, obligations.reach as r; "
                   "m = importlib.import_module('mechanisms.make_clamp'); "
                   "print(m.__file__, r._user_code(m))"], elsewhere)
    assert scanned.stdout.split() == [str(site_packages(bin_) / "mechanisms" / "make_clamp.py"),
                                      "True"], scanned  # the scans enter the installed code
    result = run([str(bin_ / "dpcert"), "check", "--strict", "--jobs", "2", "--shard", "1/3"],
                 elsewhere)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "gate passed" in result.stdout
    proofs = [line for line in result.stdout.splitlines() if ".tex" in line]
    assert len(proofs) == len(list((ROOT / "proofs_tex").glob("*.tex"))), proofs
    assert all("bound" in line and "fresh" in line for line in proofs), proofs



def test_dpcert_s_own_code_is_scanned_even_under_a_library_folder(monkeypatch):
    """A wheel puts mechanisms/ in site-packages, whose code the scans do not enter: dpcert's own
    packages are entered wherever they are installed; other installed code still is not."""
    import importlib
    import json

    from obligations import reach
    module = importlib.import_module("mechanisms.make_clamp")
    monkeypatch.setattr(reach, "LIBRARY_ROOTS", (*reach.LIBRARY_ROOTS, str(ROOT)))
    assert reach._user_code(module)
    assert reach._user_code(module.make_clamp.build)
    assert not reach._user_code(json)
