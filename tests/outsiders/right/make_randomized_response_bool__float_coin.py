"""Boolean randomized response with a float coin, ``honest = rng.random() < prob`` (the everyday
idiom, as in most RR code), instead of the exact rational coin.

Correct, exactly: ``random.Random.random()`` and ``SystemRandom.random()`` both return ``k / 2^53``
for ``k`` uniform in ``[0, 2^53)`` (CPython: 53 random bits times ``2^-53``), and the precondition
makes ``prob`` a float in ``[1/2, 1)``, i.e. ``prob = K / 2^53`` with ``K`` an integer (its
exponent is -1, 52 fraction bits). The comparison is exact, so the honest draws are
``k = 0 .. K - 1``: ``Pr[honest] = K / 2^53 = prob`` exactly, the catalogue's law, and the map
(about that law) holds. Checked: ``prob 2^53`` is an integer for every tested ``prob``; the real
``__call__`` is honest at ``k = 0`` and ``k = K - 1`` and lies at ``k = K`` and ``k = 2^53 - 1``
(it compares ``u < prob``, monotone in ``u``); both generators' outputs lie on the ``2^-53``
grid; the resulting law equals the catalogue's exact law on both inputs.
"""

import random
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import coin_options, enumerate_law  # noqa: E402
from mechanisms.make_randomized_response_bool import (RandomizedResponseBool,  # noqa: E402
                                                      build_randomized_response_bool,
                                                      make_randomized_response_bool)
from mechanisms.samplers import system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bool import randomized_response_bool_obligations  # noqa: E402

CONSTRUCTOR = "make_randomized_response_bool"

GRID = 2 ** 53


@dataclass(frozen=True)
class FloatCoinBool(RandomizedResponseBool):
    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        honest = rng.random() < self.prob
        return arg if honest else not arg


def build(prob):
    return replace(build_randomized_response_bool(prob), function=FloatCoinBool(prob))


make_rr_bool_float = make_randomized_response_bool.variant(
    "make_randomized_response_bool_float_coin", build)
MECHANISMS = [Entry("outsider_right_rr_bool_float_coin", make_rr_bool_float,
                    randomized_response_bool_obligations(make_rr_bool_float,
                                                         "outsider_right_rr_bool_float_coin"))]


class FixedUniform:
    def __init__(self, u):
        self.u = u

    def random(self):
        return self.u


def check() -> str:
    for gen in (random.Random(11), random.SystemRandom()):
        assert all((gen.random() * GRID).is_integer() for _ in range(2000))
    probs = [0.5, 0.5 + 2.0 ** -52, 0.6, 2 / 3, 0.75, 0.9, 0.999, 1 - 2.0 ** -53]
    rng = random.Random(5)
    probs += [rng.uniform(0.5, 1.0) for _ in range(50)]
    for prob in probs:
        m = make_rr_bool_float(prob)
        big_k = Fraction(prob) * GRID
        assert big_k.denominator == 1
        big_k = int(big_k)
        for arg in (True, False):
            at = lambda k: m.function(arg, FixedUniform(k / GRID))  # noqa: E731
            assert at(0) == arg and at(big_k - 1) == arg
            assert at(big_k) == (not arg) and at(GRID - 1) == (not arg)
            ours = {arg: Fraction(big_k, GRID), (not arg): 1 - Fraction(big_k, GRID)}
            catalogue = make_randomized_response_bool(prob)
            theirs = enumerate_law(lambda r: catalogue.function(arg, r), coin_options(prob))
            assert ours == theirs, (prob, arg, ours, theirs)
            assert m.map(1) == catalogue.map(1)
    return f"exact law equal to the catalogue's for {len(probs)} probs, both inputs"
