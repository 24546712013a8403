"""Mechanisms written outside the catalogue, as plain callables to audit black-box: each wrong
variant next to its correct partner. Each callable draws from NumPy's global generator (seeded by
the auditor) and offers ``batch(dataset, n)`` for vectorised sampling.

Claims (``EPSILON`` or ``claim``) are what each mechanism says of itself.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

EPSILON = 1.0


def with_batch(batch: Callable[[Any, int], Any]) -> Callable[[Any], Any]:
    """A one-output callable whose ``.batch(dataset, n)`` returns ``n`` outputs."""
    def single(dataset: Any) -> Any:
        return batch(dataset, 1)[0]
    single.batch = batch
    return single


def laplace(scale: float) -> Callable[[Any], Any]:
    """``x + Lap(scale)`` on a number (sensitivity 1): ``1/scale``-DP."""
    return with_batch(lambda x, n: float(x) + np.random.laplace(0.0, scale, n))


laplace_correct = laplace(1 / EPSILON)
laplace_half_noise = laplace(0.5 / EPSILON)  # wrong: claims EPSILON, is 2 * EPSILON


def noisy_max(return_value: bool) -> Callable[[Any], Any]:
    """Report noisy max over query answers (each moves by at most 1), ``Lap(2/EPSILON)`` noise."""
    def batch(queries: Any, n: int) -> Any:
        noisy = np.asarray(queries, dtype=float)[None, :] + np.random.laplace(0.0, 2 / EPSILON,
                                                                              (n, len(queries)))
        return noisy.max(axis=1) if return_value else noisy.argmax(axis=1)
    return with_batch(batch)


noisy_max_index = noisy_max(return_value=False)
noisy_max_value = noisy_max(return_value=True)  # wrong: the noisy value leaks more than the index

CATEGORIES = ("a", "b", "c")
PROB = 0.75
RR_EPSILON = math.log(PROB * (len(CATEGORIES) - 1) / (1 - PROB))  # ln 6, the correct claim
RR_TWO_CATEGORY_EPSILON = math.log(PROB / (1 - PROB))  # ln 3: the two-category formula, wrong at t = 3


def _rr_batch(arg: Any, n: int) -> Any:
    honest = np.random.random(n) < PROB
    if arg in CATEGORIES:
        index = CATEGORIES.index(arg)
        lie = np.random.randint(0, len(CATEGORIES) - 1, n)
        lie = lie + (lie >= index)
        chosen = np.where(honest, index, lie)
    else:
        chosen = np.random.randint(0, len(CATEGORIES), n)
    return np.array(CATEGORIES, dtype=object)[chosen]


randomized_response = with_batch(_rr_batch)


# --------------------------------------------------------------------------------------------
# StatDP's benchmark (Ding et al., CCS 2018; the sparse-vector variants from Lyu, Su and Li,
# VLDB 2017), written again here as plain single-run callables ``f(queries, epsilon, ...)``.
# Each returns the mechanism's natural output, as a Python value: what ``dpcert audit`` sees.
# ``bench/statdp_side.py`` applies StatDP's own published post-processing on top for StatDP.
# Noise comes from NumPy's global generator (seeded by the auditor; reseeded once per worker
# process on StatDP's side).
# --------------------------------------------------------------------------------------------

CLAIM = 0.7
"""The epsilon every mechanism of StatDP's benchmark claims here."""

SVT_KWARGS = {"N": 1, "T": 0.5}
"""Lyu-Su-Li Algorithm 1 as StatDP's benchmark runs it: stop after N = 1 True, threshold 0.5."""

ISVT_KWARGS = {"N": 1, "T": 1.0}
"""The wrong sparse vectors as StatDP's benchmark runs them."""

KEYS = 5
"""The keys 0..4 of the per-key counts."""


def _query_vector(queries: Any) -> np.ndarray:
    vector = np.asarray(queries, dtype=float)
    if vector.ndim != 1 or vector.size == 0:
        raise TypeError(f"expected a non-empty list of query answers, got {queries!r}")
    return vector


def noisy_max_laplace_index(queries: Any, epsilon: float) -> int:
    """Report noisy max: ``Lap(2/epsilon)`` on each query, the index of the largest (correct)."""
    q = _query_vector(queries)
    return int(np.argmax(q + np.random.laplace(0.0, 2.0 / epsilon, q.size)))


def noisy_max_laplace_value(queries: Any, epsilon: float) -> float:
    """The same noisy maximum, but its value is released (wrong: the value leaks)."""
    q = _query_vector(queries)
    return float(np.max(q + np.random.laplace(0.0, 2.0 / epsilon, q.size)))


def noisy_max_exponential_index(queries: Any, epsilon: float) -> int:
    """Report noisy max with one-sided ``Exp(scale 2/epsilon)`` noise, the index (correct)."""
    q = _query_vector(queries)
    return int(np.argmax(q + np.random.exponential(2.0 / epsilon, q.size)))


def noisy_max_exponential_value(queries: Any, epsilon: float) -> float:
    """Exponential noise, the value of the maximum released (wrong)."""
    q = _query_vector(queries)
    return float(np.max(q + np.random.exponential(2.0 / epsilon, q.size)))


