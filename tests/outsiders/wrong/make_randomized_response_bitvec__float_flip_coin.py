"""Bit-vector randomized response with a float flip coin: a bit is negated when
``rng.random() < f / 2`` (Python's uniform float, as a RAPPOR client would write it).

(Written first as a *right* variant; its own exact check found the failing ``f``.) For almost
every ``f`` it is fine: ``random()`` is ``k / 2^53``, the flip probability is
``ceil(fl(f/2) 2^53) / 2^53``, which lies in ``[f/2, 1/2]`` and only lowers the odds.

Wrong: ``f = 5e-324 = 2^-1074`` (the least positive float) is admitted (a float in ``(0, 1]``),
and ``f / 2 = 2^-1075`` is a tie between ``0`` and ``2^-1074`` that rounds to the even ``0.0``.
``random() < 0.0`` never holds: no bit is ever flipped, the release is the input, and two
different members have disjoint point-mass laws (infinite loss) while
``map(1) = 2 ln((2 - 2^-1074)/2^-1074) ≈ 1490``.
Hole classes: none listed (a float draw; a bug on one admitted parameter, the least subnormal).
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
class FloatFlipBitvec(RandomizedResponseBitvec):
    def respond_bit(self, bit, rng):
        return (not bit) if rng.random() < self.f / 2 else bit

    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        return tuple(self.respond_bit(bit, rng) for bit in arg)


def build(m, f, size):
    return replace(build_randomized_response_bitvec(m, f, size), function=FloatFlipBitvec(f))


make_rr_bitvec_float_flip = make_randomized_response_bitvec.variant(
    "make_randomized_response_bitvec_float_flip_coin", build)
MECHANISMS = [Entry("outsider_rr_bitvec_float_flip_coin", make_rr_bitvec_float_flip,
                    randomized_response_bitvec_obligations(
                        make_rr_bitvec_float_flip, "outsider_rr_bitvec_float_flip_coin"))]


class ZeroRandom(random.Random):
    """``random()`` returns its least value, ``0.0`` (the most favourable to a flip)."""

    def random(self):
        return 0.0


def witness() -> str:
    f = 5e-324
    meas = make_rr_bitvec_float_flip(1, f, 2)
    assert f / 2 == 0.0
    x, y = (True, False), (False, False)
    assert meas.input_domain.member(x) and meas.input_domain.member(y)
    assert meas.input_metric.distance(x, y) == 1
    # random() >= 0.0 always, so "random() < 0.0" never holds: even its least value keeps.
    assert meas(x, ZeroRandom()) == x and meas(y, ZeroRandom()) == y
    return (f"f = 5e-324: fl(f/2) = 0.0, no bit ever flipped; [T, F] vs [F, F] released as "
            f"themselves, loss inf > map(1) = {meas.map(1)!r}")
