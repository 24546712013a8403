"""Gaussian threshold whose delta uses the weaker lower bound ``e^y >= 1 + y`` in place of the
catalogue's Taylor-polynomial ``exp_lower`` (the map's ``exp_lower`` parameter replaced; "no
series, no squarings: the simplest bound that is always below ``e^y``").

Correct: ``delta = min(1, l0 / (2 (1 + y)))`` with ``y = (gap - 1)^2 / (2 scale^2) >= 0``; since
``1 + y <= e^y`` for every real ``y``, ``1 / (2 (1 + y)) >= e^-y / 2``, which bounds
``Pr[Z >= gap]`` (CKS Prop. 25 and the Gaussian tail), so this delta is never below the exact
bound the catalogue's argument needs: a looser but valid delta (much looser for large gaps).
``rho`` is unchanged. Checked exactly (Fractions): ``1 + y <= exp_lower(y)`` of the catalogue
(itself ``<= e^y``) for many rational ``y``, and the delta never below the catalogue's on a grid.
"""

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Map  # noqa: E402
from mechanisms.make_gaussian_threshold import (build_gaussian_threshold,  # noqa: E402
                                                make_gaussian_threshold)
from mechanisms.make_laplace_threshold import exp_lower  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_gaussian_threshold import gaussian_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_gaussian_threshold"


def one_plus(y):
    """``1 + y <= e^y``."""
    return 1 + y


def build(carrier, scale, threshold):
    m = build_gaussian_threshold(carrier, scale, threshold)
    return replace(m, privacy_map=Map(rule=m.privacy_map.rule,
                                      params={**m.privacy_map.params, "exp_lower": one_plus}))


make_gt_linear = make_gaussian_threshold.variant("make_gaussian_threshold_linear_exp_lower", build)
MECHANISMS = [Entry("outsider_right_gt_linear_exp_lower", make_gt_linear,
                    gaussian_threshold_obligations(make_gt_linear, "outsider_right_gt_linear_exp_lower"))]


def check() -> str:
    ys = [Fraction(i, 7) for i in range(0, 400)] + [Fraction(10) ** e for e in range(-5, 3)]
    assert all(one_plus(y) <= exp_lower(y) for y in ys)
    n = 0
    for scale in (0.3, 1.0, 2.5, 10.0):
        for threshold in (0, 1, 3, 10, 50):
            ours = make_gt_linear(str, scale, threshold)
            theirs = make_gaussian_threshold(str, scale, threshold)
            for d in ((0, 0, 0), (1, 1, 1), (2, 3, 2), (5, 5, 1), (1, 0, 0), (3, 30, 10)):
                (r1, d1), (r2, d2) = ours.map(d), theirs.map(d)
                assert r1 == r2 and Fraction(d1) >= Fraction(d2), (scale, threshold, d)
                n += 1
    return f"1 + y <= exp_lower(y) on {len(ys)} rationals; delta >= the catalogue's on {n} maps"
