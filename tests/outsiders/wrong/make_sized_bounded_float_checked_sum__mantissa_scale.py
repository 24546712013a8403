"""Float sum whose error terms use a mutated mantissa scale, ``2^-60`` for binary64's
``2^-52`` ("u for the x87 extended format").

Wrong: the sum runs in binary64, so its rounding error is up to 256 times the relaxation. Found
by a seeded search (reproduced here): sequential order, 7 rows in ``[0, 0.7]``, one row
substituted (``d_in = 2``), float sums further apart than ``map(2)``.
Hole classes: 12 (a mutated constant the proof might borrow).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fractions import Fraction  # noqa: E402

from _exact import stability_violation  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_sized_bounded_float_checked_sum import (  # noqa: E402
    ERRORS, build_sized_bounded_float_checked_sum, make_sized_bounded_float_checked_sum, sum_map)
from obligations.base import Entry  # noqa: E402
from obligations.make_sized_bounded_float_checked_sum import sized_float_sum_obligations  # noqa: E402

CONSTRUCTOR = "make_sized_bounded_float_checked_sum"
CLASSES = (12,)

EXTENDED_SCALE = Fraction(1, 2 ** 60)


def build(size, lower, upper, summation="pairwise"):
    t = build_sized_bounded_float_checked_sum(size, lower, upper, summation)
    relaxation = 2 * ERRORS[summation](size, lower, upper, EXTENDED_SCALE)
    return replace(t, stability_map=Map(rule=sum_map, params={
        "lower": lower, "upper": upper, "relaxation": relaxation}))


make_sfs_ext = make_sized_bounded_float_checked_sum.variant("make_sized_float_sum_extended", build)
MECHANISMS = [Entry("outsider_sfs_mantissa_scale", make_sfs_ext,
                    sized_float_sum_obligations(make_sfs_ext, "outsider_sfs_mantissa_scale"))]


def witness() -> str:
    t = make_sfs_ext(7, 0.0, 0.7, "sequential")
    v = [0.0, 0.07128918484231003, 0.7, 0.7, 0.7, 0.6999999999999998, 0.0]
    w = [0.7, 0.07128918484231003, 0.7, 0.7, 0.7, 0.6999999999999998, 0.0]
    observed, claimed = stability_violation(t, v, w, 2)
    return f"sequential, n = 7, [0, 0.7]: sums {float(observed)!r}.. apart > map(2) = {claimed!r}"
