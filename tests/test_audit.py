"""``dpcert audit``: loading targets, default pairs, exit codes, JSON."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from bench import targets
from checker.audit import audit, load_target, sampler_of
from checker.empirical.pairs import default_pairs
from checker.loading import LoadError

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.fixture
def target_file(tmp_path):
    path = tmp_path / "mechanisms_elsewhere.py"
    shutil.copy(BENCH / "targets.py", path)
    return path


def test_load_target_from_a_file_and_a_module(target_file):
    assert load_target(f"{target_file}:laplace_correct")(0.0) is not None
    assert load_target("bench.targets:noisy_max_index") is targets.noisy_max_index


@pytest.mark.parametrize("spec, message", [
    ("no_colon", "must be path/to/file.py:callable"),
    ("missing.py:f", "no such file"),
    ("no.such.module:f", "failed to import"),
    ("bench.targets:absent", "no callable named 'absent'"),
])
def test_load_target_errors(spec, message):
    with pytest.raises(LoadError, match=message):
        load_target(spec)


def test_default_pairs_follow_the_kind_of_dataset():
    assert default_pairs(targets.laplace_correct, seed=0)[0] == (0, 1)
    vectors = default_pairs(targets.noisy_max_index, seed=0)
    assert all(len(x) == len(y) and max(abs(a - b) for a, b in zip(x, y)) <= 1
               for x, y in vectors)
    assert {len(x) for x, _ in vectors} == {5, 10}  # StatDP's two lengths
    categories = default_pairs(targets.randomized_response, seed=0)
    assert ("b", "c") in categories or ("c", "b") in categories


def count_per_key(rows):
    """A noisy count per key (keys 0..4), Lap(1) each: 1-DP only if a record touches one key."""
    counts = np.zeros(5)
    for record in rows:
        for k in record:
            counts[k] += 1
    return tuple(counts + np.random.laplace(0, 1, 5))


def count_first_key(rows):
    """The same, each record counted on its first key only: 1-DP under add/remove one record."""
    counts = np.zeros(5)
    for record in rows:
        if record:
            counts[record[0]] += 1
    return tuple(counts + np.random.laplace(0, 1, 5))


@pytest.mark.slow  # over 2 s: make test-slow
def test_record_datasets_get_add_remove_one_pairs_and_a_joint_leak_is_found():
    """Seeded; each audit's false-alarm probability is at most alpha = 1e-3. The leak shows in
    no one count (each moves by 1) but in all of them together."""
    pairs = default_pairs(count_per_key, seed=0)
    assert all(len(y) == len(x) + 1 and y[:len(x)] == x for x, y in pairs)
    assert any(len(y[-1]) == 5 for _, y in pairs)  # a record touching every key
    assert default_pairs(count_first_key, seed=0) == pairs  # "if record:" accepts a vector probe
    leak = audit(count_per_key, 1.0, samples=5_000, seed=0)
    assert leak.verdict == "violation"  # a joint event: sum, ranks, projection or learned
    assert audit(count_first_key, 1.0, samples=5_000, seed=0).verdict == "none found"


def test_batch_must_return_n_outputs():
    def target(x):
        return 0.0
    target.batch = lambda x, n: [0.0] * (n - 1)
    import numpy as np
    with pytest.raises(ValueError, match="returned 9 outputs, not 10"):
        sampler_of(target)(0.0, 10, np.random.default_rng(0))


def test_audit_rejects_a_negative_epsilon():
    with pytest.raises(ValueError):
        audit(targets.laplace_correct, -1.0)


@pytest.mark.slow  # over 4 s: make test-slow
def test_cli_audit_exit_codes_and_json(run_cli, target_file, tmp_path):
    out = tmp_path / "audit.json"
    wrong = run_cli("audit", f"{target_file}:laplace_half_noise", "--epsilon", "1",
                    "--samples", "5000", "--json", str(out))
    assert wrong.returncode == 1, wrong.stderr
    assert "VIOLATION" in wrong.stdout
    document = json.loads(out.read_text())
    assert document["schema"] == "dpcert.audit/1" and document["violation"] is True
    right = run_cli("audit", f"{target_file}:laplace_correct", "--epsilon", "1", "--samples", "5000")
    assert right.returncode == 0
    assert "no violation found in 5000 runs per input" in right.stdout
    assert "sampling cannot prove privacy" in right.stdout


@pytest.mark.slow  # over 2 s: make test-slow
def test_cli_audit_with_pairs_file(run_cli, target_file, tmp_path):
    pairs = tmp_path / "pairs.json"
    pairs.write_text(json.dumps([["a", "b"], ["b", "c"]]))
    result = run_cli("audit", f"{target_file}:randomized_response", "--epsilon",
                     str(targets.RR_TWO_CATEGORY_EPSILON), "--pairs", str(pairs), "--samples", "5000")
    assert result.returncode == 1 and "'a'" in result.stdout


@pytest.mark.slow  # over 4 s: make test-slow
def test_cli_audit_errors_exit_2(run_cli, target_file, tmp_path):
    assert run_cli("audit", "nowhere.py:f", "--epsilon", "1").returncode == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert run_cli("audit", f"{target_file}:laplace_correct", "--epsilon", "1",
                   "--pairs", str(bad)).returncode == 2
    broken = tmp_path / "raises.py"
    broken.write_text("def f(x):\n    raise RuntimeError('boom')\n")
    result = run_cli("audit", f"{broken}:f", "--epsilon", "1")
    assert result.returncode == 2 and "accepts none of" in result.stderr
    assert "RuntimeError: boom" in result.stderr  # what the target raised, not only a guess
    assert run_cli("audit", f"{target_file}:laplace_correct").returncode == 2  # no --epsilon
    empty = tmp_path / "empty.json"
    empty.write_text("[]")
    nothing = run_cli("audit", f"{target_file}:laplace_correct", "--epsilon", "1",
                      "--pairs", str(empty))
    assert nothing.returncode == 2 and "holds no pairs" in nothing.stderr


@pytest.mark.parametrize("jobs", ["0", "-1", "two", "1.5"])
def test_cli_audit_refuses_a_bad_jobs_count(run_cli, target_file, jobs):
    result = run_cli("audit", f"{target_file}:laplace_correct", "--epsilon", "1", "--jobs", jobs)
    assert result.returncode == 2 and "--jobs must be a whole number >= 1" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_cli_audit_gives_the_same_tests_with_one_job_or_two(run_cli, target_file, tmp_path):
    """Big enough to draw and screen in workers (4 inputs of 10,000 runs each)."""
    tested = []
    for jobs in ("1", "2"):
        out = tmp_path / f"audit-{jobs}.json"
        result = run_cli("audit", f"{target_file}:laplace_half_noise", "--epsilon", "1",
                         "--pairs", str(_pairs_file(tmp_path, [[0.0, 1.0], [1.0, 3.0]])),
                         "--samples", "50000", "--jobs", jobs, "--json", str(out))
        assert result.returncode == 1, result.stdout + result.stderr
        tested.append([(r["x"], r["x_prime"], r["event"], r["count_x"], r["count_x_prime"])
                       for r in json.loads(out.read_text())["results"]])
    assert tested[0] == tested[1] and len(tested[0]) == 4


def _pairs_file(folder, pairs) -> str:
    path = folder / "pairs.json"
    path.write_text(json.dumps(pairs))
    return str(path)


def test_an_audit_over_no_pairs_is_refused():
    with pytest.raises(ValueError, match="no pairs to audit"):
        audit(lambda x: x, 1.0, pairs=[])


@pytest.mark.slow
def test_cli_check_empirical(run_cli):
    clean = run_cli("check", "clamp", "--empirical", "--samples", "2000")
    assert clean.returncode == 0, clean.stdout
    assert "empirical tests" in clean.stdout and "no violation found" in clean.stdout
    mean = run_cli("check", "bounded_mean", "--empirical", "--samples", "2000")
    assert mean.returncode == 0, mean.stdout  # its map now includes the float rounding term
    assert "no violation found" in mean.stdout and "gate passed" in mean.stdout


def leaks_with_probability_five_percent(x):
    """With probability 0.05 the input itself, else -1: (0, 0.05)-DP on inputs 0 and 1, and not
    epsilon-DP for any finite epsilon (the output 1 has probability 0.05 on 1, 0 on 0)."""
    return x if np.random.random() < 0.05 else -1


@pytest.mark.parametrize("delta, verdict", [(0.05, "none found"), (0.01, "violation"),
                                            (0.0, "violation")])
def test_an_approximate_claim_is_violated_only_below_its_delta(delta, verdict):
    """Seeded; false-alarm probability of each audit <= alpha = 1e-3 (the 'none found' case is
    the exact claim, so a violation there would be a false alarm)."""
    result = audit(leaks_with_probability_five_percent, 0.0, pairs=[(0, 1)], samples=20_000,
                   seed=3, delta=delta, jobs=1)
    assert result.verdict == verdict, result.summary()
    if verdict == "violation" and delta > 0:
        worst = result.violations[0]
        assert worst.delta == delta and delta < worst.excess_lower <= 0.05
        assert "> delta" in result.summary()


@pytest.mark.slow  # over 2 s: make test-slow
def test_cli_audit_takes_a_delta_and_refuses_a_bad_one(run_cli, tmp_path):
    target = tmp_path / "leak.py"
    target.write_text("import numpy as np\n\n\ndef leak(x):\n"
                      "    return x if np.random.random() < 0.05 else -1\n")
    pairs = tmp_path / "pairs.json"
    pairs.write_text("[[0, 1]]")
    out = tmp_path / "audit.json"
    ok = run_cli("audit", f"{target}:leak", "--epsilon", "0", "--delta", "0.05", "--pairs",
                 str(pairs), "--samples", "2000", "--jobs", "1", "--json", str(out))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert json.loads(out.read_text())["delta"] == 0.05
    refused = run_cli("audit", f"{target}:leak", "--epsilon", "0", "--delta", "1")
    assert refused.returncode == 2 and "--delta must be a number in [0, 1)" in refused.stderr


def test_a_target_on_the_global_generators_gives_the_same_runs_however_the_draws_are_split():
    """The tester sizes its calls by the time they take; the runs must not depend on it."""
    def target(x):
        return (random.random(), float(np.random.random()), x)
    whole = sampler_of(target)(0, 10, np.random.default_rng(7))
    rng = np.random.default_rng(7)
    split = sampler_of(target)(0, 3, rng) + sampler_of(target)(0, 7, rng)
    assert whole == split and len(set(whole)) == 10
