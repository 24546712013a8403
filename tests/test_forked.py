"""Runs drawn and pairs screened in forked workers: the same audit as in one process, and no
worker (nor anything a worker started) outlives a stop.

Every audit here is seeded; the outputs compared are exact, not statistical.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from checker.audit import audit, sampler_of
from checker.empirical import forked, privacy, shapes
from checker.empirical.forked import WorkerError
from checker.interrupts import descendants

pytestmark = pytest.mark.skipif(not forked.can_fork(), reason="needs fork")


def leaky_labels(tag: str):
    """A category seen on its own input only, named after ``tag`` (so that it is new to this
    process and each worker gives it a code of its own), and a number that leaks: Laplace noise
    of scale 0.5 against a claim of 1."""
    def target(x: int) -> tuple[str, float]:
        label = random.choice((f"{tag}-only-on-{x}", "shared"))
        return label, x + random.expovariate(2.0) * random.choice((-1, 1))
    return target


PAIRS = [(0, 1), (2, 3), (4, 5)]


def _audit(target, jobs: int):
    return audit(target, 1.0, pairs=PAIRS, samples=25_000, seed=4, jobs=jobs)


def _tests(result) -> list[tuple]:
    return [(r.x, r.x_prime, r.event, r.count_x, r.count_x_prime) for r in result.results]


@pytest.mark.slow  # over 2 s: make test-slow
def test_workers_draw_and_screen_the_same_runs_as_one_process(monkeypatch):
    calls = []
    run = forked.run
    monkeypatch.setattr(forked, "run", lambda jobs, *rest: calls.append(len(jobs)) or
                        run(jobs, *rest))
    target = leaky_labels("same-runs")
    together = _audit(target, jobs=2)  # first: its categories are new to this process
    assert calls[:2] == [6, 3] and len(calls) == 3  # 6 inputs drawn, 3 pairs screened, trials
    alone = _audit(target, jobs=1)
    assert len(calls) == 3
    assert _tests(together) == _tests(alone)
    assert together.verdict == alone.verdict == "violation"
    assert any("only-on" in r.event for r in alone.results)  # the categories were tested


@pytest.mark.slow  # over 2 s: make test-slow
def test_codes_given_in_workers_are_translated(monkeypatch):
    """Without :func:`shapes.adopt`, two workers' first new categories share one code, and the
    events count the wrong outputs: the audit differs from the one-process audit."""
    target = leaky_labels("untranslated")
    with monkeypatch.context() as patched:
        patched.setattr(shapes, "adopt", lambda made, base, values: made)
        untranslated = _audit(target, jobs=2)
    assert _tests(untranslated) != _tests(_audit(target, jobs=1))


def test_a_job_that_raises_is_named():
    def bad(progress):
        raise ValueError("no such input")
    with pytest.raises(WorkerError, match="job 1 raised ValueError: no such input"):
        forked.run([lambda progress: 1, bad], 2, lambda runs: None)


def test_a_worker_killed_by_the_system_is_an_error_not_a_hang():
    def killed(progress):
        os.kill(os.getpid(), signal.SIGKILL)
    with pytest.raises(WorkerError, match="exit code -9"):
        forked.run([killed, killed], 2, lambda runs: None)


def test_results_come_back_in_order_with_the_progress_they_reported():
    told = []

    def job(i):
        def work(progress):
            progress(i)
            return i * i
        return work
    assert forked.run([job(i) for i in range(7)], 2, told.append) == [i * i for i in range(7)]
    assert sum(told) == sum(range(7))


class Stop(Exception):
    pass


def _starts_a_sleeper(folder):
    def job(progress):
        sleeper = subprocess.Popen(["sleep", "600"])
        (folder / str(sleeper.pid)).write_text(str(os.getpid()))
        while True:
            progress(1)
            time.sleep(0.01)
    return job


def _gone(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    return not stat.exists() or stat.read_text().rpartition(")")[2].split()[0] == "Z"


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
@pytest.mark.parametrize("how", ["tick", "deadline", "KeyboardInterrupt"])
def test_a_stop_leaves_no_worker_and_nothing_a_worker_started(how, tmp_path):
    seen = []

    def tick(runs: int) -> None:
        seen.append(runs)
        if how != "deadline" and sum(seen) >= 20:
            raise Stop if how == "tick" else KeyboardInterrupt
    deadline = time.monotonic() + 1.0 if how == "deadline" else None
    raised = KeyboardInterrupt if how == "KeyboardInterrupt" else Stop
    with pytest.raises(raised):
        forked.run([_starts_a_sleeper(tmp_path)] * 3, 2, tick, deadline, Stop)
    started = {int(p.name): int(p.read_text()) for p in tmp_path.iterdir()}
    assert started  # a worker ran a job that started a sleeper
    assert all(_gone(pid) for pid in [*started, *started.values()])


def test_an_audit_past_its_timeout_in_workers_is_unknown_and_leaves_no_child():
    def slow(x: int) -> float:
        time.sleep(0.0005)
        return x + random.random()
    before = set(descendants())
    result = audit(slow, 1.0, pairs=[(0, 1), (2, 3)], samples=50_000, timeout=1.5, jobs=2)
    assert result.verdict == "unknown" and result.stopped == "timeout"
    assert result.results == []
    assert set(descendants()) <= before


def test_small_audits_stay_in_this_process(monkeypatch):
    monkeypatch.setattr(forked, "run", lambda *a: pytest.fail("forked for a small audit"))
    assert audit(leaky_labels("small"), 1.0, pairs=PAIRS,
                 samples=privacy.PARALLEL_RUNS // 6 // 2, seed=1, jobs=2).results


@pytest.mark.slow  # over 2 s: make test-slow
def test_a_mechanism_with_randomness_of_its_own_is_sampled_in_this_process(monkeypatch):
    """A generator made once, outside the tester's seeds: forked workers would each inherit a
    copy of its state and draw the same noise (the trial runs a replay of the selection runs)."""
    monkeypatch.setattr(forked, "run", lambda *a: pytest.fail("forked an unseeded mechanism"))
    own = np.random.default_rng(11)

    def laplace_own_generator(x: int) -> float:
        return x + own.laplace(scale=1.0)
    result = audit(laplace_own_generator, 1.0, pairs=PAIRS, samples=25_000, seed=4, jobs=2)
    assert result.results and result.verdict == "none found"


def test_the_seed_probe_tells_seeded_runs_from_a_private_generator():
    seeded = privacy.PrivacyTester(sampler_of(leaky_labels("probe")), workers=2)
    assert seeded._runs_follow_seeds(0)
    own = np.random.default_rng(3)
    private = privacy.PrivacyTester(sampler_of(lambda x: x + own.random()), workers=2)
    assert not private._runs_follow_seeds(0)
