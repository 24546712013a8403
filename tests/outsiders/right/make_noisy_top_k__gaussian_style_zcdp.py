"""Noisy top-k whose zCDP map is written "as the Gaussian's", ``k (d_in / scale)^2 / 2`` (each
step rounded up), for both metrics, instead of the bounded-range ``k (w d_in / scale)^2 / 8``;
the pure-DP map, the kernel and the domains the catalogue's.

Right: for the two-way metric (``w = 2``) the two formulas are equal, ``(2 e)^2 / 8 = e^2 / 2``
with ``e = d_in / scale``; for the monotonic one (``w = 1``) ``e^2 / 2 >= e^2 / 8``: never below
the catalogue's proved bound, so still a valid (looser) zCDP bound. Checked exactly (Fractions):
on a grid of ``k``, scales and ``d_in``, for both flags, the map is ``>= k (w d_in/scale)^2 / 8``
and ``>=`` the catalogue's float map.
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


def gaussian_style_map(d_in, k, scale):
    e = div_up(d_in, scale)
    return div_up(ops.mul_up(k, ops.mul_up(e, e)), 2)


def build(k, scale, optimize="max", measure=MaxDivergence(), monotonic=False, T=float):
    m = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    if type(measure) is ZeroConcentratedDivergence:
        m = replace(m, privacy_map=Map(rule=gaussian_style_map, params={"k": k, "scale": scale}))
    return m


make_topk_gauss = make_noisy_top_k.variant("make_noisy_top_k_gaussian_style_zcdp", build)
MECHANISMS = [Entry("outsider_o2_right_topk_gaussian_style_zcdp", make_topk_gauss,
                    noisy_top_k_obligations(make_topk_gauss, "outsider_o2_right_topk_gaussian_style_zcdp"))]


def check() -> str:
    n = 0
    z = ZeroConcentratedDivergence()
    for monotonic, w in ((False, 2), (True, 1)):
        for k in (1, 2, 3, 7):
            for scale in (0.1, 0.5, 1.0, 3.0, 1 / 3, 1e-3):
                ours = make_topk_gauss(k, scale, measure=z, monotonic=monotonic)
                theirs = make_noisy_top_k(k, scale, measure=z, monotonic=monotonic)
                for d in (0, 1, 2, 0.5, 3.25):
                    bound = k * (w * Fraction(d) / Fraction(scale)) ** 2 / 8
                    assert Fraction(ours.map(d)) >= bound and ours.map(d) >= theirs.map(d)
                    n += 1
    return f"map >= k (w d/scale)^2 / 8 exactly and >= the catalogue's on {n} cases"
