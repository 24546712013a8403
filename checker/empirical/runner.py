"""``dpcert check --empirical``: each catalogue example tested on its running code, the
mechanism's own map being the claim. Results are reported apart from the proofs."""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

import numpy as np

from checker.empirical.distribution import test_distribution
from checker.empirical.privacy import Pair, PrivacyTester
from checker.empirical.stability import test_stability
from checker.empirical.strategies import datasets, draw
from checker.limits import no_exit
from mechanisms.core import Measurement, Transformation
from mechanisms.errors import DPCertError
from mechanisms.measures import FixedSmoothedMaxDivergence, MaxDivergence
from obligations.base import Entry, Example

PROBE_RUNS = 200
MAX_INPUTS = 5


VIOLATION, NONE_FOUND, NOT_TESTED, ERROR = ("violation", "no violation found", "not tested",
                                            "error")


@dataclass
class EmpiricalResult:
    mechanism: str
    example: str
    test: str
    verdict: str
    summary: str
    seconds: float
    pairs: list[dict[str, Any]] = field(default_factory=list)
    """For a privacy test: each (pair, direction) tested, with its loss estimate and interval."""

    @property
    def failed(self) -> bool:
        """A violation, or nothing run: either way not a clean result."""
        return self.verdict != NONE_FOUND


def _verdict(violation: bool) -> str:
    return VIOLATION if violation else NONE_FOUND


def measurement_sampler(m: Measurement):
    """``n`` runs of the real measurement, its randomness drawn from ``rng``."""
    def sample(dataset: Any, n: int, rng: np.random.Generator) -> list[Any]:
        source = random.Random(int(rng.integers(2 ** 63)))
        return [m(dataset, source) for _ in range(n)]
    return sample


def distinct(values: list[Any]) -> list[Any]:
    """``values`` without repeats, first occurrences in order; compared by ``repr``, so vectors
    (unhashable lists) are compared by their entries and ``1``, ``1.0`` and ``True`` stay apart."""
    first: dict[str, Any] = {}
    for value in values:
        first.setdefault(repr(value), value)
    return list(first.values())


def measurement_inputs(m: Measurement, seed: int) -> tuple[list[Any], list[str]]:
    """Values of the input domain drawn by Hypothesis, and the outputs the measurement gives on
    them (so that categories are among the inputs); second, the drawn values the measurement
    refuses with a typed error (say, an empty score vector), which are named, not tested."""
    source = random.Random(seed)
    accepted, refused = [], []
    for value in draw(datasets(m.input_domain), 6, seed):
        try:
            m(value, source)
            accepted.append(value)
        except DPCertError as error:
            refused.append(f"{value!r} ({type(error).__name__})")
    if not accepted:
        raise ValueError(f"the measurement refused every drawn input: {', '.join(refused)}")
    seen = [m(accepted[0], source) for _ in range(PROBE_RUNS)]
    inputs = [c for c in distinct([*seen, *accepted]) if m.input_domain.member(c)][:MAX_INPUTS]
    return inputs, distinct(refused)


def _pair(m: Measurement, x: Any, y: Any) -> Pair:
    """``(x, y)`` with the claim ``m.map(d(x, y))``: an epsilon, or an ``(epsilon, delta)``."""
    d_in = m.input_metric.distance(x, y)
    claim = m.map(d_in)
    if isinstance(m.output_measure, FixedSmoothedMaxDivergence):
        epsilon, delta = claim
        return Pair(x, y, float(epsilon), d_in, delta=float(delta))
    return Pair(x, y, float(claim), d_in)


def _privacy(entry: Entry, example: Example, m: Measurement, samples: int, alpha: float,
             seed: int) -> list[EmpiricalResult]:
    start = time.perf_counter()
    inputs, refused = measurement_inputs(m, seed)
    pairs = [_pair(m, x, y) for i, x in enumerate(inputs) for y in inputs[i + 1:]]
    audit = PrivacyTester(measurement_sampler(m), samples, alpha, seed).audit(pairs)
    verdict = {"violation": VIOLATION, "unknown": ERROR}.get(audit.verdict, NONE_FOUND)
    results = [EmpiricalResult(entry.name, example.call, "privacy", verdict,
                               audit.summary() + "".join(
                                   f"\n  refused, not tested: {r}" for r in refused),
                               time.perf_counter() - start,
                               [{**asdict(r), "x": repr(r.x), "x_prime": repr(r.x_prime),
                                 "violation": r.violation} for r in audit.results])]
    if example.distribution is not None:
        start = time.perf_counter()
        fit = test_distribution(measurement_sampler(m), lambda x: example.distribution(m, x),
                                inputs, samples, alpha, seed)
        results.append(EmpiricalResult(entry.name, example.call, "sampler vs stated distribution",
                                       _verdict(bool(fit.mismatches)), fit.summary(),
                                       time.perf_counter() - start))
    return results


def run_empirical(entries: Sequence[Entry], samples: int = 50_000, alpha: float = 1e-3,
                  seed: int = 0, examples: int = 300) -> list[EmpiricalResult]:
    results: list[EmpiricalResult] = []
    for entry in entries:
        if entry.constructor is None:
            continue
        if not entry.examples:
            results.append(EmpiricalResult(entry.name, "-", "none", NOT_TESTED,
                                           "NOT TESTED: the entry declares no examples "
                                           "(Entry.examples); nothing was run", 0.0))
            continue
        for example in entry.examples:
            try:
                results += _test_example(entry, example, samples, alpha, seed, examples)
            except Exception as error:  # the code under test failed: reported, never passed
                results.append(EmpiricalResult(entry.name, example.call, "-", ERROR,
                                               f"ERROR: {type(error).__name__}: {error}", 0.0))
    return results


def _test_example(entry: Entry, example: Example, samples: int, alpha: float, seed: int,
                  examples: int) -> list[EmpiricalResult]:
    with no_exit():  # an example that exits is an error of the example (ExitAttempted)
        built = example.make()
    if isinstance(built, Measurement) and not isinstance(
            built.output_measure, (MaxDivergence, FixedSmoothedMaxDivergence)):
        return [EmpiricalResult(entry.name, example.call, "privacy", NOT_TESTED,
                                f"NOT TESTED: the privacy tester checks pure-DP and fixed-delta "
                                f"(epsilon, delta) claims; this map is a {built.output_measure} "
                                "distance, which no event-probability bound states", 0.0)]
    if not isinstance(built, Transformation):
        return _privacy(entry, example, built, samples, alpha, seed)
    outcome = test_stability(built, name=entry.name, call=example.call, examples=examples,
                             seed=seed, imports=example.imports)
    return [EmpiricalResult(entry.name, example.call, "stability",
                            _verdict(outcome.violation is not None), outcome.summary(),
                            outcome.seconds)]
