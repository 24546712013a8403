"""Noisy top-k with its two maps written in another order, every float step rounded up:
``MaxDivergence``: ``(k w d_in) / scale`` as ``div_up(mul_up(k w, d_in), scale)``;
``ZeroConcentratedDivergence``: ``((k w^2 d_in^2) / scale) / scale / 8`` as nested ``div_up``s
of ``mul_up(k w^2, mul_up(d_in, d_in))``.

Correct: ``k w`` and ``k w^2`` are exact integers; ``mul_up`` and ``div_up`` never return less
than the exact product / quotient, and both are monotone in their first argument for positive
operands, so each map is at least the exact ``k w d_in / scale`` resp. ``k (w d_in / scale)^2 /
8`` (``+inf`` stays ``+inf``). Checked exactly (Fractions) on a grid and 2,000 seeded random
parameters, both metrics, against the exact formulas and against the catalogue's maps (which
are valid bounds of the same formulas; ours may differ from them by rounding in either
direction, never below the exact value).
"""

import math
import random
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


def pure_products_first(d_in, k, scale, width):
    return div_up(ops.mul_up(k * width, d_in), scale)


def zcdp_products_first(d_in, k, scale, width):
    numerator = ops.mul_up(k * width * width, ops.mul_up(d_in, d_in))
    return div_up(div_up(div_up(numerator, scale), scale), 8)


RULES = {MaxDivergence: pure_products_first, ZeroConcentratedDivergence: zcdp_products_first}


def build(k, scale, optimize="max", measure=MaxDivergence(), monotonic=False, T=float):
    m = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    return replace(m, privacy_map=Map(rule=RULES[type(measure)], params=m.privacy_map.params))


make_topk_products = make_noisy_top_k.variant("make_noisy_top_k_products_first", build)
MECHANISMS = [Entry("outsider_right_topk_products_first", make_topk_products,
                    noisy_top_k_obligations(make_topk_products, "outsider_right_topk_products_first"))]


def exact_bound(measure, k, scale, width, d_in):
    eta = width * Fraction(d_in) / Fraction(scale)
    return k * eta if isinstance(measure, MaxDivergence) else k * eta * eta / 8


def check() -> str:
    rng = random.Random(7)
    grid = [(k, s, d) for k in (1, 2, 5, 1000) for s in (1e-300, 0.1, 1, 3.0, 1e300)
            for d in (0, 0.0, 1, 0.3, 2.5, 1e10)]
    grid += [(rng.randint(1, 10 ** rng.randint(0, 6)), rng.uniform(0, 10) * 10.0 ** rng.randint(-20, 20),
              rng.uniform(0, 10) * 10.0 ** rng.randint(-20, 20)) for _ in range(2000)]
    n = 0
    for k, scale, d_in in grid:
        for measure in (MaxDivergence(), ZeroConcentratedDivergence()):
            for monotonic, width in ((False, 2), (True, 1)):
                value = make_topk_products(k, scale, measure=measure, monotonic=monotonic).map(d_in)
                assert value == math.inf or Fraction(value) >= exact_bound(measure, k, scale, width, d_in)
                n += 1
        for measure in (MaxDivergence(), ZeroConcentratedDivergence()):
            assert make_topk_products(k, scale, measure=measure).map(math.inf) == math.inf
    return f"{n} maps at or above the exact bound; map(inf) = inf"
