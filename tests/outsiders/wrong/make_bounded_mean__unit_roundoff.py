"""Bounded mean whose rounding relaxation uses a mutated unit: ``2^-60`` for both the summation
error scale (``2^-52`` in binary64) and the division's unit roundoff (``2^-53``), "the
extended-precision constants".

Wrong: the code sums and divides in binary64; with the smaller unit, the relaxation no longer
covers the rounding. Found by a seeded search (reproduced here): ``n = 7``, bounds ``[0, 0.7]``.
Hole classes: 12 (a mutated constant the proof might borrow).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fractions import Fraction  # noqa: E402

from _exact import stability_violation  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_bounded_mean import (LEAST_SUBNORMAL, build_bounded_mean,  # noqa: E402
                                          make_bounded_mean, mean_map)
from mechanisms.make_sized_bounded_float_checked_sum import magnitude, sequential_error  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_bounded_mean import bounded_mean_obligations  # noqa: E402

CONSTRUCTOR = "make_bounded_mean"
CLASSES = (12,)

EXTENDED_SCALE = Fraction(1, 2 ** 60)
EXTENDED_ROUNDOFF = Fraction(1, 2 ** 61)


def relaxation(lower, upper, n):
    error = sequential_error(n, lower, upper, EXTENDED_SCALE)
    return (2 * error / n + 2 * EXTENDED_ROUNDOFF * (magnitude(lower, upper) + error / n)
            + LEAST_SUBNORMAL)


def build(lower, upper, n):
    t = build_bounded_mean(lower, upper, n)
    return replace(t, stability_map=Map(rule=mean_map, params={
        "lower": lower, "upper": upper, "n": n, "relaxation": relaxation(lower, upper, n)}))


make_mean_unit = make_bounded_mean.variant("make_bounded_mean_extended_unit", build)
MECHANISMS = [Entry("outsider_mean_unit_roundoff", make_mean_unit,
                    bounded_mean_obligations(make_mean_unit, "outsider_mean_unit_roundoff"))]


def witness() -> str:
    t = make_mean_unit(0.0, 0.7, 7)
    v = [0.0, 0.6276230597814442, 0.0, 0.7, 0.15233308195460812, 0.0, 0.7]
    w = [0.0, 0.6276230597814442, 0.0, 0.7, 0.15233308195460812, 0.7, 0.7]
    observed, claimed = stability_violation(t, v, w, 2)
    return f"n = 7, [0, 0.7]: float means {observed} apart > map(2) = {claimed!r}"
