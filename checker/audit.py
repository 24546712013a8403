"""Black-box privacy audit of a mechanism written anywhere: ``dpcert audit TARGET --epsilon EPS``.

TARGET is ``path/to/file.py:callable`` or ``package.module:callable``: a callable taking one
dataset (a number, a list, a string) and returning one output (a category, a number or a tuple).
If it has a ``batch(dataset, n)`` attribute returning ``n`` outputs, that is used instead.

``timeout`` bounds the whole audit (probing the target for default pairs included): past it the
tester stops drawing and testing, and the audit's verdict is *unknown* with what was tested so
far. It is checked between target calls, never by a signal or a timer (the audit may run in
another tool's thread), so a single call that never returns is not interrupted by it.
"""

from __future__ import annotations

import json
import math
import random
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from checker.empirical.forked import available_cores
from checker.empirical.pairs import default_pairs
# AuditStopped is the tester's own 'stop here and return what you have' (its deadline check raises it)
from checker.empirical.privacy import Pair, PrivacyAudit, PrivacyTester, AuditStopped
from checker.interrupts import Interrupted, StopOnSignals
from checker.loading import LoadError, load_attribute


def load_target(spec: str) -> Callable[[Any], Any]:
    """``file.py:name`` or ``package.module:name`` to the callable it names."""
    target = load_attribute(spec, noun="callable")
    if not callable(target):
        location, _, name = spec.rpartition(":")
        raise LoadError(f"{location} has no callable named {name!r}")
    return target


class AuditTimeout(TimeoutError):
    """The timeout passed before the pairs were known (while probing the target for the default
    pairs): no test was planned, none was run."""


class _ProbeStopped(BaseException):
    """A stop while probing (a BaseException: the probe's ``except Exception``, which takes a
    failure for a refusal of that kind of dataset, lets it through)."""


def _watched(call: Callable[..., Any], deadline: float | None, guard: StopOnSignals | None,
             stop: type[BaseException]) -> Callable[..., Any]:
    """``call``, raising ``stop`` instead when the deadline has passed or a stop signal arrived
    (checked before each call), or when a signal arrives during the call."""
    if deadline is None and guard is None:
        return call
    interruptible = guard.interruptible if guard is not None else nullcontext

    def watched(*arguments: Any) -> Any:
        if deadline is not None and time.monotonic() > deadline:
            raise stop()
        try:
            with interruptible():
                return call(*arguments)
        except Interrupted:
            raise stop() from None
    return watched


Sample = Callable[[Any, int, np.random.Generator], Any]


def _seed_globals(state: int) -> None:
    """Python's and NumPy's global generators, both seeded with ``state``."""
    random.seed(state)
    np.random.seed(state)


def sampler_of(target: Callable[[Any], Any], deadline: float | None = None,
               guard: StopOnSignals | None = None) -> Sample:
    """Draw ``n`` outputs: through ``target.batch`` when offered. Python's and NumPy's global
    generators are seeded from ``rng`` before each run (before each batch call), so a target that
    draws from them gives the same runs for the same seed, however the tester splits its draws
    into calls (it sizes them by the time they take).

    Past ``deadline`` (a ``time.monotonic()`` value, checked before every call of the target), or
    once ``guard`` received a stop signal (also during a call), the sampler raises the tester's
    stop: the tester returns what it has tested."""
    batch = getattr(target, "batch", None)
    one = _watched(target, deadline, guard, AuditStopped)
    many = _watched(batch, deadline, guard, AuditStopped) if callable(batch) else None

    def sample(dataset: Any, n: int, rng: np.random.Generator) -> Any:
        if many is not None:
            _seed_globals(int(rng.integers(2 ** 32)))
            outputs = many(dataset, n)
            if len(outputs) != n:
                raise ValueError(f"{target!r}.batch returned {len(outputs)} outputs, not {n}")
            return outputs
        outputs = []
        for state in rng.integers(2 ** 32, size=n):
            _seed_globals(int(state))
            outputs.append(one(dataset))
        return outputs

    return sample


