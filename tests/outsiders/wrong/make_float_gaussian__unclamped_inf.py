"""Float Gaussian whose function object (a subclass of ``FloatGridGaussian``) overrides
``__call__`` and counts the input in units of ``2^-1074`` with ``Fraction(arg)`` directly
("every float is an integer multiple of 2^-1074"), without clamping ``+-inf`` to
``+-max float`` first.

Wrong: the input domain ``AtomDomain(float)`` admits ``+inf`` and ``-inf`` (only NaN is
excluded), and ``Fraction(inf)`` raises ``OverflowError``: the real function raises on an
admitted input, and whether it raises depends on the data (a data-dependent error, observable
by the analyst).
Hole classes: 2 (a subclass overrides the method that runs).
"""

import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms.make_float_gaussian import (FloatGridGaussian, build_float_gaussian,  # noqa: E402
                                            make_float_gaussian)
from mechanisms.make_laplace import GRID_UNIT  # noqa: E402
from mechanisms.samplers import sample_discrete_gaussian, system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_float_gaussian import float_gaussian_obligations  # noqa: E402

CONSTRUCTOR = "make_float_gaussian"
CLASSES = (2,)


@dataclass(frozen=True)
class DirectUnitsGaussian(FloatGridGaussian):
    def __call__(self, arg, rng=None):
        units = Fraction(arg) / GRID_UNIT
        index = self.grid_index(units.numerator // units.denominator, self.multiple)
        sigma = Fraction(self.grid_scale(self.scale, self.multiple))
        noise = sample_discrete_gaussian(sigma, system_rng(rng)) if sigma > 0 else 0
        return self.grid_to_float(index + noise, self.multiple)


def build(scale, k=-1074):
    m = build_float_gaussian(scale, k)
    return replace(m, function=DirectUnitsGaussian(m.function.scale, m.function.multiple))


make_fg_inf = make_float_gaussian.variant("make_float_gaussian_unclamped_inf", build)
MECHANISMS = [Entry("outsider_fg_unclamped_inf", make_fg_inf,
                    float_gaussian_obligations(make_fg_inf, "outsider_fg_unclamped_inf"))]


def witness() -> str:
    m = make_fg_inf(1.0)
    x = float("inf")
    assert m.input_domain.member(x)
    finite = m(1.0, random.Random(0))
    assert isinstance(finite, float)
    try:
        m(x, random.Random(0))
    except OverflowError as error:
        return f"+inf is in {m.input_domain}; the function raises OverflowError ({error})"
    raise AssertionError("no raise on +inf")
