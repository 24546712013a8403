"""A statistical privacy tester for pure epsilon-DP claims.

For each neighbouring pair ``(x, x')`` and each direction, the tester

1. runs the mechanism ``selection`` times on each input and picks the event ``E`` whose
   estimated privacy loss is largest (the families are in :mod:`checker.empirical.events`:
   values, lengths, equality at a position, thresholds on one number, conditioned thresholds,
   sums, projections, all-above / all-below, and a learned classifier score);
2. runs it ``trials`` more times on each input (fresh samples, so the event is fixed in advance)
   and bounds ``ln(Pr[M(x) in E] / Pr[M(x') in E])`` from below with Clopper-Pearson intervals.

A violation is reported only when that lower bound exceeds the claim. Each of the ``m`` planned
tests (two per pair) gets ``alpha / m`` of the false-alarm budget, so the probability of any false
alarm, on a mechanism that meets its claim, is at most ``alpha`` (union bound), however many
events were searched on the selection runs. No violation is never a proof. A pair whose input
the mechanism fails on, or whose outputs cannot be read, is reported as an error; the other pairs
are still tested.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from checker.empirical.events import best_event
from checker.empirical.learned import learned_statistic
from checker.empirical.shapes import Features, features
from checker.empirical.statistics import loss_estimate, loss_lower_bound, loss_upper_bound

Sampler = Callable[[Any, int, np.random.Generator], Sequence[Any]]
"""``sampler(dataset, n, rng)`` returns ``n`` independent outputs of the mechanism on ``dataset``."""

SELECTION_ALPHA = 0.05
"""Confidence used only to rank candidate events (penalises events seen a handful of times)."""

CHUNK = 10_000
"""Runs drawn per call of the sampler: progress is reported, and the deadline checked, between."""


@dataclass(frozen=True)
class Pair:
    """Two neighbouring datasets and the privacy loss claimed for them (``map(d_in)``)."""

    x: Any
    x_prime: Any
    claim: float
    d_in: Any = None


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
class PairError:
    """A (pair, direction) that could not be tested, and why."""

    x: Any
    x_prime: Any
    message: str


@dataclass
class PrivacyAudit:
    results: list[PairResult]
    alpha: float
    selection: int
    trials: int
    runs: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    errors: list[PairError] = field(default_factory=list)
    stopped: str | None = None
    """``None``, or why the audit stopped before its end (``"timeout"``)."""
    planned: int = 0
    """The (pair, direction) tests planned; ``alpha`` is shared among all of them."""

    @property
    def violations(self) -> list[PairResult]:
        return [r for r in self.results if r.violation]

    @property
    def verdict(self) -> str:
        """``violation`` (stands even if the audit stopped early: the budget was shared among
        every planned test), else ``unknown`` if a test errored or was not run, else
        ``none found``."""
        if self.violations:
            return "violation"
        return "unknown" if self.errors or len(self.results) < self.planned else "none found"

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
        if self.verdict == "unknown":
            why = [f"{len(self.errors)} could not be tested"] if self.errors else []
            if self.stopped:
                why.append(f"the audit stopped ({self.stopped}) after {len(self.results)} "
                           f"tests")
            first = (f"; first error: x = {self.errors[0].x!r}, x' = {self.errors[0].x_prime!r}: "
                     f"{self.errors[0].message}") if self.errors else ""
            return (f"UNKNOWN: of {self.planned} planned tests (pair and direction), "
                    f"{len(self.results)} ran with no violation, " + " and ".join(why) + first)
        return (f"no violation found in {self.runs_per_input} runs per input over "
                f"{len(self.results) // 2} pairs (false-alarm probability <= {self.alpha:g}); "
                "sampling cannot prove privacy")


class _Stop(Exception):
    """The deadline passed while drawing runs."""


@dataclass(frozen=True)
class _Runs:
    """One input's runs as features, or why there are none."""

    selection: Features | None = None
    trials: Features | None = None
    error: str | None = None


