"""Laplace threshold on histograms of any finite real value, int or float (a value domain that
admits ``type(v) in (int, float)``, finite: "counts, or per-key sums and means"), integer
discrete Laplace noise, map unchanged. (The same bug as float_counts, with a value domain that
also admits the int counts the catalogue takes.)

Wrong: integer noise keeps a value's fractional part. ``x = {"a": 9.5}`` and ``x' = {"a": 10}``
are at ``(1, 1/2, 1/2)``; with ``scale = 1``, ``threshold = 10`` the map claims
``(0.5, ~1.1e-4)``. ``M(x)`` releases ``a`` only with a value in ``9.5 + Z`` (a half-integer),
``M(x')`` only with an integer: the event "a is released with a half-integer value" has
``Pr[M(x) in S] = Pr[Z >= 1] = 0.2689`` and ``Pr[M(x') in S] = 0``, so the least delta at any
epsilon is ``0.2689``.
Hole classes: none listed (a domain that does not fit the kernel: reals for ints).
"""

import math
import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dl_cdf, mp  # noqa: E402
from mechanisms.domains import AtomDomain, MapDomain  # noqa: E402
from mechanisms.make_laplace_threshold import build_laplace_threshold, make_laplace_threshold  # noqa: E402
from mechanisms.samplers import sample_discrete_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_laplace_threshold import laplace_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_laplace_threshold"
CLASSES = ()


@dataclass(frozen=True)
class RealDomain(AtomDomain):
    """Finite ints and floats (an ``AtomDomain(float)`` whose membership also admits ints)."""

    def member(self, value):
        return type(value) in (int, float) and math.isfinite(value)


def build(carrier, scale, threshold):
    values = MapDomain(AtomDomain(carrier), RealDomain(float))
    return replace(build_laplace_threshold(carrier, scale, threshold),
                   input_domain=values, output_domain=values)


make_lt_numeric = make_laplace_threshold.variant("make_laplace_threshold_numeric_values", build)
MECHANISMS = [Entry("outsider_laplace_threshold_numeric_values", make_lt_numeric,
                    laplace_threshold_obligations(make_lt_numeric,
                                                  "outsider_laplace_threshold_numeric_values"))]


def witness() -> str:
    m = make_lt_numeric(str, 1.0, 10)
    x, y = {"a": 9.5}, {"a": 10}
    assert m.input_domain.member(x) and m.input_domain.member(y)
    d = m.input_metric.distance(x, y)
    eps, delta = m.map(d)
    assert m.function.sampler is sample_discrete_laplace
    assert all(v % 1 == 0.5 for s in range(200) for v in m(x, random.Random(s)).values())
    assert all(v % 1 == 0 for s in range(200) for v in m(y, random.Random(s)).values())
    p = 1 - dl_cdf(0, 1)  # Pr[9.5 + Z >= 10] = Pr[Z >= 1]
    assert p > mp(delta), (p, delta)
    return (f"{x} vs {y} at d_in {d}: map {(eps, delta)}, but Pr[M(x) releases a half-integer] = "
            f"{float(p):.4f} against 0")
