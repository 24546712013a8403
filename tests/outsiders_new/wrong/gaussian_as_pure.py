"""make_gaussian_approx(scale): an author who wants an (epsilon, delta) Gaussian release relabels
the catalogue discrete Gaussian's measure as pure DP (``output_measure=MaxDivergence()``, with
``dataclasses.replace``) so that ``make_pureDP_to_approxDP`` accepts it, instead of
``make_zCDP_to_approxDP``.

MISTAKE: the map is then ``(rho, 0)`` with ``rho = (d_in/scale)^2 / 2``: a zCDP parameter read as
a pure-DP epsilon with delta 0. The discrete Gaussian is not pure DP at all: the log-ratio of its
pmfs at inputs 0 and 1 is ``(2y - 1)/(2 scale^2)`` in absolute value, unbounded in ``y``.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from mechanisms.core import Constructor
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP
from mechanisms.measures import MaxDivergence
from mechanisms.samplers import sample_discrete_gaussian
from obligations.base import Entry, example


def build_gaussian_approx(scale):
    gaussian = replace(make_gaussian(scale), output_measure=MaxDivergence())
    return make_pureDP_to_approxDP(gaussian)


make_gaussian_approx = Constructor("make_gaussian_approx", build_gaussian_approx)
MECHANISMS = [Entry("make_gaussian_approx", make_gaussian_approx,
                    examples=(example("make_gaussian_approx(1.0)",
                                      "from gaussian_as_pure import make_gaussian_approx"),))]


def witness() -> str:
    scale = 1.0
    m = make_gaussian_approx(scale)
    for seed in range(50):  # the real code is x + the catalogue's exact discrete Gaussian draw
        assert m(0, random.Random(seed)) == sample_discrete_gaussian(Fraction(scale), random.Random(seed))
        assert m(1, random.Random(seed)) == 1 + sample_discrete_gaussian(Fraction(scale), random.Random(seed))
    eps, delta = m.map(1)
    assert delta == 0
    # exact law: Pr[M(0) = y] / Pr[M(1) = y] = exp(((y-1)^2 - y^2) / (2 s^2)); at y = -3 the
    # log-ratio is 7/2, and the event {-3} has probability > 0 under both: with delta = 0 the
    # claim needs ln ratio <= eps for every single outcome
    y = -3
    log_ratio = Fraction((y - 1) ** 2 - y ** 2) / (2 * Fraction(scale) ** 2)
    assert log_ratio > Fraction(eps), (log_ratio, eps)
    return f"inputs 0 vs 1 (d_in=1), event {{-3}}: exact ln ratio = {log_ratio} > claimed (eps, delta) = ({eps}, {delta})"
