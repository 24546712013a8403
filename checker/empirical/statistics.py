"""Exact binomial confidence bounds (Clopper-Pearson) and the privacy-loss bound built on them."""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
from scipy.optimize import brentq
from scipy.special import gammaln, logsumexp
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
    return float(loss_lower_bounds(np.array([count_x]), np.array([count_other]), trials, alpha)[0])


def loss_lower_bounds(count_x: np.ndarray, count_other: np.ndarray, trials: int,
                      alpha: float) -> np.ndarray:
    """:func:`loss_lower_bound` for arrays of counts at once (``-inf`` where ``count_x`` is 0)."""
    count_x, count_other = np.asarray(count_x, dtype=float), np.asarray(count_other, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        lower = np.where(count_x > 0, beta.ppf(alpha / 2, np.maximum(count_x, 1),
                                               trials - count_x + 1), 0.0)
        upper = np.where(count_other < trials,
                         beta.ppf(1 - alpha / 2, count_other + 1,
                                  np.maximum(trials - count_other, 1)), 1.0)
        return np.where(lower > 0, np.log(lower / upper), -np.inf)


def conditional_loss_lower_bound(count_x: int, count_other: int, trials: int,
                                 alpha: float) -> float:
    """A lower confidence bound on ``ln(p / q)`` (``p``, ``q`` the event's probabilities under
    ``x`` and ``x'``) from the conditional law of ``count_x`` given ``count_x + count_other``:
    Fisher's noncentral hypergeometric law with odds ratio ``psi = p(1-q) / (q(1-p))``, whose
    upper tail grows with ``psi``. With ``psi_low`` its one-sided ``alpha - gamma`` lower bound
    and ``p_up`` the Clopper-Pearson upper bound on ``p`` at ``gamma = alpha / 10``:
    ``p / q = psi (1-p)/(1-q) >= psi_low (1 - p_up)``, wrong with probability at most ``alpha``.
    Tighter than :func:`loss_lower_bound` on rare events: it prices the two counts' noise
    together rather than bounding each apart."""
    if count_x == 0:
        return -math.inf
    gamma = alpha / 10
    total = count_x + count_other

    log_tail = fisher_log_tail(count_x, trials, total)

    def excess(log_psi: float) -> float:
        return math.exp(log_tail(log_psi)) - (alpha - gamma)

    low, high = -LOG_ODDS_RANGE, LOG_ODDS_RANGE
    if excess(low) >= 0:
        log_psi = low
    elif excess(high) <= 0:
        log_psi = high
    else:
        log_psi = brentq(excess, low, high, xtol=1e-9)
    p_up = clopper_pearson_upper(count_x, trials, gamma)
    return -math.inf if p_up >= 1 else log_psi + math.log1p(-p_up)


def fisher_log_tail(count: int, trials: int, total: int) -> Callable[[float], float]:
    """``ln Pr[X >= count]`` as a function of ``ln psi``, for ``X`` of Fisher's noncentral
    hypergeometric law: ``total`` draws from ``trials`` marked and ``trials`` unmarked items,
    ``Pr[X = k]`` proportional to ``C(trials, k) C(trials, total - k) psi^k`` on
    ``max(0, total - trials) <= k <= min(total, trials)``. The binomial terms are summed once
    in logs, so each ``psi`` costs one log-sum-exp (SciPy's ``nchypergeom_fisher.sf`` gives the
    same numbers, far slower: the tests compare the two)."""
    support = np.arange(max(0, total - trials), min(total, trials) + 1, dtype=float)
    log_weight = (gammaln(trials + 1) - gammaln(support + 1) - gammaln(trials - support + 1)
                  + gammaln(trials + 1) - gammaln(total - support + 1)
                  - gammaln(trials - total + support + 1))
    upper = support >= count

    def log_tail(log_psi: float) -> float:
        terms = log_weight + support * log_psi
        return float(logsumexp(terms[upper]) - logsumexp(terms)) if upper.any() else -math.inf
    return log_tail


LOG_ODDS_RANGE = 30.0
"""The conditional bound searches ``ln psi`` in ``[-30, 30]`` (a loss beyond 30 is reported as
30, a lower bound still)."""


def loss_upper_bound(count_x: int, count_other: int, trials: int, alpha: float) -> float:
    """The matching upper confidence bound on the same log-ratio (``inf`` if ``x'`` never hit)."""
    upper = clopper_pearson_upper(count_x, trials, alpha / 2)
    lower = clopper_pearson_lower(count_other, trials, alpha / 2)
    return math.inf if lower == 0.0 else math.log(upper / lower)


def loss_estimate(count_x: int, count_other: int, trials: int) -> float:
    """The plain estimate ``ln(p_hat / q_hat)``, with half a count added where one is zero."""
    return math.log(max(count_x, 0.5) / max(count_other, 0.5))
