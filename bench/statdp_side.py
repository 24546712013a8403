"""StatDP's side of ``make bench``: pystatdp (the packaged StatDP, ``pystatdp==0.1.3.1``) run on
the mechanisms of :mod:`bench.targets`, with StatDP's own published post-processing, its
pair-length bug worked around, one NumPy stream per worker process, and a time limit.

Nothing here imports pystatdp at module import time, so the fast tests can check the pair fix and
the post-processing without it.

**The pair-length bug.** ``pystatdp.generators.generate_databases`` slices its "half-half" and
"x-shape" patterns with a stray ``+ 1``: for 5 queries it pairs ``[1, 1, 1, 1, 1]`` with a vector
of 7 entries (12 for 10 queries). Those are not neighbours; a correct report noisy max or sparse
vector run on them differs wildly (an index 5 or 6 that the 5-query input cannot give), so
pystatdp raises false alarms on correct mechanisms. ``detect_counterexample`` calls the name
``generate_databases`` imported into the package namespace (``pystatdp/__init__.py``), so
:func:`patch_pystatdp` replaces ``pystatdp.generate_databases`` with
:func:`neighbouring_databases`: the same eight patterns (two under ``ONE_DIFFER``), each entry
moved by at most 1, both vectors of the requested length.

**One stream per worker.** pystatdp runs the mechanism in a ``multiprocessing.Pool`` whose
workers are forked from the bench process: each inherits the same state of NumPy's global
generator and would draw the same numbers as its sibling (two workers, one stream: half the
samples it counts are copies). Every function given to StatDP first calls
:func:`seed_this_process`, which reseeds NumPy's global generator once per process from
``(seed, round, pid)``; :func:`worker_streams` checks that two workers draw different numbers.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time
from typing import Any, Callable

import numpy as np

from bench import targets

PATTERNS = ("one below", "one above", "one above rest below", "one below rest above",
            "half-half", "all above", "all below", "x-shape")
"""The candidate pairs of StatDP's generator, in its order; ``ONE_DIFFER`` keeps the first two."""


# --- the pair fix ---------------------------------------------------------------------------

