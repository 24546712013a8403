"""pytest plugin: run dpcert's empirical tests inside a project's own test suite.

Installed with dpcert (entry point ``pytest11``), it provides two fixtures:

* ``assert_stable(transformation, call=..., examples=300, seed=0)`` fails the test with the bug
  report when a neighbouring pair breaks ``map(d_in)``;
* ``assert_private(target, epsilon, pairs=None, samples=50_000, alpha=1e-3, seed=0,
  timeout=None)`` fails when the statistical audit finds a violation (a black-box callable, as for
  ``dpcert audit``), and when its verdict is unknown: some pairs could not be tested (the target
  raised, or its outputs could not be read) or the timeout stopped it. An audit that could not
  test some pairs never passes silently.

Both are seeded, so a passing test passes every time; ``alpha`` is the false-alarm probability.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

from checker.audit import audit
from checker.empirical.privacy import PrivacyAudit
from checker.empirical.stability import StabilityResult, test_stability


@pytest.fixture
def assert_stable() -> Callable[..., StabilityResult]:
    def check(transformation: Any, **options: Any) -> StabilityResult:
        result = test_stability(transformation, **options)
        if result.violation is not None:
            pytest.fail(result.violation.report, pytrace=False)
        return result
    return check


@pytest.fixture
def assert_private() -> Callable[..., PrivacyAudit]:
    def check(target: Callable[[Any], Any], epsilon: float, **options: Any) -> PrivacyAudit:
        result = audit(target, epsilon, **options)
        if result.verdict == "violation":
            pytest.fail(result.summary(), pytrace=False)
        if result.verdict != "none found":  # unknown: pairs in error, or stopped by the timeout
            untested = "\n".join(f"  not tested: x = {e.x!r}, x' = {e.x_prime!r}: {e.message}"
                                  for e in result.errors)
            pytest.fail(result.summary() + ("\n" + untested if untested else ""), pytrace=False)
        return result
    return check
