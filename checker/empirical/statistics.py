"""Exact binomial confidence bounds (Clopper-Pearson) and the privacy-loss bound built on them."""

from __future__ import annotations

import math

from scipy.stats import beta


def clopper_pearson_lower(successes: int, trials: int, alpha: float) -> float:
    """One-sided lower bound: ``Pr[p < bound] <= alpha`` for the true success probability."""
    if successes == 0:
        return 0.0
    return float(beta.ppf(alpha, successes, trials - successes + 1))


def clopper_pearson_upper(successes: int, trials: int, alpha: float) -> float:
    """One-sided upper bound: ``Pr[p > bound] <= alpha``."""
    if successes == trials:
        return 1.0
    return float(beta.ppf(1 - alpha, successes + 1, trials - successes))


def loss_lower_bound(count_x: int, count_other: int, trials: int, alpha: float) -> float:
    """A lower confidence bound on ``ln(Pr[M(x) in E] / Pr[M(x') in E])`` from ``trials`` runs of
    each: wrong with probability at most ``alpha`` (``alpha / 2`` for each of the two bounds)."""
    lower = clopper_pearson_lower(count_x, trials, alpha / 2)
    upper = clopper_pearson_upper(count_other, trials, alpha / 2)
    return -math.inf if lower == 0.0 else math.log(lower / upper)


def loss_upper_bound(count_x: int, count_other: int, trials: int, alpha: float) -> float:
    """The matching upper confidence bound on the same log-ratio (``inf`` if ``x'`` never hit)."""
    upper = clopper_pearson_upper(count_x, trials, alpha / 2)
    lower = clopper_pearson_lower(count_other, trials, alpha / 2)
    return math.inf if lower == 0.0 else math.log(upper / lower)


def loss_estimate(count_x: int, count_other: int, trials: int) -> float:
    """The plain estimate ``ln(p_hat / q_hat)``, with half a count added where one is zero."""
    return math.log(max(count_x, 0.5) / max(count_other, 0.5))