class PrivacyTester:
    """Samples are drawn once per input (``selection + trials`` runs) and shared by every pair."""

    def __init__(self, sampler: Sampler, samples: int = 50_000, alpha: float = 1e-3,
                 seed: int = 0, selection_share: float = 0.2) -> None:
        if samples < 10 or not 0 < alpha < 1:
            raise ValueError(f"need samples >= 10 and 0 < alpha < 1, got {samples}, {alpha}")
        self.sampler, self.alpha, self.seed = sampler, alpha, seed
        self.selection = max(5, int(samples * selection_share))
        self.trials = samples - self.selection
        self._cache: dict[str, _Runs] = {}
        self._learned: dict[tuple[str, str], Any] = {}

    def _draw(self, dataset: Any, n: int, rng: np.random.Generator, tick: Callable[[int], None],
              deadline: float | None) -> Features:
        chunks: list[Any] = []
        drawn = 0
        while drawn < n:
            if deadline is not None and time.monotonic() > deadline:
                raise _Stop
            chunk = self.sampler(dataset, min(CHUNK, n - drawn), rng)
            chunks.append(chunk)
            drawn += len(chunk)
            tick(len(chunk))
        if all(isinstance(c, np.ndarray) and c.dtype.kind in "fiu" for c in chunks):
            return features(np.concatenate(chunks))
        return features([output for chunk in chunks for output in chunk])

    def _runs(self, dataset: Any, tick: Callable[[int], None], deadline: float | None) -> _Runs:
        key = repr(dataset)
        if key not in self._cache:
            rng = np.random.default_rng([self.seed, len(self._cache)])
            try:
                selection = self._draw(dataset, self.selection, rng, tick, deadline)
                trials = self._draw(dataset, self.trials, rng, tick, deadline)
                self._cache[key] = _Runs(selection, trials)
            except _Stop:
                raise
            except Exception as error:  # the mechanism failed on this input, or its output
                self._cache[key] = _Runs(error=f"{type(error).__name__}: {error} (on {key})")
        return self._cache[key]

    def _learned_event(self, x: Any, other: Any, select_x: Features, select_other: Features):
        """One classifier per pair, trained towards ``x``; the other direction reuses it (its
        best thresholds are the ``<=`` side)."""
        pair = (repr(x), repr(other))
        if pair[::-1] in self._learned:
            return self._learned[pair[::-1]]
        if pair not in self._learned:
            self._learned[pair] = learned_statistic(select_x, select_other, self.seed)
        return self._learned[pair]

    def _test(self, pair: Pair, x: Any, other: Any, runs_x: _Runs, runs_other: _Runs,
              per_test: float) -> PairResult | PairError:
        failed = runs_x.error or runs_other.error
        if failed:
            return PairError(x, other, failed)
        try:
            learned = self._learned_event(x, other, runs_x.selection, runs_other.selection)
            event = best_event(runs_x.selection, runs_other.selection, SELECTION_ALPHA, learned)
        except Exception as error:  # an output the event families cannot read
            return PairError(x, other, f"no event could be formed: {type(error).__name__}: {error}")
        if event is None:
            return PairError(x, other, "no event can be formed from these outputs")
        count_x = int(event.indicator(runs_x.trials).sum())
        count_other = int(event.indicator(runs_other.trials).sum())
        return PairResult(x, other, pair.d_in, pair.claim, event.description, count_x,
                          count_other, self.trials,
                          loss_estimate(count_x, count_other, self.trials),
                          loss_lower_bound(count_x, count_other, self.trials, per_test),
                          loss_upper_bound(count_x, count_other, self.trials, per_test), per_test)

    def audit(self, pairs: Sequence[Pair], progress: Callable[[int, int], None] | None = None,
              deadline: float | None = None) -> PrivacyAudit:
        """Test every pair in both directions. ``progress(done, total)`` is told the runs drawn
        so far (tests count as one run each); past ``deadline`` (a ``time.monotonic()`` value)
        the audit stops and returns what it has, with ``stopped = "timeout"``."""
        start = time.perf_counter()
        planned = 2 * len(pairs)
        per_test = self.alpha / max(planned, 1)
        inputs = len({repr(d) for pair in pairs for d in (pair.x, pair.x_prime)})
        total = inputs * (self.selection + self.trials) + planned
        done = 0

        def tick(runs: int) -> None:
            nonlocal done
            done += runs
            if progress is not None:
                progress(done, total)

        results: list[PairResult] = []
        errors: list[PairError] = []
        stopped = None
        try:
            for pair in pairs:
                for x, other in ((pair.x, pair.x_prime), (pair.x_prime, pair.x)):
                    runs_x, runs_other = self._runs(x, tick, deadline), self._runs(other, tick,
                                                                                    deadline)
                    if deadline is not None and time.monotonic() > deadline:
                        raise _Stop
                    outcome = self._test(pair, x, other, runs_x, runs_other, per_test)
                    (errors if isinstance(outcome, PairError) else results).append(outcome)
                    tick(1)
        except _Stop:
            stopped = "timeout"
        runs = {key: self.selection + self.trials for key, r in self._cache.items()
                if r.error is None}
        return PrivacyAudit(results, self.alpha, self.selection, self.trials, runs,
                            time.perf_counter() - start, errors, stopped, planned)
