"""Bit-vector randomized response with a float "keep" coin: a bit is kept when
``rng.random() < 1 - f/2`` and negated otherwise (the textbook "keep with probability
``1 - f/2``" with Python's uniform float).

Wrong: ``1 - f/2`` is rounded to a float, and ``random()`` is ``k / 2^53``. For small ``f`` the
subtraction rounds to ``1.0``: with ``f = 2^-60`` (admitted: a float in ``(0, 1]``),
``1 - 2^-61`` rounds to ``1.0`` and every ``k / 2^53 < 1.0``: no bit is ever flipped. The
release is the input itself, so for two different members the laws are disjoint point masses
(an infinite loss) while ``map(1) = 2 ln((2 - 2^-60)/2^-60) ≈ 83.2``. (For moderate ``f`` the
flip probability is ``1 - ceil(fl(1 - f/2) 2^53)/2^53``, which may fall just below ``f/2``,
raising the loss slightly above the map.)
Hole classes: none listed (a float draw).
"""

import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.make_randomized_response_bitvec import (  # noqa: E402
    RandomizedResponseBitvec, build_randomized_response_bitvec, make_randomized_response_bitvec)
from mechanisms.samplers import system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bitvec import (  # noqa: E402
    randomized_response_bitvec_obligations)

CONSTRUCTOR = "make_randomized_response_bitvec"
CLASSES = ()


@dataclass(frozen=True)
class FloatKeepBitvec(RandomizedResponseBitvec):
    def respond_bit(self, bit, rng):
        keep = rng.random() < 1 - self.f / 2
        return bit if keep else not bit

    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        return tuple(self.respond_bit(bit, rng) for bit in arg)


def build(m, f, size):
    return replace(build_randomized_response_bitvec(m, f, size), function=FloatKeepBitvec(f))


make_rr_bitvec_keep_float = make_randomized_response_bitvec.variant(
    "make_randomized_response_bitvec_keep_coin_float", build)
MECHANISMS = [Entry("outsider_rr_bitvec_keep_coin_float", make_rr_bitvec_keep_float,
                    randomized_response_bitvec_obligations(make_rr_bitvec_keep_float,
                                                           "outsider_rr_bitvec_keep_coin_float"))]


class ExtremeRandom(random.Random):
    """``random()`` returns its largest value, ``1 - 2^-53`` (the most favourable to a flip)."""

    def random(self):
        return 1 - 2.0 ** -53


def witness() -> str:
    f = 2.0 ** -60
    meas = make_rr_bitvec_keep_float(1, f, 2)
    x, y = (True, False), (False, False)
    assert meas.input_domain.member(x) and meas.input_domain.member(y)
    assert 1 - f / 2 == 1.0
    # random() takes only the values k / 2^53 < 1.0, so the keep test always passes; even its
    # largest value keeps every bit: both laws are point masses at the input.
    assert meas(x, ExtremeRandom()) == x and meas(y, ExtremeRandom()) == y
    assert all(meas(x, random.Random(s)) == x for s in range(200))
    return (f"f = 2^-60: fl(1 - f/2) = 1.0, every bit kept surely; [T, F] vs [F, F] released as "
            f"themselves, loss inf > map(1) = {meas.map(1)!r}")
