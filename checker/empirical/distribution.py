"""Does the sampler draw the distribution its proof assumes? Each outcome's observed frequency
gets a two-sided Clopper-Pearson interval; a stated probability outside it is a mismatch. The
false-alarm budget ``alpha`` is split over every (input, outcome) interval."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from checker.empirical.statistics import clopper_pearson_lower, clopper_pearson_upper


@dataclass
class Mismatch:
    dataset: Any
    outcome: Any
    stated: Fraction
    observed: int
    samples: int
    interval: tuple[float, float]


@dataclass
class DistributionResult:
    inputs: int
    samples: int
    alpha: float
    mismatches: list[Mismatch]

    def summary(self) -> str:
        if self.mismatches:
            m = self.mismatches[0]
            return (f"SAMPLER MISMATCH on {m.dataset!r}: Pr[{m.outcome!r}] is stated {m.stated} "
                    f"(= {float(m.stated):.6g}) but {m.observed}/{m.samples} were drawn, interval "
                    f"[{m.interval[0]:.6g}, {m.interval[1]:.6g}] (false-alarm probability <= "
                    f"{self.alpha:g})")
        return (f"the sampler matches its stated distribution on {self.inputs} inputs, "
                f"{self.samples} draws each (false-alarm probability <= {self.alpha:g})")


def test_distribution(sampler: Callable[[Any, int, np.random.Generator], Sequence[Any]],
                      stated: Callable[[Any], Mapping[Any, Fraction]], inputs: Sequence[Any],
                      samples: int = 20_000, alpha: float = 1e-3, seed: int = 0) -> DistributionResult:
    tables = [(x, stated(x)) for x in inputs]
    draws = {i: Counter(sampler(x, samples, np.random.default_rng([seed, i])))
             for i, (x, _) in enumerate(tables)}
    intervals = sum(len(set(table) | set(draws[i])) for i, (_, table) in enumerate(tables))
    per_interval = alpha / max(intervals, 1)
    mismatches = []
    for i, (x, table) in enumerate(tables):
        for outcome in set(table) | set(draws[i]):
            count = draws[i][outcome]
            low = clopper_pearson_lower(count, samples, per_interval / 2)
            high = clopper_pearson_upper(count, samples, per_interval / 2)
            probability = Fraction(table.get(outcome, 0))
            if not low <= probability <= high:
                mismatches.append(Mismatch(x, outcome, probability, count, samples, (low, high)))
    return DistributionResult(len(tables), samples, alpha, mismatches)
