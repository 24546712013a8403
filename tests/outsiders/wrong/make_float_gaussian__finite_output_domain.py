"""Float Gaussian whose output domain is declared finite, ``AtomDomain(float, bounds=(-max
float, max float))`` ("the noisy value of a finite input is finite; downstream sums can rely on
it"), the kernel unchanged.

Wrong: the kernel rounds ``(i + Z) 2^k`` to the nearest float and returns ``+-inf`` beyond the
float range (its documented behaviour), so an input near the top of the range with large noise
is released as ``inf``, outside the declared domain. Run on the real function: ``k = 1000``,
``scale = 2^1020`` (``sigma = 2^20`` grid steps), input ``max float``: about half of the seeded
releases are ``inf``.
Hole classes: none listed (an output outside the declared domain).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402
import random  # noqa: E402

from mechanisms.domains import AtomDomain  # noqa: E402
from mechanisms.make_float_gaussian import build_float_gaussian, make_float_gaussian  # noqa: E402
from mechanisms.make_laplace import FLOAT_MAX  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_float_gaussian import float_gaussian_obligations  # noqa: E402

CONSTRUCTOR = "make_float_gaussian"
CLASSES = ()


def build(scale, k=-1074):
    return replace(build_float_gaussian(scale, k),
                   output_domain=AtomDomain(float, bounds=(-FLOAT_MAX, FLOAT_MAX)))


make_fg_finite = make_float_gaussian.variant("make_float_gaussian_finite_output", build)
MECHANISMS = [Entry("outsider_fg_finite_output_domain", make_fg_finite,
                    float_gaussian_obligations(make_fg_finite, "outsider_fg_finite_output_domain"))]


def witness() -> str:
    m = make_fg_finite(2.0 ** 1020, 1000)
    rng = random.Random(0)
    outs = [m(FLOAT_MAX, rng) for _ in range(40)]
    outside = [y for y in outs if not m.output_domain.member(y)]
    assert outside and all(math.isinf(y) for y in outside)
    return f"k = 1000, scale 2^1020, input max float: {len(outside)} of 40 releases are inf, outside {m.output_domain}"
