"""The outsider's black-box corpus for ``dpcert audit`` (issue 14): tests/audit_corpus/.

Every wrong mechanism must be found ("violation"), every right one must pass ("none found"), at
the runs per input fixed in ``CASES.SAMPLES``, seed 0 and alpha 1e-3. Cases the auditor gets wrong
are listed in ``CASES.XFAIL`` with the measured numbers and run as strict xfails.

The audits take about 500 s of CPU, so they run apart from the test suites and from CI:
``make audit-corpus`` (marker ``audit_corpus``). The corpus's shape is checked by ``make test``.
"""

from __future__ import annotations

import pytest

from checker.audit import audit
from tests.audit_corpus.CASES import CASES, SAMPLES, XFAIL

EXPECTED = {"wrong": "violation", "right": "none found"}


def _params():
    for name, function, claim, pairs, kind in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=XFAIL[name])] if name in XFAIL else []
        yield pytest.param(name, function, claim, pairs, kind, id=f"{kind}-{name}", marks=marks)


@pytest.mark.audit_corpus
@pytest.mark.parametrize("name, function, claim, pairs, kind", list(_params()))
def test_audit_corpus(name, function, claim, pairs, kind):
    result = audit(function, claim, pairs=pairs, samples=SAMPLES[name], alpha=1e-3, seed=0)
    summary = result.summary() if callable(result.summary) else result.summary
    assert result.verdict == EXPECTED[kind], summary


def test_corpus_shape():
    """At least 10 wrong and 8 right cases, unique names, samples <= 50,000."""
    kinds = [kind for *_, kind in CASES]
    assert kinds.count("wrong") >= 10 and kinds.count("right") >= 8
    names = [name for name, *_ in CASES]
    assert len(set(names)) == len(names) and set(SAMPLES) == set(names)
    assert all(0 < s <= 50_000 for s in SAMPLES.values()) and set(XFAIL) <= set(names)
