"""The events the privacy tester searches, and the search.

An event is chosen on the *selection* runs of ``x`` and ``x'`` only; the tester then measures it
on fresh runs. So however many events and families are searched here, each (pair, direction)
makes exactly one test, and the Bonferroni count of the tester (``2 x pairs``) covers every
family below. The families:

* **values**: the whole output equal to one value (when there are at most
  :data:`MAX_CATEGORIES` distinct ones), the output's length, and equality on any one position
  (a category such as a bool, a string, ``None``, NaN or *missing*, or a number that takes few
  values, such as an index);
* **thresholds** ``s <= c``, ``s > c`` and bands ``a < s <= b`` on a statistic ``s`` of the
  output, at quantiles of its pooled selection values:
  - the number at one position;
  - the number at one position among the outputs where another position holds one value, or of
    one length (StatDP's categorical x threshold conjunctions, ``k == 2 and v < c``);
  - for outputs with several numeric positions: their sum, a linear projection fitted on the
    selection runs (difference of means over pooled variances), and the least and the largest of
    their per-position quantile ranks (all positions above, or all below, their quantile ``q``);
  - a learned score, DP-Sniper's idea (:mod:`checker.empirical.learned`): a classifier trained on
    half of the selection runs to tell ``M(x)`` from ``M(x')``; its thresholds are scored on the
    other half.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

import numpy as np
from scipy.stats import norm

from checker.empirical.shapes import NAN, NONE, VALUES, Features
from checker.empirical.statistics import loss_lower_bounds

MAX_CATEGORIES = 64
"""A position (or whole output) with at most this many distinct values gets equality events."""

MASK_VALUES = 4
"""A position with at most this many distinct values conditions thresholds on other positions."""

FINE_LEVELS = tuple(np.linspace(0.005, 0.995, 80))
"""Quantile levels of the thresholds on one position's number."""

COARSE_LEVELS = tuple(np.linspace(0.05, 0.95, 19))
"""Quantile levels of the thresholds on conditioned and joint statistics."""

MAX_BAND_CUTS = 24
"""Bands ``a < s <= b`` are formed among at most this many of a statistic's cut points."""

MIN_SUPPORT = 0.01
"""A condition or a number seen in less than this share of the pooled outputs is not searched."""

SELECTION_ALPHA = 0.2
"""Confidence of the cautious loss estimate that events are ranked by."""

EXACT = 16
"""Events per family scored exactly (the best by the normal approximation)."""

Indicator = Callable[[Features], np.ndarray]
Values = Callable[[Features], np.ndarray]


@dataclass(frozen=True)
class Event:
    description: str
    indicator: Indicator


@dataclass(frozen=True)
class Statistic:
    """A number per output (NaN where it is undefined); its events are thresholds on it."""

    description: str
    values: Values
    levels: tuple[float, ...] = COARSE_LEVELS


def _equality(name: str, value: object) -> str:
    return f"{name} is NaN" if value is NAN else f"{name} == {value!r}"


def _distinct(codes: np.ndarray) -> list[int]:
    """The codes present, in order of first appearance, without :data:`NONE`."""
    present, first = np.unique(codes, return_index=True)
    return [int(c) for c in present[np.argsort(first)] if c != NONE]


def _at(j: int, c: int) -> Indicator:
    return lambda f: f.category_codes[j] == c


def _output_is(c: int) -> Indicator:
    return lambda f: f.key_codes == c


def value_events(pooled: Features) -> list[Event]:
    """The whole output, its length and each position equal to one value."""
    events = []
    if len(set(pooled.keys[:MAX_CATEGORIES * 8].tolist())) <= MAX_CATEGORIES:
        outputs = _distinct(pooled.key_codes)
        if len(outputs) <= MAX_CATEGORIES:
            events += [Event(_equality("output", VALUES[c]), _output_is(c)) for c in outputs]
    lengths = sorted(set(pooled.lengths.tolist()))
    if len(lengths) > 1:
        events += [Event(f"len(output) == {n}", lambda f, n=n: f.lengths == n) for n in lengths]
    for j, number in enumerate(pooled.numbers):
        values = _distinct(pooled.category_codes[j])
        if len(values) <= MAX_CATEGORIES:
            events += [Event(_equality(pooled.name(j), VALUES[c]), _at(j, c)) for c in values]
        finite = np.unique(number[np.isfinite(number)])
        if 0 < finite.size <= MAX_CATEGORIES:
            events += [Event(f"{pooled.name(j)} == {c:g}", lambda f, j=j, c=c: f.numbers[j] == c)
                       for c in finite]
    return events


