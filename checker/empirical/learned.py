"""Learned events in the style of DP-Sniper (Bichsel, Steffen, Bogunovic and Vechev, IEEE S&P
2021): a score fitted to tell ``M(x)`` from ``M(x')``, whose threshold is an event. The best
event for a pair is ``{o : Pr[M(x) = o] / Pr[M(x') = o] > t}``; both scores estimate that ratio.

* :func:`classifier_statistic`: scikit-learn's histogram gradient boosting (NaN is "no value")
  on the output's length, the number at each position and a code for the category at each;
* :func:`cell_statistic`: the outputs cut into cells (length, categories, and the quantile bin
  of each number), each cell scored by its smoothed log-ratio of counts.

Both are fitted on the first half of the selection runs; :func:`checker.empirical.events.best_event`
places and scores their thresholds on the second half, and the tester measures the chosen event
on fresh runs, so nothing a score was fitted on is counted in the test.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from checker.empirical.events import Statistic
from checker.empirical.shapes import NONE, Features

MIN_TRAINING = 200
"""Fewer runs per input than this in the training half: no classifier is trained."""

LEVELS = tuple(np.linspace(0.02, 0.98, 49))
"""Quantile levels of the score at which thresholds are placed."""


def _columns(pooled: Features) -> Callable[[Features], np.ndarray]:
    """The function from features to the classifier's input matrix: the length if it varies,
    the positions that hold a number in some training output, and the category codes of the
    positions that hold a category in some (NaN where a number is)."""
    varying = len(set(pooled.lengths.tolist())) > 1
    numeric = [j for j, number in enumerate(pooled.numbers) if not np.isnan(number).all()]
    categorical = [j for j, codes in enumerate(pooled.category_codes) if (codes != NONE).any()]

    def matrix(f: Features) -> np.ndarray:
        columns = [f.lengths.astype(float)] if varying else []
        columns += [f.numbers[j] for j in numeric]
        columns += [np.where(f.category_codes[j] == NONE, np.nan, f.category_codes[j])
                    for j in categorical]
        return np.column_stack(columns) if columns else np.zeros((len(f), 1))
    return matrix


def classifier_statistic(x: Features, other: Features, seed: int) -> Statistic | None:
    """The classifier's probability that an output came from ``x``, trained on the first half
    of the selection runs ``x`` and ``other`` (``None`` when they are too few)."""
    half = min(len(x), len(other)) // 2
    if half < MIN_TRAINING:
        return None
    from sklearn.ensemble import HistGradientBoostingClassifier  # imported when first needed
    from threadpoolctl import threadpool_limits

    train_x, train_other = x.take(slice(0, half)), other.take(slice(0, half))
    matrix = _columns(Features.concat([train_x, train_other]))
    inputs = np.vstack([matrix(train_x), matrix(train_other)])
    labels = np.r_[np.ones(half), np.zeros(half)]
    model = HistGradientBoostingClassifier(max_iter=30, learning_rate=0.3, max_leaf_nodes=15,
                                           early_stopping=False, random_state=seed)
    with threadpool_limits(1):  # OpenMP threads cost more than they save on these sizes
        model.fit(np.nan_to_num(inputs, nan=np.nan, posinf=1e300, neginf=-1e300), labels)

    def score(f: Features) -> np.ndarray:
        data = np.nan_to_num(matrix(f), nan=np.nan, posinf=1e300, neginf=-1e300)
        with threadpool_limits(1):
            return model.predict_proba(data)[:, 1]
    return Statistic("learned score (gradient boosting, trained on half the selection runs)",
                     score, LEVELS)


CELL_BINS = 16
"""Quantile bins per numeric position of the cells."""

MAX_CELLS = 4096
"""More distinct cells than this in the training half: too sparse to estimate, no cell score."""


def cell_statistic(x: Features, other: Features) -> Statistic | None:
    """Each output's cell scored by ``ln((n_x + 1) / (n_x' + 1))``, its counts in the first half
    of the selection runs (``None`` when they are too few, or the cells too many)."""
    half = min(len(x), len(other)) // 2
    if half < MIN_TRAINING:
        return None
    train_x, train_other = x.take(slice(0, half)), other.take(slice(0, half))
    pooled = Features.concat([train_x, train_other])
    edges = [np.unique(np.quantile(n[np.isfinite(n)], np.linspace(0, 1, CELL_BINS + 1)[1:-1]))
             if np.isfinite(n).any() else None for n in pooled.numbers]

    def cells(f: Features) -> list[tuple]:
        columns = [f.lengths.tolist()] + [c.tolist() for c in f.category_codes]
        columns += [np.where(np.isfinite(n), np.searchsorted(e, n), -1).tolist()
                    for n, e in zip(f.numbers, edges) if e is not None]
        return list(zip(*columns))

    counts_x, counts_other = _count(cells(train_x)), _count(cells(train_other))
    if len(counts_x.keys() | counts_other.keys()) > MAX_CELLS:
        return None
    ratio = {cell: float(np.log((counts_x.get(cell, 0) + 1) / (counts_other.get(cell, 0) + 1)))
             for cell in counts_x.keys() | counts_other.keys()}

    def score(f: Features) -> np.ndarray:
        return np.fromiter((ratio.get(cell, 0.0) for cell in cells(f)), dtype=float,
                           count=len(f))
    return Statistic("cell log-ratio (counts per cell on half the selection runs)", score,
                     LEVELS)


def _count(cells: list[tuple]) -> dict[tuple, int]:
    counts: dict[tuple, int] = {}
    for cell in cells:
        counts[cell] = counts.get(cell, 0) + 1
    return counts
