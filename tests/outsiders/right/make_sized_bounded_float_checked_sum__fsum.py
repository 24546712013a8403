"""Float sum computed with ``math.fsum`` (the correctly rounded exact sum) under the catalogue's
maps.

Correct: ``fsum(v)`` is the float nearest the exact sum, a function of the multiset, off the exact
sum by at most ``u |sum| <= u n M``, which is below either order's ``error(n)`` (sequential
``n^2 2^-52 M``; pairwise ``uk/(1-uk) n M`` with ``uk = log2(n) 2^-52 >= 2^-52`` for ``n >= 2``; for
``n = 1`` the sum is the row, exact). Two neighbours' fsums are then within ``floor(d/2)(U - L) +
2 error``, the map. Checked exactly: ``|fsum - exact| <= error(n)`` on seeded random vectors, and
no neighbouring pair exceeds ``map(2)``.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402
import random  # noqa: E402
from fractions import Fraction  # noqa: E402

from mechanisms.make_sized_bounded_float_checked_sum import (  # noqa: E402
    ERRORS, build_sized_bounded_float_checked_sum, make_sized_bounded_float_checked_sum)
from obligations.base import Entry  # noqa: E402
from obligations.make_sized_bounded_float_checked_sum import sized_float_sum_obligations  # noqa: E402

CONSTRUCTOR = "make_sized_bounded_float_checked_sum"


def build(size, lower, upper, summation="pairwise"):
    return replace(build_sized_bounded_float_checked_sum(size, lower, upper, summation),
                   function=math.fsum)


make_sfs_fsum = make_sized_bounded_float_checked_sum.variant("make_sized_float_sum_fsum", build)
MECHANISMS = [Entry("outsider_right_sfs_fsum", make_sfs_fsum,
                    sized_float_sum_obligations(make_sfs_fsum, "outsider_right_sfs_fsum"))]


def check() -> str:
    rng = random.Random(7)
    cases = 0
    for summation in ("sequential", "pairwise"):
        for n, lower, upper in ((1, 0.0, 1.0), (3, 0.0, 1.0), (7, 0.0, 0.7), (5, -1.0, 3.0), (16, 0.0, 0.1)):
            t = make_sfs_fsum(n, lower, upper, summation)
            bound = ERRORS[summation](n, lower, upper)
            for _ in range(150):
                v = [rng.choice([lower, upper, rng.uniform(lower, upper)]) for _ in range(n)]
                w = list(v)
                w[rng.randrange(n)] = rng.choice([lower, upper, rng.uniform(lower, upper)])
                assert abs(Fraction(t(v)) - sum(map(Fraction, v))) <= bound
                assert t.output_metric.distance(t(v), t(w)) <= t.map(2)
                cases += 1
    return f"{cases} seeded neighbouring pairs: fsum within error(n) and within map(2)"