def read_pairs(path: str) -> list[tuple[Any, Any]]:
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as error:
        raise LoadError(f"{path}: {error}") from None
    if not isinstance(data, list) or not all(isinstance(p, list) and len(p) == 2 for p in data):
        raise LoadError(f"{path} must hold a JSON list of [x, x'] pairs")
    if not data:
        raise LoadError(f"{path} holds no pairs: give at least one [x, x'] pair, or leave --pairs "
                        "out to audit the default pairs")
    return [(a, b) for a, b in data]


def check_timeout(timeout: Any) -> float | None:
    """``timeout`` as seconds, or None for no limit; ``ValueError`` with a sentence unless it is a
    finite number > 0."""
    if timeout is None:
        return None
    try:
        seconds = float(timeout)
    except (TypeError, ValueError):
        raise ValueError(f"the timeout must be a number of seconds, not {timeout!r}") from None
    if isinstance(timeout, bool) or not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(f"the timeout must be a finite number of seconds > 0, not {timeout!r}: "
                         "leave it out to audit without a time limit")
    return seconds


def audit(target: Callable[[Any], Any], epsilon: float,
          pairs: Sequence[tuple[Any, Any]] | None = None, samples: int = 50_000,
          alpha: float = 1e-3, seed: int = 0, timeout: float | None = None,
          progress: Callable[[int, int], None] | None = None,
          guard: StopOnSignals | None = None, jobs: int | None = None,
          delta: float = 0.0) -> PrivacyAudit:
    """Test the claim that ``target`` is ``epsilon``-DP (``(epsilon, delta)``-DP when ``delta``
    is in ``(0, 1)``) on neighbouring ``pairs`` (default: see
    :func:`checker.empirical.pairs.default_pairs`). A violation is certain up to ``alpha``.

    ``timeout`` (seconds, finite and > 0) bounds the whole audit: reaching it gives the verdict
    *unknown* with the tests run so far (``stopped == "timeout"``), or :class:`AuditTimeout` if it
    is reached while probing the target for default pairs. ``progress(done, total)`` is called as
    runs are drawn and tests are done. ``guard``, a :class:`StopOnSignals` entered by the caller
    (``defer=True``), stops the audit on SIGINT/SIGTERM with what was tested so far
    (``stopped == "SIGINT"``); a second signal raises :class:`Interrupted`. ``jobs`` processes
    draw the runs of different inputs at once (default: the cores this process may use); the
    runs, and so the verdict, do not depend on it."""
    seconds = check_timeout(timeout)
    deadline = None if seconds is None else time.monotonic() + seconds
    if not epsilon >= 0:
        raise ValueError(f"epsilon must be a number >= 0, got {epsilon!r}")
    if not 0 <= delta < 1:
        raise ValueError(f"delta must be a number in [0, 1), got {delta!r}")
    random.seed(seed)
    np.random.seed(seed)
    if pairs is not None:
        chosen = list(pairs)
    else:
        try:
            chosen = default_pairs(_watched(target, deadline, guard, _ProbeStopped), seed)
        except _ProbeStopped:
            if guard is not None and guard.received is not None:
                raise Interrupted(guard.received) from None
            raise AuditTimeout(f"the timeout ({seconds:g} s) passed while probing the target for "
                               "the kind of dataset it takes, before any pair was tested; give "
                               "--pairs, or a longer timeout") from None
    if not chosen:
        raise ValueError("no pairs to audit: an audit over no pairs would find nothing and prove "
                         "nothing; pass at least one (x, x') pair")
    tester = PrivacyTester(sampler_of(target, deadline, guard), samples=samples, alpha=alpha,
                           seed=seed, workers=available_cores() if jobs is None else jobs)

    def tick(done: int, total: int) -> None:
        if guard is not None and guard.received is not None:
            raise AuditStopped
        if progress is not None:
            progress(done, total)
    try:
        result = tester.audit([Pair(x, x_prime, float(epsilon), delta=float(delta))
                               for x, x_prime in chosen],
                              progress=tick, deadline=deadline)
    except AuditStopped:  # a stop outside the tester's own handling: nothing to report
        if guard is not None and guard.received is not None:
            raise Interrupted(guard.received) from None
        raise AuditTimeout(f"the timeout ({seconds:g} s) passed") from None
    if guard is not None and guard.received is not None and result.stopped is not None:
        result.stopped = guard.name
    return result
