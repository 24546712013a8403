"""Bounded mean after a refactor renamed the fold parameter ``n`` to ``size`` in ``build`` but
not in ``mean_finalize(total, n)``.

Wrong: every call ends in ``finalize(total, size=n)``, a ``TypeError`` on every input. Domains
and the map are untouched.
Hole classes: 14 (the function raises on every input).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Fold  # noqa: E402
from mechanisms.make_bounded_mean import build_bounded_mean, make_bounded_mean, mean_finalize  # noqa: E402
from mechanisms.make_sized_bounded_float_checked_sum import add_step  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_bounded_mean import bounded_mean_obligations  # noqa: E402

CONSTRUCTOR = "make_bounded_mean"
CLASSES = (14,)


def build(lower, upper, n):
    t = build_bounded_mean(lower, upper, n)
    return replace(t, function=Fold(add_step, mean_finalize, 0.0, {"size": n}))


make_mean_renamed = make_bounded_mean.variant("make_bounded_mean_renamed", build)
MECHANISMS = [Entry("outsider_mean_renamed_param", make_mean_renamed,
                    bounded_mean_obligations(make_mean_renamed, "outsider_mean_renamed_param"))]


def witness() -> str:
    failures = 0
    for n in (1, 2, 5):
        t = make_mean_renamed(0.0, 1.0, n)
        for v in ([0.0] * n, [1.0] * n, [0.5] * n):
            try:
                t(v)
            except TypeError:
                failures += 1
    assert failures == 9
    return "mean(...) raises TypeError on all 9 inputs tried (n = 1, 2, 5)"
