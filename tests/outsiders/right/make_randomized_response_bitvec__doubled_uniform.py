"""Bit-vector randomized response with a float flip coin that avoids halving ``f``: a bit is
negated when ``2 * rng.random() < f``.

Correct: ``random()`` is ``k / 2^53`` with ``k`` uniform below ``2^53`` (CPython), so
``2 * random() = k / 2^52`` exactly (a power-of-two scaling of a value on the 2^-53 grid, no
overflow or underflow), and the comparison with the float ``f`` is exact: the flip probability is
``p' = #{k : k < f 2^52} / 2^53 = ceil(f 2^52) / 2^53``. For ``0 < f <= 1`` this is
``>= f 2^52 / 2^53 = f/2``, ``<= 2^52 / 2^53 = 1/2``, and ``>= 2^-53 > 0``. The loss of one
differing bit, ``ln((1 - p')/p')``, decreases in ``p'`` on ``(0, 1/2]``, so it is at most
``ln((2 - f)/f)``; the product over at most ``min(size, 2m)`` differing bits (independent draws)
is within the catalogue's map. (Unlike ``random() < f / 2``, which fails at ``f = 2^-1074``.)
Checked: ``p'`` is in ``[f/2, 1/2]`` for many ``f`` including every subnormal edge, and the exact
law of the running ``__call__`` (``random()`` enumerated as its two events) on every pair of
members of ``size = 2, m = 1`` is within ``map(1)``.
"""

import math
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import max_ratio, mp  # noqa: E402
from mechanisms.make_randomized_response_bitvec import (  # noqa: E402
    RandomizedResponseBitvec, build_randomized_response_bitvec, make_randomized_response_bitvec)
from mechanisms.samplers import system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bitvec import (  # noqa: E402
    randomized_response_bitvec_obligations)

CONSTRUCTOR = "make_randomized_response_bitvec"


@dataclass(frozen=True)
class DoubledUniformBitvec(RandomizedResponseBitvec):
    def respond_bit(self, bit, rng):
        return (not bit) if 2 * rng.random() < self.f else bit

    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        return tuple(self.respond_bit(bit, rng) for bit in arg)


def build(m, f, size):
    return replace(build_randomized_response_bitvec(m, f, size), function=DoubledUniformBitvec(f))


make_rr_bitvec_doubled = make_randomized_response_bitvec.variant(
    "make_randomized_response_bitvec_doubled_uniform", build)
MECHANISMS = [Entry("outsider_right_rr_bitvec_doubled_uniform", make_rr_bitvec_doubled,
                    randomized_response_bitvec_obligations(
                        make_rr_bitvec_doubled, "outsider_right_rr_bitvec_doubled_uniform"))]

GRID = 2 ** 53


def flip_probability(f: float) -> Fraction:
    """``Pr[2 k / 2^53 < f]`` for ``k`` uniform below ``2^53``, exactly (``2 * k/2^53`` is exact)."""
    count = min(math.ceil(Fraction(f) * GRID / 2), GRID)
    return Fraction(count, GRID)


class ScriptRandom:
    def __init__(self, script, low, high):
        self.script, self.i, self.low, self.high = script, 0, low, high

    def random(self):
        v = self.low if self.script[self.i] else self.high
        self.i += 1
        return v


def exact_law(meas, x, f):
    p = flip_probability(f)
    low, high = 0.0, 1 - 2.0 ** -53
    assert 2 * low < f and not 2 * high < f or f == 1.0
    law = {}
    for script in product((True, False), repeat=len(x)):
        y = meas.function(x, ScriptRandom(script, low, high))
        w = Fraction(1)
        for s in script:
            w *= p if s else 1 - p
        law[y] = law.get(y, Fraction(0)) + w
    return law


def check() -> str:
    fs = [1.0, 0.5, 0.25, 0.1, 1 / 3, 0.75, 2.0 ** -20, 2.0 ** -60, 1e-300, 5e-324, 1e-323,
          2.0 ** -1022, math.nextafter(1.0, 0.0), 0.3]
    for f in fs:
        p = flip_probability(f)
        assert Fraction(f) / 2 <= p <= Fraction(1, 2) and p > 0, (f, p)
        # the comparison the code makes agrees with the count: k = count - 1 flips, k = count keeps
        count = p * GRID
        assert 2 * ((count - 1) / GRID) < f
        assert count == GRID or not 2 * (float(count) / GRID) < f
    members = [x for x in product((False, True), repeat=2) if sum(x) <= 1]
    pairs = 0
    for f in [0.5, 0.1, 1 / 3, 0.75, 2.0 ** -20]:
        meas = make_rr_bitvec_doubled(1, f, 2)
        for x, y in product(members, repeat=2):
            if x != y:
                ratio = max_ratio(exact_law(meas, x, f), exact_law(meas, y, f))
                assert mpmath.log(mp(ratio)) <= mp(meas.map(1)), (f, x, y, ratio, meas.map(1))
                pairs += 1
    return f"flip probability in [f/2, 1/2] for {len(fs)} f; {pairs} pairs of members within map(1)"
