"""Boolean randomized response with a float coin, ``honest = rng.random() <= prob`` ("with
probability prob": the usual float idiom, written with ``<=``).

Wrong: ``random.random()`` (and ``SystemRandom.random()``) returns ``k / 2^53`` for ``k`` uniform
in ``[0, 2^53)``, and a float ``prob`` in ``[1/2, 1)`` is itself a multiple of ``2^-53``. So
``Pr[random() <= prob] = (prob 2^53 + 1) / 2^53 = prob + 2^-53``: the coin is biased by one grid
point. At ``prob = 0.5`` the map promises ``epsilon = ln(1) = 0`` (the output is independent of
the input) while ``Pr[M(True) = True] = 1/2 + 2^-53 > Pr[M(False) = True] = 1/2 - 2^-53``: a
positive privacy loss against a zero map. (With ``<`` the coin is exact: see
``right/make_randomized_response_bool__float_coin``.)
Hole classes: 5 (a float sampler), 10 (an off-by-one-grid-point bias, shows in the last bits).
"""

import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402
import random  # noqa: E402

import mpmath  # noqa: E402

from _exact import max_ratio, mp  # noqa: E402
from mechanisms.make_randomized_response_bool import (RandomizedResponseBool,  # noqa: E402
                                                      build_randomized_response_bool,
                                                      make_randomized_response_bool)
from mechanisms.samplers import system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bool import randomized_response_bool_obligations  # noqa: E402

CONSTRUCTOR = "make_randomized_response_bool"
CLASSES = (5, 10)

GRID = 2 ** 53


@dataclass(frozen=True)
class FloatCoinBool(RandomizedResponseBool):
    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        honest = rng.random() <= self.prob
        return arg if honest else not arg


def build(prob):
    return replace(build_randomized_response_bool(prob), function=FloatCoinBool(prob))


make_rr_bool_le = make_randomized_response_bool.variant("make_randomized_response_bool_float_coin_le",
                                                        build)
MECHANISMS = [Entry("outsider_rr_bool_float_coin_le", make_rr_bool_le,
                    randomized_response_bool_obligations(make_rr_bool_le,
                                                         "outsider_rr_bool_float_coin_le"))]


class FixedUniform:
    """An rng whose ``random()`` returns ``u``."""

    def __init__(self, u):
        self.u = u

    def random(self):
        return self.u


def law(m, arg):
    """The exact law of ``m(arg)`` under ``random()`` uniform on ``{k / 2^53}``: the real
    ``__call__`` is run at the grid points around its threshold (honest at ``k <= K``, lying from
    ``K + 1`` on, and at ``k = 0``), so ``K + 1`` of the ``2^53`` points are honest."""
    prob = m.function.prob
    threshold = int(Fraction(prob) * GRID)          # prob is a multiple of 2^-53
    assert Fraction(threshold, GRID) == Fraction(prob)
    at = lambda k: m.function(arg, FixedUniform(k / GRID))  # noqa: E731  (k / 2^53 is exact)
    assert at(0) == arg and at(threshold) == arg and at(threshold + 1) == (not arg)
    assert at(GRID - 1) == (not arg)
    honest = Fraction(threshold + 1, GRID)
    return {arg: honest, (not arg): 1 - honest}


def witness() -> str:
    rng = random.Random(7)
    assert all((rng.random() * GRID).is_integer() for _ in range(1000))  # random() is on the grid
    lines = []
    for prob in (0.5, 0.75):
        m = make_rr_bool_le(prob)
        ratio = max_ratio(law(m, True), law(m, False))
        assert mp(ratio) > mpmath.exp(mp(m.map(1))), (prob, ratio, m.map(1))
        lines.append(f"prob {prob}: exact pmf ratio {ratio} = e^{float(mpmath.log(mp(ratio))):.17g} "
                     f"> e^map(1) = e^{m.map(1)!r}")
    return "; ".join(lines)
