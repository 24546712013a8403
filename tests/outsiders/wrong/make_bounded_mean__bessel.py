"""Bounded mean dividing by ``n - 1`` (Bessel's correction copied from a variance helper).

Wrong: the output moves by ``(U - L) / (n - 1)`` on one substitution, above the map's
``(U - L) / n`` at ``d_in = 2`` (and ``n = 1`` divides by zero).
Hole classes: none listed (plain "mean dividing by the wrong n").
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms.core import Fold  # noqa: E402
from mechanisms.make_bounded_mean import build_bounded_mean, make_bounded_mean  # noqa: E402
from mechanisms.make_sized_bounded_float_checked_sum import add_step  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_bounded_mean import bounded_mean_obligations  # noqa: E402

CONSTRUCTOR = "make_bounded_mean"
CLASSES = ()


def unbiased_finalize(total, n):
    return total / (n - 1)


def build(lower, upper, n):
    t = build_bounded_mean(lower, upper, n)
    return replace(t, function=Fold(add_step, unbiased_finalize, 0.0, {"n": n}))


make_mean_bessel = make_bounded_mean.variant("make_bounded_mean_bessel", build)
MECHANISMS = [Entry("outsider_mean_bessel", make_mean_bessel,
                    bounded_mean_obligations(make_mean_bessel, "outsider_mean_bessel"))]


def witness() -> str:
    t = make_mean_bessel(0.0, 1.0, 2)
    observed, claimed = stability_violation(t, [0.0, 0.0], [0.0, 1.0], 2)
    return f"n = 2, [0, 1]: means {observed} apart > map(2) = {claimed}"
