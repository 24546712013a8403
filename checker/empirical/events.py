"""The events the privacy tester searches, and the search.

An event is chosen on the *selection* runs of ``x`` and ``x'`` only; the tester then measures it
on fresh runs. So however many events and families are searched here, each (pair, direction)
makes exactly one test, and the Bonferroni count of the tester (``2 x pairs``) covers every
family below. The families:

* **values**: the whole output equal to one value (when there are at most
  :data:`MAX_CATEGORIES` distinct ones), the output's length, and equality on any one position
  (a category such as a bool, a string, ``None``, NaN or *missing*, or a number that takes few
  values, such as an index);
* **thresholds** ``s <= c`` and ``s > c`` on a statistic ``s`` of the output, at quantiles of its
  pooled selection values:
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
from typing import Callable, Iterator

import numpy as np

from checker.empirical.shapes import NAN, Features
from checker.empirical.statistics import loss_lower_bounds

MAX_CATEGORIES = 64
"""A position (or whole output) with at most this many distinct values gets equality events."""

MASK_VALUES = 4
"""A position with at most this many distinct values conditions thresholds on other positions."""

FINE_LEVELS = tuple(np.linspace(0.005, 0.995, 80))
"""Quantile levels of the thresholds on one position's number."""

COARSE_LEVELS = tuple(np.linspace(0.05, 0.95, 19))
"""Quantile levels of the thresholds on conditioned and joint statistics."""

MIN_SUPPORT = 0.01
"""A condition or a number seen in less than this share of the pooled outputs is not searched."""

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
    holdout: bool = False
    """Fitted on the first half of the selection runs: scored on the second half only."""


def _equal(column: Callable[[Features], np.ndarray], value: object) -> Indicator:
    return lambda f: np.fromiter((v == value for v in column(f)), dtype=bool, count=len(f))


def _equality(name: str, value: object) -> str:
    return f"{name} is NaN" if value is NAN else f"{name} == {value!r}"


def _distinct(values: np.ndarray) -> list:
    return list(dict.fromkeys(v for v in values.tolist() if v is not None))


def value_events(pooled: Features) -> list[Event]:
    """The whole output, its length and each position equal to one value."""
    events = []
    outputs = _distinct(pooled.keys)
    if len(outputs) <= MAX_CATEGORIES:
        events += [Event(_equality("output", v), _equal(lambda f: f.keys, v)) for v in outputs]
    lengths = sorted(set(pooled.lengths.tolist()))
    if len(lengths) > 1:
        events += [Event(f"len(output) == {n}", lambda f, n=n: f.lengths == n) for n in lengths]
    for j, (category, number) in enumerate(zip(pooled.categories, pooled.numbers)):
        values = _distinct(category)
        if len(values) <= MAX_CATEGORIES:
            events += [Event(_equality(pooled.name(j), v), _equal(lambda f, j=j: f.categories[j], v))
                       for v in values]
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
    for j, (category, number) in enumerate(zip(pooled.categories, pooled.numbers)):
        values = _distinct(category)
        if len(values) <= MASK_VALUES:
            for v in values:
                yield _equality(pooled.name(j), v), _equal(lambda f, j=j: f.categories[j], v), j
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
            if j != reads and np.isfinite(pooled.numbers[j][mask]).mean() >= MIN_SUPPORT:
                found.append(Statistic(
                    f"{description} and {pooled.name(j)}",
                    lambda f, j=j, condition=condition: np.where(condition(f), f.numbers[j],
                                                                 np.nan)))
    return found + _joint(pooled, x, other)


@dataclass(frozen=True)
class Scored:
    score: float
    event: Event


def _best_threshold(statistic: Statistic, x: Features, other: Features,
                    alpha: float) -> Scored | None:
    values_x, values_other = statistic.values(x), statistic.values(other)
    pooled = np.concatenate([values_x, values_other])
    pooled = pooled[np.isfinite(pooled)]
    if pooled.size == 0:
        return None
    cuts = np.unique(np.quantile(pooled, statistic.levels))
    sorted_x = np.sort(values_x[~np.isnan(values_x)])
    sorted_other = np.sort(values_other[~np.isnan(values_other)])
    below_x = np.searchsorted(sorted_x, cuts, side="right")
    below_other = np.searchsorted(sorted_other, cuts, side="right")
    n = len(x)
    below = loss_lower_bounds(below_x, below_other, n, alpha)
    above = loss_lower_bounds(len(sorted_x) - below_x, len(sorted_other) - below_other, n, alpha)
    i, k = int(np.argmax(below)), int(np.argmax(above))
    values = statistic.values
    if below[i] >= above[k]:
        c = float(cuts[i])
        return Scored(float(below[i]), Event(f"{statistic.description} <= {c:.6g}",
                                             lambda f: values(f) <= c))
    c = float(cuts[k])
    return Scored(float(above[k]), Event(f"{statistic.description} > {c:.6g}",
                                         lambda f: values(f) > c))


def best_event(x: Features, other: Features, alpha: float,
               learned: Statistic | None = None) -> Event | None:
    """The event with the largest lower confidence bound on the loss ``x`` over ``x'`` on these
    selection runs (``None`` if no event can be formed)."""
    pooled = Features.concat([x, other])
    candidates: list[Scored] = []
    events = value_events(pooled)
    if events:
        counts_x = np.array([int(e.indicator(x).sum()) for e in events])
        counts_other = np.array([int(e.indicator(other).sum()) for e in events])
        scores = loss_lower_bounds(counts_x, counts_other, len(x), alpha)
        i = int(np.argmax(scores))
        candidates.append(Scored(float(scores[i]), events[i]))
    for statistic in statistics(pooled, x, other):
        candidates += filter(None, [_best_threshold(statistic, x, other, alpha)])
    if learned is not None:
        half = len(x) // 2
        candidates += filter(None, [_best_threshold(learned, x.take(slice(half, None)),
                                                    other.take(slice(half, None)), alpha)])
    if not candidates:
        return None
    return max(candidates, key=lambda s: s.score).event
