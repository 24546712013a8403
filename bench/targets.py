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