def histogram(queries: Any, epsilon: float) -> tuple[float, ...]:
    """Every bin plus ``Lap(1/epsilon)``: correct when neighbours differ by 1 in one bin."""
    q = _query_vector(queries)
    return tuple((q + np.random.laplace(0.0, 1.0 / epsilon, q.size)).tolist())


def histogram_eps(queries: Any, epsilon: float) -> tuple[float, ...]:
    """The same histogram with scale ``epsilon`` instead of ``1/epsilon`` (wrong for eps < 1)."""
    q = _query_vector(queries)
    return tuple((q + np.random.laplace(0.0, epsilon, q.size)).tolist())


def _sparse_vector(queries: Any, threshold_scale: float, query_scale: float, at_least: bool,
                   cutoff: int | None, release_value: bool, T: float) -> tuple[Any, ...]:
    """One run of a sparse vector: the noisy threshold is drawn once, then each query gets its own
    noise (none when ``query_scale`` is 0) and answers whether it passes (``>=`` or ``>``).
    Stops after ``cutoff`` passing answers (never when ``None``); a passing answer is ``True``, or
    the noisy query's value when ``release_value``."""
    q = _query_vector(queries)
    noisy_threshold = T + np.random.laplace(0.0, threshold_scale)
    answers: list[Any] = []
    passed = 0
    for query in q:
        noisy = query + (np.random.laplace(0.0, query_scale) if query_scale else 0.0)
        above = noisy >= noisy_threshold if at_least else noisy > noisy_threshold
        if not above:
            answers.append(False)
            continue
        answers.append(float(noisy) if release_value else True)
        passed += 1
        if cutoff is not None and passed >= cutoff:
            break
    return tuple(answers)


def svt(queries: Any, epsilon: float, N: int, T: float) -> tuple[bool, ...]:
    """Lyu-Su-Li Algorithm 1 (correct): threshold ``T + Lap(2/eps)``, query noise
    ``Lap(4N/eps)``, ``>=``, stops after ``N`` True answers."""
    return _sparse_vector(queries, 2.0 / epsilon, 4.0 * N / epsilon, True, N, False, T)


def isvt1(queries: Any, epsilon: float, N: int, T: float) -> tuple[bool, ...]:
    """Wrong: no noise on the queries, and no cutoff."""
    return _sparse_vector(queries, 2.0 / epsilon, 0.0, True, None, False, T)


def isvt2(queries: Any, epsilon: float, N: int, T: float) -> tuple[bool, ...]:
    """Wrong: query noise ``Lap(2/eps)`` that does not grow with N, and no cutoff."""
    return _sparse_vector(queries, 2.0 / epsilon, 2.0 / epsilon, True, None, False, T)


def isvt3(queries: Any, epsilon: float, N: int, T: float) -> tuple[bool, ...]:
    """Wrong: threshold ``Lap(4/eps)``, query noise ``Lap(4/(3 eps))`` (too little), ``>``,
    cutoff N."""
    return _sparse_vector(queries, 4.0 / epsilon, 4.0 / (3.0 * epsilon), False, N, False, T)


def isvt4(queries: Any, epsilon: float, N: int, T: float) -> tuple[Any, ...]:
    """Wrong: threshold ``Lap(2/eps)``, query noise ``Lap(2N/eps)``, ``>``, cutoff N, and the
    noisy query value is released in place of True (``(False, False, 3.21)``)."""
    return _sparse_vector(queries, 2.0 / epsilon, 2.0 * N / epsilon, False, N, True, T)


def _records(records: Any) -> list[tuple[int, ...]]:
    """A dataset of records, each a tuple (or list) of the keys 0..KEYS-1 it touches."""
    if isinstance(records, (str, bytes)) or not hasattr(records, "__iter__"):
        raise TypeError(f"expected a list of records (tuples of keys), got {records!r}")
    checked = []
    for record in records:
        if not isinstance(record, (tuple, list)) or not record:
            raise TypeError(f"a record is a non-empty tuple of keys, got {record!r}")
        for k in record:
            if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < KEYS:
                raise ValueError(f"a key is an int in 0..{KEYS - 1}, got {k!r}")
        checked.append(tuple(int(k) for k in record))
    return checked


def noisy_counts(counts: Any, epsilon: float) -> np.ndarray:
    """The release of both per-key count mechanisms: each count plus ``Lap(1/epsilon)``."""
    c = np.asarray(counts, dtype=float)
    return c + np.random.laplace(0.0, 1.0 / epsilon, c.size)


def count_per_key(records: Any, epsilon: float) -> tuple[float, ...]:
    """A noisy count per key, each record counted towards every key it touches (wrong: a record
    touching k keys moves k counts, so adding it costs k * epsilon)."""
    counts = np.zeros(KEYS)
    for record in _records(records):
        for k in set(record):
            counts[k] += 1
    return tuple(noisy_counts(counts, epsilon).tolist())


def count_first_key(records: Any, epsilon: float) -> tuple[float, ...]:
    """The correct partner: each record counts towards its first key only."""
    counts = np.zeros(KEYS)
    for record in _records(records):
        counts[record[0]] += 1
    return tuple(noisy_counts(counts, epsilon).tolist())
