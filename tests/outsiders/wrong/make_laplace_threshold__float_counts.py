"""Laplace threshold on float-valued histograms (``MapDomain(key, AtomDomain(float))`` in and out:
"sums and means per key, not only counts"), integer discrete Laplace noise added to each value,
map unchanged (it reads ``l1`` and ``linf`` as reals).

Wrong: integer noise preserves the fractional part of a value. ``x = {"a": 9.5}`` and
``x' = {"a": 10.0}`` are at ``(1, 1/2, 1/2)``; with ``scale = 1``, ``threshold = 10`` the map
claims ``(0.5, ~1.1e-4)``. But ``M(x)`` releases values in ``9.5 + Z`` and ``M(x')`` in
``10 + Z``: disjoint supports. The event "a is released with a half-integer value" has
``Pr[M(x) in S] = Pr[Z >= 1] = 0.2689`` and ``Pr[M(x') in S] = 0``: the least delta at any
epsilon is ``0.2689``.
Hole classes: none listed (a domain that does not fit the kernel: floats for ints).
"""

import sys
from dataclasses import replace
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


def build(carrier, scale, threshold):
    values = MapDomain(AtomDomain(carrier), AtomDomain(float))
    return replace(build_laplace_threshold(carrier, scale, threshold),
                   input_domain=values, output_domain=values)


make_lt_float = make_laplace_threshold.variant("make_laplace_threshold_float_counts", build)
MECHANISMS = [Entry("outsider_laplace_threshold_float_counts", make_lt_float,
                    laplace_threshold_obligations(make_lt_float,
                                                  "outsider_laplace_threshold_float_counts"))]


def witness() -> str:
    m = make_lt_float(str, 1.0, 10)
    x, y = {"a": 9.5}, {"a": 10.0}
    assert m.input_domain.member(x) and m.input_domain.member(y)
    d = m.input_metric.distance(x, y)
    eps, delta = m.map(d)
    assert m.function.sampler is sample_discrete_laplace
    # integer noise: every value M(x) releases for "a" is 9.5 + integer, every value of M(x') an
    # integer; the real function on a few seeds shows the fractional parts
    import random
    outs = [m(x, random.Random(s)) for s in range(200)]
    assert all(v % 1 == 0.5 for o in outs for v in o.values())
    assert all(v % 1 == 0 for s in range(200) for v in m(y, random.Random(s)).values())
    p = 1 - dl_cdf(0, 1)  # Pr[9.5 + Z >= 10] = Pr[Z >= 1]
    assert p > mp(delta), (p, delta)
    return (f"{x} vs {y} at d_in {d}: map {(eps, delta)}, but Pr[M(x) releases a half-integer] = "
            f"{float(p):.4f} against 0")
