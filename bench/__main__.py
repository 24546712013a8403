"""``make bench``: runs and wall time the empirical tests need to detect each wrong variant, and
false alarms on the correct partners. Prints a Markdown table (README quotes it)."""

from __future__ import annotations

import argparse
import statistics
import time

from bench import targets
from checker.audit import audit
from checker.empirical.stability import test_stability
from tests.wrong_variants import make_clamp_half_map

GRID = (250, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000)
SEEDS = range(5)
FALSE_ALARM_SEEDS = range(10)
FULL_SAMPLES = 50_000

MEASUREMENTS = [
    ("Laplace, half the noise it claims", targets.laplace_half_noise, targets.EPSILON,
     "Laplace, correct", targets.laplace_correct, targets.EPSILON),
    ("report noisy max returning the value", targets.noisy_max_value, targets.EPSILON,
     "report noisy max returning the index", targets.noisy_max_index, targets.EPSILON),
    ("randomized response, 3 categories, map ln(p/(1-p))", targets.randomized_response,
     targets.RR_TWO_CATEGORY_EPSILON, "randomized response, map ln(p(t-1)/(1-p))",
     targets.randomized_response, targets.RR_EPSILON),
]


def detection(target, epsilon) -> tuple[int | None, float, int]:
    """The smallest runs per input at which every seed detects, the mean wall time of one audit
    there, and the number of pairs tested."""
    for samples in GRID:
        times, caught, pairs = [], 0, 0
        for seed in SEEDS:
            start = time.perf_counter()
            result = audit(target, epsilon, samples=samples, seed=seed)
            times.append(time.perf_counter() - start)
            caught += bool(result.violations)
            pairs = len(result.results) // 2
        if caught == len(SEEDS):
            return samples, statistics.mean(times), pairs
    return None, 0.0, 0


def false_alarms(target, epsilon) -> tuple[int, float]:
    start = time.perf_counter()
    alarms = sum(bool(audit(target, epsilon, samples=FULL_SAMPLES, seed=seed).violations)
                 for seed in FALSE_ALARM_SEEDS)
    return alarms, (time.perf_counter() - start) / len(FALSE_ALARM_SEEDS)


def main() -> None:
    argparse.ArgumentParser(description=__doc__).parse_args()
    print("| wrong variant | detected at (runs per input, all 5 seeds) | pairs | wall time to "
          "detect | correct partner | false alarms (10 seeds x 50,000 runs) | wall time |")
    print("|---|---|---|---|---|---|---|")
    for wrong, target, claim, right, partner, partner_claim in MEASUREMENTS:
        samples, seconds, pairs = detection(target, claim)
        alarms, partner_seconds = false_alarms(partner, partner_claim)
        found = f"{samples:,}" if samples else f"not within {GRID[-1]:,}"
        print(f"| {wrong} | {found} | {pairs} | {seconds:.2f} s | {right} | {alarms} / 10 | "
              f"{partner_seconds:.2f} s |")
    runs = []
    for seed in SEEDS:
        result = test_stability(make_clamp_half_map(0.0, 1.0), seed=seed)
        runs.append((result.examples, result.seconds, result.violation is not None))
    found = all(caught for _, _, caught in runs)
    print(f"| clamp with map d_in / 2 (transformation) | {'all 5 seeds' if found else 'MISSED'}: "
          f"{max(r[0] for r in runs)} pairs at most | - | {max(r[1] for r in runs):.2f} s | "
          "clamp, map d_in | see tests | - |")


if __name__ == "__main__":
    main()