def pattern_pair(pattern: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """One of StatDP's neighbouring query vectors of length ``n`` (each entry moved by <= 1)."""
    low, high = n // 2, n - n // 2
    ones = [1] * n
    rest_zero, rest_two = [0] * (n - 1), [2] * (n - 1)
    pairs = {
        "one below": (ones, [0] + [1] * (n - 1)),
        "one above": (ones, [2] + [1] * (n - 1)),
        "one above rest below": (ones, [2] + rest_zero),
        "one below rest above": (ones, [0] + rest_two),
        "half-half": (ones, [2] * low + [0] * high),
        "all above": (ones, [2] * n),
        "all below": (ones, [0] * n),
        "x-shape": ([1] * low + [0] * high, [0] * low + [1] * high),
    }
    first, second = pairs[pattern]
    return np.array(first, dtype=int), np.array(second, dtype=int)


def neighbouring_databases(algorithm: Callable[..., Any], num_input: int,
                           default_kwargs: dict[str, Any], sensitivity: Any = None
                           ) -> tuple[tuple[np.ndarray, np.ndarray, dict[str, Any]], ...]:
    """A drop-in for ``pystatdp.generate_databases`` with pairs of the right length.

    ``sensitivity`` is pystatdp's ``ALL_DIFFER`` (all eight patterns, the default) or
    ``ONE_DIFFER`` (one query moves: "one below" and "one above")."""
    if num_input < 2:
        raise ValueError(f"need at least 2 queries, got {num_input}")
    code = algorithm.__code__
    budget = code.co_varnames[:code.co_argcount][1]
    if budget not in default_kwargs:
        raise ValueError(f"{algorithm.__name__}: give its privacy budget {budget!r} in "
                         "default_kwargs")
    one_differ = getattr(sensitivity, "name", "ALL_DIFFER") == "ONE_DIFFER"
    chosen = PATTERNS[:2] if one_differ else PATTERNS
    return tuple((*pattern_pair(p, int(num_input)), dict(default_kwargs)) for p in chosen)


def patch_pystatdp() -> Any:
    """Make ``detect_counterexample`` use :func:`neighbouring_databases`; returns the module."""
    import pystatdp
    pystatdp.generate_databases = neighbouring_databases
    return pystatdp


# --- one NumPy stream per process -----------------------------------------------------------

_STREAM = {"seed": 0, "round": 0, "pid": None}


def start_round(seed: int, round_: int) -> None:
    """Set before a pool is forked: its workers seed themselves from ``(seed, round_, pid)``."""
    _STREAM.update(seed=int(seed), round=int(round_), pid=None)


def seed_this_process() -> None:
    """Reseed NumPy's global generator the first time it is called in each process."""
    pid = os.getpid()
    if _STREAM["pid"] != pid:
        sequence = np.random.SeedSequence([_STREAM["seed"], _STREAM["round"], pid])
        np.random.seed(sequence.generate_state(1)[0])
        _STREAM["pid"] = pid


def _draws(_: int, reseed: bool = True) -> tuple[int, tuple[float, ...]]:
    if reseed:
        seed_this_process()
    time.sleep(0.05)  # let the other worker take a task too
    return os.getpid(), tuple(np.random.random(4).tolist())


def _draws_inherited(i: int) -> tuple[int, tuple[float, ...]]:
    return _draws(i, reseed=False)


def worker_streams(reseed: bool = True, workers: int = 2) -> dict[int, tuple[float, ...]]:
    """The first draws of each worker of a forked pool, by pid (the bench's check that the
    workers' streams differ; with ``reseed=False``, the inherited stream StatDP would use)."""
    np.random.seed(12345)
    start_round(0, 0)
    with mp.get_context("fork").Pool(workers) as pool:
        drawn = pool.map(_draws if reseed else _draws_inherited, range(4 * workers), chunksize=1)
    first: dict[int, tuple[float, ...]] = {}
    for pid, values in drawn:
        first.setdefault(pid, values)
    return first


# --- the mechanisms as StatDP ran them (its published post-processing) ----------------------
# One plain module-level function each, not a factory: pystatdp reads each algorithm's
# ``__code__`` for its argument names and pickles it by name into its pool's workers.

def _hamming_to_half_true(answers: tuple[Any, ...], n: int) -> int:
    """Positions where the answers differ from "first half True, rest False" (of length ``n``);
    a position past the answers' end counts as different, as in StatDP."""
    pattern = [i < n // 2 for i in range(n)]
    length = max(n, len(answers))
    return sum(1 for i in range(length)
               if i >= len(answers) or i >= n or answers[i] != pattern[i])


def sd_noisy_max_laplace_index(queries, epsilon):
    seed_this_process()
    return targets.noisy_max_laplace_index(queries, epsilon)


def sd_noisy_max_laplace_value(queries, epsilon):
    seed_this_process()
    return targets.noisy_max_laplace_value(queries, epsilon)


def sd_noisy_max_exponential_index(queries, epsilon):
    seed_this_process()
    return targets.noisy_max_exponential_index(queries, epsilon)


def sd_noisy_max_exponential_value(queries, epsilon):
    seed_this_process()
    return targets.noisy_max_exponential_value(queries, epsilon)


def sd_histogram(queries, epsilon):
    """StatDP releases the first bin only."""
    seed_this_process()
    return targets.histogram(queries, epsilon)[0]


def sd_histogram_eps(queries, epsilon):
    seed_this_process()
    return targets.histogram_eps(queries, epsilon)[0]


def sd_svt(queries, epsilon, N, T):
    """StatDP's SVT returns the number of False answers."""
    seed_this_process()
    return targets.svt(queries, epsilon, N, T).count(False)


def sd_isvt1(queries, epsilon, N, T):
    """iSVT1-3: the Hamming distance of the answers to "first half True, rest False"."""
    seed_this_process()
    return _hamming_to_half_true(targets.isvt1(queries, epsilon, N, T), len(queries))


def sd_isvt2(queries, epsilon, N, T):
    seed_this_process()
    return _hamming_to_half_true(targets.isvt2(queries, epsilon, N, T), len(queries))


def sd_isvt3(queries, epsilon, N, T):
    seed_this_process()
    return _hamming_to_half_true(targets.isvt3(queries, epsilon, N, T), len(queries))


def sd_isvt4(queries, epsilon, N, T):
    """(number of False answers, last entry). StatDP returns the last entry as it is (a float,
    or False when no query passed); it is a float here (False as 0.0) because pystatdp stores
    the column with the type of one sample run, which is a float on almost every run."""
    seed_this_process()
    answers = targets.isvt4(queries, epsilon, N, T)
    return answers.count(False), float(answers[-1])


def sd_noisy_counts_first(queries, epsilon):
    """The per-key counts as StatDP sees them: queries (the true count vector), not rows; the
    first noisy count released, as in its histogram. The same function serves the wrong and the
    correct per-key count: in count space they are the same mechanism."""
    seed_this_process()
    return float(targets.noisy_counts(queries, epsilon)[0])


# --- running pystatdp with a time limit -----------------------------------------------------

EVENT_ITERATIONS = 100_000
DETECT_ITERATIONS = 500_000
RUNS_PER_DECISION = EVENT_ITERATIONS + DETECT_ITERATIONS
"""pystatdp's defaults: each candidate input is run 100,000 times to choose the event, and the
chosen pair 500,000 times to test it."""

P_THRESHOLD = 0.05
"""StatDP's paper reads p < 0.05 as a counterexample."""


def warm_up() -> None:
    """Compile pystatdp's numba p-value function once, before any pool is forked and timed."""
    from pystatdp.hypotest import test_statistics
    test_statistics(50, 10, 0.7, 1000)


def _detect(algorithm, kwargs, sensitivity_name, seed, round_, patched, connection) -> None:
    os.setpgid(0, 0)  # the pool's workers join this group, so a time limit ends them all
    import logging
    import pystatdp
    from pystatdp.generators import generate_databases
    pystatdp.generate_databases = neighbouring_databases if patched else generate_databases
    sensitivity = getattr(pystatdp, sensitivity_name)
    start_round(seed, round_)
    start = time.perf_counter()
    result = pystatdp.pystatdp().detect_counterexample(
        algorithm, targets.CLAIM, default_kwargs=kwargs, sensitivity=sensitivity, quiet=True,
        loglevel=logging.WARNING)
    seconds = time.perf_counter() - start
    epsilon, p, d1, d2, _, event = result[0]
    connection.send({"p": p, "d1": d1, "d2": d2, "event": repr(event), "seconds": seconds})
    connection.close()


def run_statdp(algorithm: Callable[..., Any], kwargs: dict[str, Any], sensitivity: str,
               time_limit: float, seed: int = 0, round_: int = 0, patched: bool = True
               ) -> dict[str, Any]:
    """``detect_counterexample(algorithm, 0.7, default_kwargs=kwargs, sensitivity=...)`` with its
    defaults, in a child process that is ended (with its pool) after ``time_limit`` seconds.

    Returns ``p``, ``d1``, ``d2``, ``event`` and ``seconds`` (StatDP's own wall time, its pool
    included), or ``{"timeout": time_limit}``, or ``{"error": message}``."""
    context = mp.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_detect, args=(algorithm, dict(kwargs, epsilon=targets.CLAIM),
                                                  sensitivity, seed, round_, patched, send))
    child.start()
    send.close()
    if receive.poll(time_limit):
        try:
            answer = receive.recv()
        except EOFError:
            answer = None
        child.join()
        return answer if answer is not None else {"error": f"exit code {child.exitcode}"}
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    child.join()
    return {"timeout": time_limit}