def _conditions(pooled: Features) -> Iterator[tuple[str, Indicator, int | None]]:
    """Conditions for conjunctions: ``(description, indicator, position it reads or None)``."""
    lengths = sorted(set(pooled.lengths.tolist()))
    if len(lengths) > 1:
        for n in lengths:
            yield f"len(output) == {n}", (lambda f, n=n: f.lengths == n), None
    for j, number in enumerate(pooled.numbers):
        values = _distinct(pooled.category_codes[j])
        if len(values) <= MASK_VALUES:
            for c in values:
                yield _equality(pooled.name(j), VALUES[c]), _at(j, c), j
        finite = np.unique(number[np.isfinite(number)])
        if 0 < finite.size <= MASK_VALUES:
            for c in finite:
                yield f"{pooled.name(j)} == {c:g}", (lambda f, j=j, c=c: f.numbers[j] == c), j


def _numeric_positions(pooled: Features) -> list[int]:
    return [j for j, number in enumerate(pooled.numbers)
            if np.isfinite(number).mean() >= MIN_SUPPORT]


def _rank(sorted_values: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    return lambda v: np.searchsorted(sorted_values, v, side="right") / len(sorted_values)


def _joint(pooled: Features, x: Features, other: Features) -> list[Statistic]:
    """Sum, fitted projection, and all-above / all-below ranks over the positions that hold a
    finite number in (nearly) every output."""
    columns = [j for j, number in enumerate(pooled.numbers)
               if np.isfinite(number).mean() >= 1 - MIN_SUPPORT]
    if len(columns) < 2:
        return []
    names = ", ".join(pooled.name(j) for j in columns)

    def matrix(f: Features) -> np.ndarray:
        return np.column_stack([f.numbers[j] for j in columns])

    mean_x, mean_other = np.nanmean(matrix(x), axis=0), np.nanmean(matrix(other), axis=0)
    variance = np.nanvar(matrix(pooled), axis=0)
    weights = np.where(variance > 0, (mean_x - mean_other) / np.where(variance > 0, variance, 1),
                       0.0)
    ranks = [_rank(np.sort(pooled.numbers[j][np.isfinite(pooled.numbers[j])])) for j in columns]

    def rank_matrix(f: Features) -> np.ndarray:
        return np.column_stack([rank(f.numbers[j]) for rank, j in zip(ranks, columns)])

    statistics = [Statistic(f"sum({names})", lambda f: matrix(f).sum(axis=1)),
                  Statistic(f"least quantile rank of ({names})  [all above]",
                            lambda f: rank_matrix(f).min(axis=1)),
                  Statistic(f"largest quantile rank of ({names})  [all below]",
                            lambda f: rank_matrix(f).max(axis=1))]
    if np.any(weights != 0):
        shown = ", ".join(f"{w:.3g}" for w in weights)
        statistics.append(Statistic(f"projection [{shown}] . ({names})",
                                    lambda f: matrix(f) @ weights))
    return statistics


def statistics(pooled: Features, x: Features, other: Features) -> list[Statistic]:
    """Every statistic of the families above but the learned one."""
    positions = _numeric_positions(pooled)
    found = [Statistic(pooled.name(j), lambda f, j=j: f.numbers[j], FINE_LEVELS)
             for j in positions]
    for description, condition, reads in _conditions(pooled):
        mask = condition(pooled)
        if mask.mean() < MIN_SUPPORT:
            continue
        for j in positions:
            defined = np.isfinite(pooled.numbers[j])
            if j == reads or mask[defined].all():  # the condition holds wherever j has a number
                continue
            if defined[mask].mean() >= MIN_SUPPORT:
                found.append(Statistic(
                    f"{description} and {pooled.name(j)}",
                    lambda f, j=j, condition=condition: np.where(condition(f), f.numbers[j],
                                                                 np.nan)))
    return found + _joint(pooled, x, other)


@dataclass(frozen=True)
class Projection:
    """How events are ranked (ranking only: the test's validity does not depend on it): a
    cautious estimate of the loss, its Clopper-Pearson lower bound at :data:`SELECTION_ALPHA` on
    the selection runs (against the winner's curse of rare events), less the margin the test will
    need (the estimate minus the lower bound the same frequencies would give on ``trials`` fresh
    runs at the test's budget ``alpha``): the search prefers the events the test can confirm."""

    trials: int
    alpha: float

    def __call__(self, count_x: np.ndarray, count_other: np.ndarray, n: int) -> np.ndarray:
        """The scores; only the :data:`EXACT` best by a normal approximation get the exact
        (Clopper-Pearson) score, the others ``-inf``."""
        count_x, count_other = np.asarray(count_x, float), np.asarray(count_other, float)
        shortlist = np.argsort(-self._approximate(count_x, count_other, n))[:EXACT]
        scores = np.full(count_x.shape, -np.inf)
        x, other, scale = count_x[shortlist], count_other[shortlist], self.trials / n
        estimate = np.log(np.maximum(x, 0.5) / np.maximum(other, 0.5))
        test_margin = estimate - loss_lower_bounds(x * scale, other * scale, self.trials,
                                                   self.alpha)
        scores[shortlist] = loss_lower_bounds(x, other, n, SELECTION_ALPHA) - test_margin
        return scores

    def _approximate(self, count_x: np.ndarray, count_other: np.ndarray, n: int) -> np.ndarray:
        """The same score with each bound replaced by the delta method's normal one."""
        x, other = np.maximum(count_x, 0.5), np.maximum(count_other, 0.5)
        error = np.sqrt(np.maximum(1 - x / n, 0) / x + np.maximum(1 - other / n, 0) / other)
        z_selection, z_test = norm.isf(SELECTION_ALPHA), norm.isf(self.alpha)
        return np.log(x / other) - error * (z_selection + z_test * np.sqrt(n / self.trials))


@dataclass(frozen=True)
class Scored:
    score: float
    event: Event


def _best_threshold(statistic: Statistic, x: Features, other: Features,
                    score: Projection) -> Scored | None:
    """The best of ``s <= c``, ``s > c`` and ``a < s <= b`` over the statistic's cut points."""
    values_x, values_other = statistic.values(x), statistic.values(other)
    pooled = np.concatenate([values_x, values_other])
    pooled = pooled[np.isfinite(pooled)]
    if pooled.size == 0:
        return None
    cuts = np.concatenate([[-np.inf], np.unique(np.quantile(pooled, statistic.levels)), [np.inf]])
    below_x = np.searchsorted(np.sort(values_x[~np.isnan(values_x)]), cuts, side="right")
    below_other = np.searchsorted(np.sort(values_other[~np.isnan(values_other)]), cuts,
                                  side="right")
    ends = np.zeros(len(cuts), dtype=int), np.full(len(cuts), len(cuts) - 1)
    coarse = np.unique(np.linspace(0, len(cuts) - 1, MAX_BAND_CUTS).astype(int))
    low, high = np.triu_indices(len(coarse), k=1)
    low = np.concatenate([ends[0], np.arange(len(cuts)), coarse[low]])  # s <= c, s > c, bands
    high = np.concatenate([np.arange(len(cuts)), ends[1], coarse[high]])
    scores = score(below_x[high] - below_x[low], below_other[high] - below_other[low], len(x))
    best = int(np.argmax(scores))
    a, b = float(cuts[low[best]]), float(cuts[high[best]])
    values, name = statistic.values, statistic.description
    if a == -np.inf and b == np.inf:
        event = Event(f"{name} is defined", lambda f: ~np.isnan(values(f)))
    elif a == -np.inf:
        event = Event(f"{name} <= {b:.6g}", lambda f: values(f) <= b)
    elif b == np.inf:
        event = Event(f"{name} > {a:.6g}", lambda f: values(f) > a)
    else:
        event = Event(f"{a:.6g} < {name} <= {b:.6g}",
                      lambda f: (values(f) > a) & (values(f) <= b))
    return Scored(float(scores[best]), event)


def best_event(x: Features, other: Features, score: Projection,
               learned: Sequence[Statistic] = ()) -> Scored | None:
    """The event whose selection frequencies on ``x`` and ``x'`` score best, with its score
    (``None`` if no event can be formed). The ``learned`` statistics were fitted on the first
    half of these runs: their thresholds are placed and scored on the second half."""
    pooled = Features.concat([x, other])
    candidates: list[Scored] = []
    events = value_events(pooled)
    if events:
        counts_x = np.array([int(e.indicator(x).sum()) for e in events])
        counts_other = np.array([int(e.indicator(other).sum()) for e in events])
        scores = score(counts_x, counts_other, len(x))
        i = int(np.argmax(scores))
        candidates.append(Scored(float(scores[i]), events[i]))
    for statistic in statistics(pooled, x, other):
        candidates += filter(None, [_best_threshold(statistic, x, other, score)])
    half = min(len(x), len(other)) // 2
    for statistic in learned:
        candidates += filter(None, [_best_threshold(statistic, x.take(slice(half, None)),
                                                    other.take(slice(half, None)), score)])
    return max(candidates, key=lambda s: s.score, default=None)
