"""Noisy top-k whose zCDP map is ``k w^2 d_in^2 / (8 scale^2)`` with the numerator rounded up but
the denominator ``8 * scale * scale`` computed in plain floats (rounded to nearest):
``div_up(mul_up(k w^2, mul_up(d_in, d_in)), 8 * scale * scale)``.

Wrong: a denominator rounded *up* makes the quotient smaller than the exact bound. At
``scale = 8.489593995678604`` (``k = 1``, ``LInfDistance``, ``d_in = 1``), ``8 * scale * scale``
rounds above the exact ``8 scale^2`` and the map returns ``0.006937390831941124``, below the
exact ``rho = (2 / scale)^2 / 8`` (compared as Fractions): the claimed zCDP bound is not a bound
of the rounds' divergence (which attains ``eta^2/8`` only in the limit, so the witness is the
map below its own exact formula, the bound the privacy argument needs).
Hole classes: 4 (a map computed in floats where exact is modelled).
"""

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_noisy_top_k import build_noisy_top_k, make_noisy_top_k  # noqa: E402
from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_noisy_top_k import noisy_top_k_obligations  # noqa: E402

CONSTRUCTOR = "make_noisy_top_k"
CLASSES = (4,)


def nearest_denominator_zcdp_map(d_in, k, scale, width):
    return div_up(ops.mul_up(k * width * width, ops.mul_up(d_in, d_in)), 8 * scale * scale)


def build(k, scale, optimize="max", measure=MaxDivergence(), monotonic=False, T=float):
    m = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    if isinstance(measure, ZeroConcentratedDivergence):
        m = replace(m, privacy_map=Map(rule=nearest_denominator_zcdp_map,
                                       params=m.privacy_map.params))
    return m


make_topk_nd = make_noisy_top_k.variant("make_noisy_top_k_nearest_denominator", build)
MECHANISMS = [Entry("outsider_topk_nearest_denominator", make_topk_nd,
                    noisy_top_k_obligations(make_topk_nd, "outsider_topk_nearest_denominator"))]


def witness() -> str:
    scale = 8.489593995678604
    m = make_topk_nd(1, scale, measure=ZeroConcentratedDivergence())
    claimed = m.map(1.0)
    exact = Fraction(2) ** 2 / (8 * Fraction(scale) ** 2)
    assert Fraction(claimed) < exact, (claimed, exact)
    return f"scale {scale!r}: map(1) = {claimed!r} < exact (2/scale)^2/8 = {float(exact)!r}..."
