"""A learned event in the style of DP-Sniper (Bichsel, Steffen, Bogunovic and Vechev, IEEE S&P
2021): a classifier trained to tell ``M(x)`` from ``M(x')``, whose score, thresholded, is an event.

The classifier (scikit-learn's histogram gradient boosting, which takes NaN as "no value") reads
an output's length, the number at each position and a code for the category at each position. It
is trained on the first half of the selection runs; :func:`checker.empirical.events.best_event`
places and scores its thresholds on the second half, and the tester measures the chosen one on
fresh runs, so nothing the classifier saw is counted in the test.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from checker.empirical.events import Statistic
from checker.empirical.shapes import Features

MIN_TRAINING = 200
"""Fewer runs per input than this in the training half: no classifier is trained."""

LEVELS = tuple(np.linspace(0.02, 0.98, 49))
"""Quantile levels of the score at which thresholds are placed."""


def _columns(pooled: Features) -> Callable[[Features], np.ndarray]:
    """The function from features to the classifier's input matrix: the length if it varies,
    the positions that hold a number in some training output, and category codes fixed by the
    training outputs (an unseen category gets NaN)."""
    codes = [{v: float(i) for i, v in enumerate(dict.fromkeys(c.tolist())) if v is not None}
             for c in pooled.categories]
    varying = len(set(pooled.lengths.tolist())) > 1
    numeric = [j for j, number in enumerate(pooled.numbers) if not np.isnan(number).all()]

    def matrix(f: Features) -> np.ndarray:
        columns = [f.lengths.astype(float)] if varying else []
        columns += [f.numbers[j] for j in numeric]
        columns += [np.fromiter((code.get(v, np.nan) for v in c.tolist()), dtype=float,
                                count=len(f)) for code, c in zip(codes, f.categories) if code]
        return np.column_stack(columns) if columns else np.zeros((len(f), 1))
    return matrix


def learned_statistic(x: Features, other: Features, seed: int) -> Statistic | None:
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
                     score, LEVELS, holdout=True)
