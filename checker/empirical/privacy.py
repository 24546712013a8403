"""A statistical privacy tester for epsilon-DP claims, and (epsilon, delta) claims.

1. **Screen.** The mechanism runs ``selection`` times on each input. For each neighbouring pair
   ``(x, x')`` and each direction, the event ``E`` with the largest estimated privacy loss is
   chosen on these runs (the families are in :mod:`checker.empirical.events`: values, lengths,
   equality at a position, thresholds on one number, conditioned thresholds, sums, projections,
   all-above / all-below, and a learned classifier score).
2. **Test.** The :data:`TESTED` (pair, direction)s whose event looks most suspicious (selection
   lower bound minus claim) run ``trials`` more times on each of their inputs: fresh runs, so the
   event was fixed in advance. ``ln(Pr[M(x) in E] / Pr[M(x') in E])`` is bounded from below by
   the larger of two bounds, each at half the test's budget: Clopper-Pearson on each count
   apart, and the conditional (Fisher noncentral hypergeometric) bound, tighter on rare events.

A violation is reported only when that lower bound exceeds the claim. For an ``(epsilon, delta)``
claim (``Pair.delta > 0``) the test bounds ``Pr[M(x) in E] - e^epsilon Pr[M(x') in E]`` from below
instead (Clopper-Pearson on each count, at half the test's budget each), and a violation is that
bound above ``delta``. Each of the ``m`` tests
gets ``alpha / m`` of the false-alarm budget, so the probability of any false alarm, on a
mechanism that meets its claim, is at most ``alpha`` (union bound), however many pairs and events
were screened: the screening sees only the selection runs. No violation is never a proof. A pair
whose input the mechanism fails on, or whose outputs cannot be read, is reported as an error; the
other pairs are still tested.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from checker.empirical import forked, shapes
from checker.empirical.events import Event, Projection, Statistic, best_event
from checker.empirical.learned import cell_statistic, classifier_statistic
from checker.empirical.shapes import Features, features
from checker.empirical.statistics import (clopper_pearson_lower, clopper_pearson_upper,
                                          conditional_loss_lower_bound, loss_estimate,
                                          loss_lower_bound, loss_upper_bound)

Sampler = Callable[[Any, int, np.random.Generator], Sequence[Any]]
"""``sampler(dataset, n, rng)`` returns ``n`` independent outputs of the mechanism on ``dataset``."""

TESTED = 4
"""How many (pair, direction)s are tested on fresh runs: those whose best event looks most
suspicious on the selection runs. The false-alarm budget is shared among these only."""

RARE = 0.15
"""Events seen in at most this share of the trials also get the conditional bound (each bound
at half the test's budget: the larger of the two is wrong with probability at most the budget,
whether or not the second was computed)."""

PROBE_RUNS, PROBE_STREAM = 16, 2 ** 32
"""Runs drawn twice, from a generator of a stream no input uses, to see whether the mechanism's
runs follow the seeds the tester gives it (:meth:`PrivacyTester._runs_follow_seeds`)."""

PARALLEL_RUNS = 20_000
"""Fewer runs than this, over the inputs still to draw, are drawn in this process: starting
workers would cost about as much as it saves."""

FIRST_CHUNK, CHUNK, CHUNK_SECONDS = 500, 10_000, 0.5
"""Runs drawn per call of the sampler: progress is reported, and the deadline checked, between
calls. The first call draws 500; each call that took under half a second doubles the next, up to
10,000 (so a slow batch sampler overruns a deadline by about a second at most)."""


@dataclass(frozen=True)
class Pair:
    """Two neighbouring datasets and the privacy loss claimed for them (``map(d_in)``)."""

    x: Any
    x_prime: Any
    claim: float
    d_in: Any = None
    delta: float = 0.0
    """The claim's delta: ``Pr[M(x) in E] <= e^claim Pr[M(x') in E] + delta`` for every ``E``."""


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
    delta: float = 0.0
    excess_lower: float = float("-inf")
    """With ``delta > 0``: a lower bound on ``Pr[M(x) in E] - e^claim Pr[M(x') in E]``."""

    @property
    def violation(self) -> bool:
        if self.delta > 0:
            return self.excess_lower > self.delta
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
    """The (pair, direction) tests planned on fresh runs; ``alpha`` is shared among them."""
    screened: int = 0
    """The (pair, direction)s screened on the selection runs (two per pair)."""

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
            if worst.delta > 0:
                return (f"VIOLATION: Pr[M(x) in E] - e^{worst.claim:.4f} Pr[M(x') in E] >= "
                        f"{worst.excess_lower:.3g} > delta {worst.delta:.3g} on x = {worst.x!r}, "
                        f"x' = {worst.x_prime!r}, event {worst.event} ({self.runs_per_input} runs "
                        f"per input; the probability that any alarm of this audit is false is <= "
                        f"{self.alpha:g})")
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
                f"{self.screened // 2} pairs, the {len(self.results)} most suspicious directions "
                f"tested on fresh runs (false-alarm probability <= {self.alpha:g}); "
                "sampling cannot prove privacy")


class AuditStopped(Exception):
    """Raised inside the tester (by its deadline check, or by a sampler or progress callback
    told to stop): the audit ends and returns what it has tested, ``stopped`` set."""


@dataclass
class _Input:
    """One input's generator and runs, or why the mechanism gave none."""

    rng: np.random.Generator
    selection: Features | None = None
    trials: Features | None = None
    error: str | None = None


@dataclass(frozen=True)
class _Candidate:
    """A (pair, direction) screened on the selection runs: its best event and that event's
    selection lower bound minus the claim (how suspicious it looks)."""

    pair: Pair
    x: Any
    other: Any
    event: Event
    margin: float


class PrivacyTester:
    """Selection runs are drawn once per input and shared by every pair; trial runs only for the
    inputs of the :data:`TESTED` (pair, direction)s that look most suspicious on them. With
    ``workers > 1`` the runs of different inputs are drawn in that many forked processes at once;
    the runs, and so the verdict, are the same as with one."""

    def __init__(self, sampler: Sampler, samples: int = 50_000, alpha: float = 1e-3,
                 seed: int = 0, selection_share: float = 0.2, workers: int = 1) -> None:
        if samples < 10 or not 0 < alpha < 1:
            raise ValueError(f"need samples >= 10 and 0 < alpha < 1, got {samples}, {alpha}")
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a whole number >= 1, got {workers!r}")
        self.sampler, self.alpha, self.seed, self.workers = sampler, alpha, seed, workers
        self.selection = max(5, int(samples * selection_share))
        self.trials = samples - self.selection
        self._inputs: dict[str, _Input] = {}
        self._learned: dict[tuple[str, ...], list[Statistic]] = {}
        self._seeded: bool | None = None
        self._projection = Projection(self.trials, alpha / TESTED / 2)

    def _draw(self, dataset: Any, n: int, rng: np.random.Generator, tick: Callable[[int], None],
              deadline: float | None) -> Features:
        chunks: list[Any] = []
        drawn, size = 0, FIRST_CHUNK
        while drawn < n:
            if deadline is not None and time.monotonic() > deadline:
                raise AuditStopped
            began = time.monotonic()
            chunk = self.sampler(dataset, min(size, n - drawn), rng)
            if time.monotonic() - began < CHUNK_SECONDS:
                size = min(2 * size, CHUNK)
            chunks.append(chunk)
            drawn += len(chunk)
            tick(len(chunk))
        if all(isinstance(c, np.ndarray) and c.dtype.kind in "fiu" for c in chunks):
            return features(np.concatenate(chunks))
        return features([output for chunk in chunks for output in chunk])

    def _entry(self, dataset: Any) -> _Input:
        """The input's entry, made when first asked for (its generator is seeded by the order in
        which inputs are first met, so drawing in workers or here gives the same runs)."""
        key = repr(dataset)
        if key not in self._inputs:
            self._inputs[key] = _Input(np.random.default_rng([self.seed, len(self._inputs)]))
        return self._inputs[key]

    def _fill(self, entry: _Input, dataset: Any, trials: bool, tick: Callable[[int], None],
              deadline: float | None) -> None:
        """Draw the entry's selection runs (and its trial runs if ``trials``) unless it has them;
        a mechanism that raises, or outputs that cannot be read, set its error."""
        try:
            if entry.error is None and entry.selection is None:
                entry.selection = self._draw(dataset, self.selection, entry.rng, tick, deadline)
            if entry.error is None and trials and entry.trials is None:
                entry.trials = self._draw(dataset, self.trials, entry.rng, tick, deadline)
        except AuditStopped:
            raise
        except Exception as error:  # the mechanism failed on this input, or its output
            entry.error = f"{type(error).__name__}: {error} (on {dataset!r})"

    def _input(self, dataset: Any, trials: bool, tick: Callable[[int], None],
               deadline: float | None) -> _Input:
        """The input's selection runs (and its trial runs if ``trials``), drawn when first
        asked for."""
        entry = self._entry(dataset)
        self._fill(entry, dataset, trials, tick, deadline)
        return entry

    def _prefetch(self, datasets: Sequence[Any], trials: bool, tick: Callable[[int], None],
                  deadline: float | None) -> None:
        """Draw what ``_input`` would for each dataset, the inputs spread over :attr:`workers`
        forked processes (each input's runs come from its own generator, as here)."""
        missing: dict[str, tuple[Any, _Input]] = {}
        for dataset in datasets:
            entry = self._entry(dataset)
            if entry.error is None and (entry.selection is None
                                        or (trials and entry.trials is None)):
                missing.setdefault(repr(dataset), (dataset, entry))
        runs = sum(self.selection * (entry.selection is None)
                   + self.trials * (trials and entry.trials is None)
                   for _, entry in missing.values())
        first = next(iter(missing.values()), (None,))[0]
        if (self.workers < 2 or len(missing) < 2 or runs < PARALLEL_RUNS
                or not forked.can_fork() or not self._runs_follow_seeds(first)):
            return
        base = len(shapes.VALUES)

        def job(dataset: Any, entry: _Input) -> Callable[[Callable[[int], None]], Any]:
            def draw(progress: Callable[[int], None]) -> tuple[_Input, list[Any]] | None:
                try:
                    self._fill(entry, dataset, trials, progress, deadline)
                except AuditStopped:
                    return None
                return entry, shapes.codes_from(base)
            return draw
        drawn = forked.run([job(*item) for item in missing.values()], self.workers, tick,
                           deadline, AuditStopped)
        if any(d is None for d in drawn):
            raise AuditStopped
        for key, (entry, values) in zip(missing, drawn):
            for name in ("selection", "trials"):
                made = getattr(entry, name)
                if made is not None:
                    setattr(entry, name, shapes.adopt(made, base, values))
            self._inputs[key] = entry

    def _runs_follow_seeds(self, dataset: Any) -> bool:
        """Whether the mechanism's runs on ``dataset`` are a function of the generator the tester
        hands it: :data:`PROBE_RUNS` runs drawn twice from two generators seeded alike agree.

        Only then may runs be drawn in forked workers. A mechanism with randomness of its own (a
        generator made at import, ``os.urandom``, state kept between calls) fails the probe: a
        forked worker would inherit a copy of that state, and two workers, or the selection and
        the trial runs of one input, would draw the same noise, so the trials would not be
        fresh. Such a mechanism is sampled in this process, one stream for every input."""
        if self._seeded is None:
            try:
                twice = [repr(self.sampler(dataset, PROBE_RUNS,
                                           np.random.default_rng([self.seed, PROBE_STREAM])))
                         for _ in range(2)]
                self._seeded = twice[0] == twice[1]
            except Exception:  # the runs will raise again where the error is reported
                self._seeded = False
        return self._seeded

    def _learned_statistics(self, x: Any, other: Any, select_x: Features,
                            select_other: Features) -> list[Statistic]:
        """The learned scores of a pair of inputs, fitted once for both directions, towards the
        input whose ``repr`` sorts first: the fit does not depend on which direction is screened
        first, here or in a worker (the other direction's best thresholds are on the other
        side)."""
        key = tuple(sorted((repr(x), repr(other))))
        if key not in self._learned:
            first, second = ((select_x, select_other) if key[0] == repr(x)
                             else (select_other, select_x))
            fitted = [cell_statistic(first, second),
                      classifier_statistic(first, second, self.seed)]
            self._learned[key] = [s for s in fitted if s is not None]
        return self._learned[key]

    def _screen(self, pair: Pair, x: Any, other: Any, tick: Callable[[int], None],
                deadline: float | None) -> _Candidate | PairError:
        input_x, input_other = (self._input(x, False, tick, deadline),
                                self._input(other, False, tick, deadline))
        failed = input_x.error or input_other.error
        if failed:
            return PairError(x, other, failed)
        try:
            learned = self._learned_statistics(x, other, input_x.selection,
                                               input_other.selection)
            best = best_event(input_x.selection, input_other.selection, self._projection, learned)
        except Exception as error:  # an output the event families cannot read
            return PairError(x, other, f"no event could be formed: {type(error).__name__}: {error}")
        if best is None:
            return PairError(x, other, "no event can be formed from these outputs")
        return _Candidate(pair, x, other, best.event, best.score - pair.claim)

    def _screen_all(self, directions: Sequence[tuple[Pair, Any, Any]],
                    errors: list[PairError], tick: Callable[[int], None], deadline: float | None
                    ) -> list[_Candidate | PairError | float]:
        """Each (pair, direction) screened, those that cannot be also added to ``errors`` as
        they come. With workers, once every input's selection runs are
        in, the pairs are screened in forked processes, which send back each direction's margin
        only (events are closures, which do not travel between processes): the tester rebuilds
        the events of those it tests (:meth:`_chosen`), from the same runs, so they are the same."""
        drawn = all(self._entry(d).selection is not None or self._entry(d).error is not None
                    for _, x, other in directions for d in (x, other))
        if (self.workers < 2 or len(directions) < 4 or not drawn or not forked.can_fork()
                or self.selection * len(self._inputs) < PARALLEL_RUNS):
            outcomes = []
            for pair, x, other in directions:
                outcomes.append(self._screen(pair, x, other, tick, deadline))
                if isinstance(outcomes[-1], PairError):
                    errors.append(outcomes[-1])
            return outcomes

        def job(indices: range) -> Callable[[Callable[[int], None]], Any]:
            def screen(progress: Callable[[int], None]) -> list[PairError | float]:
                outcomes = [self._screen(*directions[i], progress, deadline) for i in indices]
                return [o if isinstance(o, PairError) else o.margin for o in outcomes]
            return screen
        per_pair = [job(range(i, min(i + 2, len(directions))))
                    for i in range(0, len(directions), 2)]
        outcomes = [outcome for outcomes in forked.run(per_pair, self.workers, tick, deadline,
                                                       AuditStopped) for outcome in outcomes]
        errors += [outcome for outcome in outcomes if isinstance(outcome, PairError)]
        return outcomes

    def _chosen(self, directions: Sequence[tuple[Pair, Any, Any]],
                screened: Sequence[_Candidate | PairError | float], planned: int,
                tick: Callable[[int], None], deadline: float | None
                ) -> list[_Candidate | PairError]:
        """The ``planned`` (pair, direction)s with the largest margins, with their events (rebuilt
        here for those screened in a worker)."""
        def margin(i: int) -> float:
            outcome = screened[i]
            return outcome.margin if isinstance(outcome, _Candidate) else float(outcome)
        ranked = sorted((i for i, o in enumerate(screened) if not isinstance(o, PairError)),
                        key=margin, reverse=True)[:planned]
        return [screened[i] if isinstance(screened[i], _Candidate)
                else self._screen(*directions[i], tick, deadline) for i in ranked]

    def _test(self, candidate: _Candidate, per_test: float, tick: Callable[[int], None],
              deadline: float | None) -> PairResult | PairError:
        input_x = self._input(candidate.x, True, tick, deadline)
        input_other = self._input(candidate.other, True, tick, deadline)
        failed = input_x.error or input_other.error
        if failed:
            return PairError(candidate.x, candidate.other, failed)
        try:
            count_x = int(candidate.event.indicator(input_x.trials).sum())
            count_other = int(candidate.event.indicator(input_other.trials).sum())
        except Exception as error:  # a trial output the chosen event cannot read
            return PairError(candidate.x, candidate.other,
                             f"the event failed on a trial output: {type(error).__name__}: {error}")
        n, pair = self.trials, candidate.pair
        if pair.delta > 0:
            excess = (clopper_pearson_lower(count_x, n, per_test / 2)
                      - math.exp(min(pair.claim, 700.0)) * clopper_pearson_upper(count_other, n, per_test / 2))
            return PairResult(candidate.x, candidate.other, pair.d_in, pair.claim,
                              candidate.event.description, count_x, count_other, n,
                              loss_estimate(count_x, count_other, n),
                              loss_lower_bound(count_x, count_other, n, per_test),
                              loss_upper_bound(count_x, count_other, n, per_test), per_test,
                              pair.delta, excess)
        lower = loss_lower_bound(count_x, count_other, n, per_test / 2)
        if count_x <= RARE * n:  # the conditional bound helps on rare events only (and is slow)
            lower = max(lower, conditional_loss_lower_bound(count_x, count_other, n, per_test / 2))
        return PairResult(candidate.x, candidate.other, pair.d_in, pair.claim,
                          candidate.event.description, count_x, count_other, n,
                          loss_estimate(count_x, count_other, n), lower,
                          loss_upper_bound(count_x, count_other, n, per_test), per_test)

    def audit(self, pairs: Sequence[Pair], progress: Callable[[int, int], None] | None = None,
              deadline: float | None = None) -> PrivacyAudit:
        """Screen every pair in both directions on the selection runs, then test the
        :data:`TESTED` most suspicious on fresh runs. ``progress(done, total)`` is told the runs
        drawn so far; past ``deadline`` (a ``time.monotonic()`` value) the audit stops and
        returns what it has, with ``stopped = "timeout"``."""
        start = time.perf_counter()
        directions = [(pair, x, other) for pair in pairs
                      for x, other in ((pair.x, pair.x_prime), (pair.x_prime, pair.x))]
        planned = min(TESTED, len(directions))
        per_test = self.alpha / max(planned, 1)
        inputs = len({repr(x) for _, x, _ in directions})
        total = inputs * self.selection + min(inputs, 2 * planned) * self.trials
        done = 0

        def tick(runs: int) -> None:
            nonlocal done
            done += runs
            if progress is not None:
                progress(min(done, total), total)

        results: list[PairResult] = []
        errors: list[PairError] = []
        stopped = None
        try:
            self._prefetch([d for _, x, other in directions for d in (x, other)], False, tick,
                           deadline)
            screened = self._screen_all(directions, errors, tick, deadline)
            chosen = []
            for outcome in self._chosen(directions, screened, planned, tick, deadline):
                (errors if isinstance(outcome, PairError) else chosen).append(outcome)
            self._prefetch([d for c in chosen for d in (c.x, c.other)], True, tick, deadline)
            for candidate in chosen:
                outcome = self._test(candidate, per_test, tick, deadline)
                (errors if isinstance(outcome, PairError) else results).append(outcome)
        except AuditStopped:
            stopped = "timeout"
        runs = {key: self.selection + (self.trials if entry.trials is not None else 0)
                for key, entry in self._inputs.items() if entry.error is None}
        return PrivacyAudit(results, self.alpha, self.selection, self.trials, runs,
                            time.perf_counter() - start, errors, stopped, planned,
                            len(directions))
