"""Approximate composition whose map adds the epsilons and deltas with ``math.fsum`` ("exactly
rounded, no accumulated error").

Wrong: ``fsum`` rounds the exact sum to the *nearest* float, which may be below it. Components
``make_pureDP_to_approxDP(make_discrete_laplace(1.0))`` and
``make_pureDP_to_approxDP(make_discrete_laplace(2.0 ** 60))`` have ``map(1) = (1.0, 0)`` and
``(2^-60, 0)``; ``fsum([1.0, 2^-60]) = 1.0``. The composition's loss on inputs 0 and 1 at the
output ``(0, 0)`` is exactly ``1/1 + 1/2^60`` (each discrete Laplace's log-ratio at ``y = 0`` is
``(|0 - 1| - |0 - 0|)/scale``, the draws independent), above the claimed ``epsilon = 1.0`` with
``delta = 0``.
Hole classes: none listed (a map rounded to nearest).
"""

import math
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Map  # noqa: E402
from mechanisms.make_approxDP_composition import (build_approx_composition,  # noqa: E402
                                                  make_approxDP_composition)
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP  # noqa: E402
from mechanisms.samplers import sample_discrete_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_approxDP_composition import approx_composition_obligations  # noqa: E402

CONSTRUCTOR = "make_approxDP_composition"
CLASSES = ()


def fsum_map(d_in, maps):
    pairs = [m(d_in) for m in maps]
    return math.fsum(p[0] for p in pairs), math.fsum(p[1] for p in pairs)


def build(measurements):
    return replace(build_approx_composition(measurements), privacy_map=Map(
        rule=fsum_map, params={"maps": tuple(m.privacy_map for m in measurements)}))


make_ac_fsum = make_approxDP_composition.variant("make_approxDP_composition_fsum_map", build)
MECHANISMS = [Entry("outsider_approx_composition_fsum_map", make_ac_fsum,
                    approx_composition_obligations(make_ac_fsum,
                                                   "outsider_approx_composition_fsum_map"))]


def witness() -> str:
    scales = (1.0, 2.0 ** 60)
    parts = [make_pureDP_to_approxDP(make_discrete_laplace(s)) for s in scales]
    m = make_ac_fsum(parts)
    eps, delta = m.map(1)
    assert (eps, delta) == (1.0, 0.0), (eps, delta)
    assert all(f.sampler is sample_discrete_laplace for f in m.function.functions)
    # discrete Laplace: ln Pr[a + Z = y] / Pr[b + Z = y] = (|y - b| - |y - a|) / scale, exactly
    y, a, b = 0, 0, 1
    loss = sum(Fraction(abs(y - b) - abs(y - a)) / Fraction(s) for s in scales)
    assert loss == 1 + Fraction(1, 2 ** 60) and loss > Fraction(eps)
    return f"maps (1.0, 0) and (2^-60, 0): fsum gives {(eps, delta)}, the loss at output (0, 0) is 1 + 2^-60"
