"""``dpcert audit`` against the real ``opendp`` package (installed by the test extras).

opendp draws from the operating system's randomness, which the auditor cannot seed, so these
audits are not deterministic: alpha = 1e-6 bounds the chance of a false alarm per audit, and the
under-noised variants lose far more than they claim (ln 18 against ln 6; 2 against 1), so 5,000
runs per input detect them with overwhelming probability.
"""

from __future__ import annotations

import pytest

from checker.audit import audit
from examples import opendp_targets as odp

pytestmark = pytest.mark.slow  # third-party audits of 5,000 runs per input: make test-slow

SAMPLES, ALPHA = 5_000, 1e-6


def test_opendp_randomized_response_meets_its_own_claim():
    result = audit(odp.randomized_response, odp.RR_EPSILON, samples=SAMPLES, alpha=ALPHA)
    assert not result.violations, result.summary()


def test_opendp_laplace_meets_its_own_claim():
    result = audit(odp.laplace, odp.LAPLACE_EPSILON, samples=SAMPLES, alpha=ALPHA)
    assert not result.violations, result.summary()


def test_under_noised_laplace_built_from_opendp_is_caught():
    result = audit(odp.laplace_under_noised, odp.LAPLACE_EPSILON, samples=SAMPLES, alpha=ALPHA)
    assert result.violations


def test_too_honest_randomized_response_built_from_opendp_is_caught():
    result = audit(odp.randomized_response_too_honest, odp.RR_EPSILON, samples=SAMPLES, alpha=ALPHA)
    assert result.violations
