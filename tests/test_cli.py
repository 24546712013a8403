"""``dpcert`` as a reviewer and a CI pipeline use it: exit codes, tables, JSON, outside modules."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def test_list_shows_the_catalogue(run_cli):
    result = run_cli("list")
    assert result.returncode == 0
    for name in ("make_clamp", "make_bounded_mean", "make_randomized_response",
                 "make_partition_map", "lemma.sized_path"):
        assert name in result.stdout


@pytest.mark.slow  # over 2 s: make test-slow
def test_check_one_mechanism_brings_its_lemmas(run_cli):
    result = run_cli("check", "clamp")
    assert result.returncode == 0
    assert "lemma.row_transform" in result.stdout and "make_bounded_mean" not in result.stdout


@pytest.mark.slow
def test_wrong_variant_module_outside_the_repository(run_cli, tmp_path):
    module = tmp_path / "wrong_variant.py"
    shutil.copy(TESTS / "wrong_variants.py", module)
    with module.open("a") as text:  # its first entry: the others are checked in the repository
        text.write("\nMECHANISMS = MECHANISMS[:1]\n")
    result = run_cli("check", str(module), "--jobs", "2")
    assert result.returncode == 1
    assert "refuted (confirmed)" in result.stdout
    assert "confirmed on the real implementation" in result.stdout
    assert "VIOLATION: make_clamp_half_map(lower=" in result.stdout
    assert "gate failed" in result.stdout


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_module_that_fails_to_import(run_cli, tmp_path):
    result = run_cli("check", write(tmp_path, "broken.py", "import no_such_module_here\n"))
    assert result.returncode == 2
    assert "failed to import" in result.stderr and "no_such_module_here" in result.stderr


def test_module_without_mechanisms(run_cli, tmp_path):
    result = run_cli("check", write(tmp_path, "empty.py", "x = 1\n"))
    assert result.returncode == 2 and "declares no MECHANISMS" in result.stderr


def test_an_entry_whose_constructor_is_a_module_is_a_load_error(run_cli, tmp_path):
    source = ("from obligations.base import Entry\n"
              "import math\n"
              "MECHANISMS = [Entry('bare_clamp', math, ())]\n")
    result = run_cli("check", write(tmp_path, "bare.py", source))
    assert result.returncode == 2
    assert ("failed to import: EntryConstructorError: Entry 'bare_clamp': the constructor is "
            "<module 'math") in result.stderr


@pytest.mark.slow  # over 2 s: make test-slow
def test_a_mechanism_with_no_obligations_still_owes_its_statements(run_cli, tmp_path):
    source = ("from obligations.base import Entry\n"
              "from mechanisms.core import Constructor\n"
              "from mechanisms.make_clamp import build_clamp, make_clamp\n"
              "MECHANISMS = [Entry('bare_clamp', Constructor('make_bare_clamp', build_clamp)),\n"
              "              Entry('catalogue_clamp', make_clamp)]\n")
    result = run_cli("check", write(tmp_path, "bare.py", source))
    assert result.returncode == 1
    assert "bare_clamp stability: not proved" in result.stdout
    assert "make_bare_clamp's build loads ops, which is neither a constructor" in result.stdout
    unproved = {line.split(" ")[0] for line in result.stdout.splitlines()
                if ": not proved:" in line}
    assert unproved == {"bare_clamp"}  # the catalogue's constructor has its theorems of the run


@pytest.mark.slow  # over 2 s: make test-slow
def test_obligation_that_times_out_fails_the_gate(run_cli, tmp_path):
    source = ("import time\n"
              "from obligations.base import ComputedGoal, Decision, Entry, Kind, Obligation\n"
              "def slow():\n"
              "    time.sleep(60)\n"
              "    return Decision(True)\n"
              "SLOW = Obligation('slow.proof', Kind.LEMMA, 'takes a minute', 'x',\n"
              "                  lambda: [ComputedGoal('sleep', 'sympy', slow)])\n"
              "MECHANISMS = [Entry('slow', None, (SLOW,))]\n")
    result = run_cli("check", write(tmp_path, "slow.py", source), "--timeout", "1")
    assert result.returncode == 1
    assert "unknown (time-out)" in result.stdout and "gate failed" in result.stdout


@pytest.mark.slow  # over 2 s: make test-slow
def test_usage_errors_exit_2(run_cli):
    assert run_cli("check", "no_such_mechanism").returncode == 2
    assert run_cli("check", "--timeout", "0").returncode == 2
    assert run_cli().returncode == 2
    assert run_cli("check", "missing_file.py").returncode == 2


def test_duplicate_obligation_ids_are_refused(run_cli, tmp_path):
    source = ("from obligations.base import Entry\n"
              "from obligations.make_clamp import clamp_obligations\n"
              "from mechanisms import make_clamp\n"
              "MECHANISMS = [Entry('my_clamp', make_clamp, clamp_obligations(make_clamp))]\n")
    result = run_cli("check", "clamp", write(tmp_path, "twice.py", source))
    assert result.returncode == 2
    assert "clamp.output_domain is declared by both make_clamp and my_clamp" in result.stderr


EXACT_REAL_MEAN = (
    "import z3\n"
    "from obligations.base import Entry, Kind, Obligation, Z3Goal\n"
    "def goals():\n"
    "    a, b = z3.Reals('a b')\n"
    "    return [Z3Goal('the mean of a and b lies between them, in exact reals',\n"
    "                   z3.And(a <= (a + b) / 2, (a + b) / 2 <= b), [a <= b], {'a': a, 'b': b})]\n"
    "MEAN = Obligation('real_mean.output_domain', Kind.OUTPUT_DOMAIN, 'mean in [a, b]', 'x',\n"
    "                  goals, arithmetic='exact real arithmetic')\n"
    "MECHANISMS = [Entry('real_mean', None, (MEAN,))]\n")


@pytest.mark.slow  # over 2 s: make test-slow
def test_arithmetic_ieee_refuses_a_proof_under_exact_arithmetic(run_cli, tmp_path):
    module = write(tmp_path, "real_mean.py", EXACT_REAL_MEAN)
    accepted = run_cli("check", module)
    assert accepted.returncode == 0, accepted.stdout
    assert "proved under exact arithmetic (exact real arithmetic)" in accepted.stdout
    out = tmp_path / "ieee.json"
    refused = run_cli("check", module, "--arithmetic", "ieee", "--json", str(out))
    assert refused.returncode == 1
    assert ("--arithmetic ieee: real_mean.output_domain is proved under exact arithmetic"
            in refused.stdout)
    assert "gate failed" in refused.stdout and "under the code's own arithmetic" in refused.stdout
    document = json.loads(out.read_text())
    assert document["gate"]["exact_arithmetic_only"] == ["real_mean.output_domain"]
    assert document["options"]["arithmetic"] == "ieee"
    [obligation] = document["mechanisms"][0]["obligations"]
    assert obligation["under_exact_arithmetic"] is True


def test_arithmetic_takes_only_exact_or_ieee(run_cli):
    result = run_cli("check", "clamp", "--arithmetic", "float32")
    assert result.returncode == 2 and "invalid choice" in result.stderr
