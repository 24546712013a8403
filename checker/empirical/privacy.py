"""A statistical privacy tester for pure epsilon-DP claims.

For each neighbouring pair ``(x, x')`` and each direction, the tester

1. runs the mechanism ``selection`` times on each input and picks the event ``E`` (an output
   value, or a threshold ``o <= c`` / ``o > c``) whose estimated privacy loss is largest;
2. runs it ``trials`` more times on each input (fresh samples, so the event is fixed in advance)
   and bounds ``ln(Pr[M(x) in E] / Pr[M(x') in E])`` from below with Clopper-Pearson intervals.

A violation is reported only when that lower bound exceeds the claim. Each of the ``m`` tests gets
``alpha / m`` of the false-alarm budget, so the probability of any false alarm, on a mechanism
that meets its claim, is at most ``alpha`` (union bound). No violation is never a proof.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from checker.empirical.shapes import MAX_POSITIONS, Features, features, is_number, shape_events
from checker.empirical.statistics import loss_estimate, loss_lower_bound, loss_upper_bound

Sampler = Callable[[Any, int, np.random.Generator], Sequence[Any]]
"""``sampler(dataset, n, rng)`` returns ``n`` independent outputs of the mechanism on ``dataset``."""

SELECTION_ALPHA = 0.05
"""Confidence used only to rank candidate events (penalises events seen a handful of times)."""

MAX_CATEGORIES = 64
"""Outputs with at most this many distinct values are treated as categories."""

THRESHOLD_QUANTILES = np.linspace(0.005, 0.995, 80)


@dataclass(frozen=True)
class Pair:
    """Two neighbouring datasets and the privacy loss claimed for them (``map(d_in)``)."""

    x: Any
    x_prime: Any
    claim: float
    d_in: Any = None


@dataclass(frozen=True)
class Event:
    description: str
    indicator: Callable[[np.ndarray], np.ndarray]


@dataclass
class PairResult:
    x: Any
    x_prime: Any
    d_in: Any
    claim: float
    event: str
    count_x: int
    count_x_prime: int
    trials: int
    loss_estimate: float
    loss_lower: float
    loss_upper: float
    alpha: float

    @property
    def violation(self) -> bool:
        return self.loss_lower > self.claim


@dataclass
class PrivacyAudit:
    results: list[PairResult]
    alpha: float
    selection: int
    trials: int
    runs: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def violations(self) -> list[PairResult]:
        return [r for r in self.results if r.violation]

    @property
    def runs_per_input(self) -> int:
        return self.selection + self.trials

    def summary(self) -> str:
        if self.violations:
            worst = max(self.violations, key=lambda r: r.loss_lower - r.claim)
            return (f"VIOLATION: privacy loss >= {worst.loss_lower:.4f} > claim {worst.claim:.4f} "
                    f"on x = {worst.x!r}, x' = {worst.x_prime!r}, event {worst.event} "
                    f"({self.runs_per_input} runs per input; the probability that any alarm of "
                    f"this audit is false is <= {self.alpha:g})")
        return (f"no violation found in {self.runs_per_input} runs per input over "
                f"{len(self.results) // 2} pairs (false-alarm probability <= {self.alpha:g}); "
                "sampling cannot prove privacy")


def _objects(items: Sequence[Any]) -> np.ndarray:
    """A one-dimensional object array (``np.array`` would make rows of tuples into a matrix)."""
    array = np.empty(len(items), dtype=object)
    array[:] = [tuple(v) if isinstance(v, (list, np.ndarray)) else v for v in items]
    return array




def _as_array(outputs: Sequence[Any]) -> np.ndarray:
    """Numbers as a float vector; equal-length tuples of numbers as a float matrix (one row per
    output); anything else (categories, booleans, mixed) as a vector of hashable objects."""
    items = list(outputs)
    if items and all(is_number(v) for v in items):
        return np.asarray(items, dtype=float)
    if items and all(isinstance(v, (tuple, list, np.ndarray)) and len(v) == len(items[0])
                     and all(is_number(x) for x in v) for v in items):
        return np.asarray(items, dtype=float)
    return _objects(items)


class _NaN:
    """NaN as an output value of its own: one object, equal only to itself, so that outputs can
    be counted and compared as categories (``float('nan') != float('nan')``)."""

    def __repr__(self) -> str:
        return "nan"


NAN = _NaN()


def _key(v: Any) -> Any:
    if isinstance(v, (float, np.floating)) and v != v:
        return NAN
    return tuple(_key(x) for x in v) if isinstance(v, tuple) else v


def _keys(a: np.ndarray) -> np.ndarray:
    """The outputs as hashable values (rows of a matrix as tuples), each NaN as :data:`NAN`."""
    rows = a.tolist() if a.ndim == 1 else [tuple(row) for row in a.tolist()]
    return _objects([_key(v) for v in rows])


def _value_events(pooled: np.ndarray) -> list[Event]:
    events = []
    for value in dict.fromkeys(_keys(pooled).tolist()):
        def indicator(a: np.ndarray, v: Any = value) -> np.ndarray:
            return np.fromiter((item == v for item in _keys(a)), dtype=bool, count=len(a))
        events.append(Event(f"output == {value!r}", indicator))
    return events


def _threshold_events(pooled: np.ndarray) -> list[Event]:
    columns = [pooled] if pooled.ndim == 1 else [pooled[:, j] for j in range(pooled.shape[1])]
    events = []
    for j, column in enumerate(columns):
        name = "output" if pooled.ndim == 1 else f"output[{j}]"
        pick = (lambda a: a) if pooled.ndim == 1 else (lambda a, j=j: a[:, j])
        if np.isnan(column).any():
            events.append(Event(f"{name} is NaN", lambda a, pick=pick: np.isnan(pick(a))))
        finite = column[np.isfinite(column)]
        if finite.size == 0:
            continue
        for c in np.unique(np.quantile(finite, THRESHOLD_QUANTILES)):
            events.append(Event(f"{name} <= {c:.6g}", lambda a, c=c, pick=pick: pick(a) <= c))
            events.append(Event(f"{name} > {c:.6g}", lambda a, c=c, pick=pick: pick(a) > c))
    return events


_FEATURES: dict[int, tuple[np.ndarray, Features]] = {}
"""The features of the last few output arrays (an audit evaluates each event on four)."""


def _features(a: np.ndarray) -> Features:
    hit = _FEATURES.get(id(a))
    if hit is None or hit[0] is not a:
        if len(_FEATURES) >= 16:
            _FEATURES.clear()
        hit = _FEATURES[id(a)] = (a, features(_keys(a), MAX_POSITIONS))
    return hit[1]


def candidate_events(pooled: np.ndarray) -> list[Event]:
    """Single outputs when there are few distinct ones, thresholds on numeric outputs, and for
    tuple outputs of mixed types or lengths the shape events of :mod:`checker.empirical.shapes`."""
    distinct = len(set(_keys(pooled).tolist()))
    events = _value_events(pooled) if distinct <= MAX_CATEGORIES else []
    if pooled.dtype != object:
        events += _threshold_events(pooled)
    elif any(isinstance(v, tuple) for v in pooled.tolist()):
        events += [Event(description, lambda a, indicator=indicator: indicator(_features(a)))
                   for description, indicator in shape_events(_features(pooled), MAX_CATEGORIES)]
    return events


class PrivacyTester:
    """Samples are drawn once per input (``selection + trials`` runs) and shared by every pair."""

    def __init__(self, sampler: Sampler, samples: int = 50_000, alpha: float = 1e-3,
                 seed: int = 0, selection_share: float = 0.2) -> None:
        if samples < 10 or not 0 < alpha < 1:
            raise ValueError(f"need samples >= 10 and 0 < alpha < 1, got {samples}, {alpha}")
        self.sampler, self.alpha, self.seed = sampler, alpha, seed
        self.selection = max(5, int(samples * selection_share))
        self.trials = samples - self.selection
        self._cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def _samples(self, dataset: Any) -> tuple[np.ndarray, np.ndarray]:
        key = repr(dataset)
        if key not in self._cache:
            rng = np.random.default_rng([self.seed, len(self._cache)])
            selection = _as_array(self.sampler(dataset, self.selection, rng))
            trials = _as_array(self.sampler(dataset, self.trials, rng))
            self._cache[key] = (selection, trials)
        return self._cache[key]

    def _best_event(self, chosen_x: np.ndarray, chosen_other: np.ndarray) -> Event:
        pooled = np.concatenate([chosen_x, chosen_other])
        events = candidate_events(pooled)
        if not events:
            raise ValueError("no events can be formed from these outputs")
        n = len(chosen_x)
        scored = [(loss_lower_bound(int(e.indicator(chosen_x).sum()),
                                    int(e.indicator(chosen_other).sum()), n, SELECTION_ALPHA), i)
                  for i, e in enumerate(events)]
        return events[max(scored)[1]]

    def audit(self, pairs: Sequence[Pair]) -> PrivacyAudit:
        start = time.perf_counter()
        tests = 2 * len(pairs)
        per_test = self.alpha / max(tests, 1)
        results = []
        for pair in pairs:
            for x, other in ((pair.x, pair.x_prime), (pair.x_prime, pair.x)):
                select_x, trials_x = self._samples(x)
                select_other, trials_other = self._samples(other)
                event = self._best_event(select_x, select_other)
                count_x = int(event.indicator(trials_x).sum())
                count_other = int(event.indicator(trials_other).sum())
                results.append(PairResult(
                    x, other, pair.d_in, pair.claim, event.description, count_x, count_other,
                    self.trials, loss_estimate(count_x, count_other, self.trials),
                    loss_lower_bound(count_x, count_other, self.trials, per_test),
                    loss_upper_bound(count_x, count_other, self.trials, per_test), per_test))
        runs = {key: self.selection + self.trials for key in self._cache}
        return PrivacyAudit(results, self.alpha, self.selection, self.trials, runs,
                            time.perf_counter() - start)

