"""Float Gaussian whose input domain admits NaN, ``AtomDomain(float, nan=True)`` ("missing
values are common in real columns; let them through and let the noise hide them"), the kernel
unchanged.

Wrong: the kernel counts its input in units of ``2^-1074`` exactly (``Fraction``), and NaN has no
exact value: the real function raises ``ValueError`` on ``nan``, an admitted input, while it
releases every other float; whether the release fails depends on the data. (The absolute
distance is not defined for NaN either: the metric and the domain do not fit.)
Hole classes: none listed (a domain that does not fit the kernel: NaN).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms.domains import AtomDomain  # noqa: E402
from mechanisms.make_float_gaussian import build_float_gaussian, make_float_gaussian  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_float_gaussian import float_gaussian_obligations  # noqa: E402

CONSTRUCTOR = "make_float_gaussian"
CLASSES = ()


def build(scale, k=-1074):
    return replace(build_float_gaussian(scale, k), input_domain=AtomDomain(float, nan=True))


make_fg_nan = make_float_gaussian.variant("make_float_gaussian_nan_admitted", build)
MECHANISMS = [Entry("outsider_fg_nan_admitted", make_fg_nan,
                    float_gaussian_obligations(make_fg_nan, "outsider_fg_nan_admitted"))]


def witness() -> str:
    m = make_fg_nan(1.0)
    x = float("nan")
    assert m.input_domain.member(x)
    assert isinstance(m(1.0, random.Random(0)), float)
    try:
        m(x, random.Random(0))
    except (ValueError, OverflowError) as error:
        return f"nan is in {m.input_domain}; the function raises {type(error).__name__} ({error})"
    raise AssertionError("no raise on nan")
