"""Run a transformation's real function on neighbouring pairs and compare the output distance,
measured by its output metric, with ``map(d_in)``. Hypothesis ``target()`` steers the search
towards the largest observed-to-claimed ratio; a violation is shrunk and reported as a bug report.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

from hypothesis import HealthCheck, Phase, given, settings, target
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from checker.empirical.strategies import neighbours
from mechanisms.core import Transformation
from obligations.base import Replay
from obligations.reports import stability_report


@dataclass
class StabilityResult:
    name: str
    examples: int
    largest_ratio: float
    seconds: float
    violation: Replay | None = None

    def summary(self) -> str:
        if self.violation is not None:
            return self.violation.report
        return (f"no violation in {self.examples} neighbouring pairs (largest observed/claimed "
                f"{self.largest_ratio:.3g}); testing cannot prove stability")


def _nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


def exceeds(observed: Any, claimed: Any) -> bool:
    """``observed > claimed``, exactly (floats as the rationals they are). A NaN on either side
    bounds nothing, so it counts as exceeding."""
    if _nan(observed) or _nan(claimed):
        return True
    if any(isinstance(v, float) and math.isinf(v) for v in (observed, claimed)):
        return bool(observed > claimed)
    return Fraction(observed) > Fraction(claimed)


RATIO_CAP = 1e9


def ratio(observed: Any, claimed: Any) -> float:
    """``observed / claimed`` for ``target()``, capped (and finite)."""
    if exceeds(observed, claimed) and (claimed == 0 or not math.isfinite(float(observed))):
        return RATIO_CAP
    if claimed == 0 or math.isinf(float(claimed)):
        return 0.0
    return min(float(observed) / float(claimed), RATIO_CAP)


def test_stability(t: Transformation, *, name: str = "transformation", call: str | None = None,
                   d_ins: Sequence[int] = (1, 2, 3, 4), examples: int = 300,
                   seed: int = 0, imports: Sequence[str] = ()) -> StabilityResult:
    """Search for ``v, w`` with ``d_out(f(v), f(w)) > map(d_in(v, w))``; ``call`` is how the
    report writes the construction of ``t``."""
    found: list[tuple[Any, Any, Any, Any, Any]] = []
    largest = [0.0]
    count = [0]

    @hypothesis_seed(seed)
    @settings(max_examples=examples, database=None, deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck),
              phases=[Phase.explicit, Phase.generate, Phase.target, Phase.shrink])
    @given(st.data())
    def search(data: st.DataObject) -> None:
        bound = data.draw(st.sampled_from(list(d_ins)), label="d_in bound")
        v, w = data.draw(neighbours(t.input_domain, t.input_metric, bound), label="v, w")
        d_in = t.input_metric.distance(v, w)
        claimed = t.map(d_in)
        observed = t.output_metric.distance(t(v), t(w))
        count[0] += 1
        largest[0] = max(largest[0], ratio(observed, claimed))
        target(ratio(observed, claimed), label="observed / claimed")
        if exceeds(observed, claimed):
            found.append((v, w, d_in, claimed, observed))
            raise AssertionError("stability violated")

    start = time.perf_counter()
    try:
        search()
    except AssertionError:
        pass
    elapsed = time.perf_counter() - start
    if not found:
        return StabilityResult(name, count[0], largest[0], elapsed)
    v, w, d_in, claimed, observed = found[-1]  # the last failure is the shrunk one
    report = stability_report(call or name, imports, v, w, d_in, claimed, observed, True)
    return StabilityResult(name, count[0], largest[0], elapsed, report)
