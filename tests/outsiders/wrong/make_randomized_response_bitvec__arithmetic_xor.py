"""Bit-vector randomized response that flips by arithmetic, ``(bit + coin) % 2`` (XOR "written
out" so that it also works on 0/1 columns), the output domain still vectors of bools.

Wrong: ``(True + False) % 2`` is the int ``1``, not the bool ``True``: every release is a tuple
of ints, outside ``SizedDomain(VectorDomain(AtomDomain(bool)), size)`` (whose atoms are exactly
``bool``). A chained consumer proved for bools (``make_count_by(bool)``, say) gets ints, and
``{1: .., 0: ..}`` keys would merge with ``True``/``False`` only by accident of hashing.
Hole classes: none listed (bool vs int: an output outside the declared domain).
"""

import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import out_of_domain  # noqa: E402
from mechanisms.make_randomized_response_bitvec import (  # noqa: E402
    RandomizedResponseBitvec, build_randomized_response_bitvec, make_randomized_response_bitvec)
from mechanisms.samplers import sample_bernoulli_rational  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bitvec import (  # noqa: E402
    randomized_response_bitvec_obligations)

CONSTRUCTOR = "make_randomized_response_bitvec"
CLASSES = ()


@dataclass(frozen=True)
class ArithmeticXorBitvec(RandomizedResponseBitvec):
    def respond_bit(self, bit, rng):
        return (bit + sample_bernoulli_rational(self.flip_probability(), rng)) % 2


def build(m, f, size):
    return replace(build_randomized_response_bitvec(m, f, size),
                   function=ArithmeticXorBitvec(f))


make_rr_bitvec_arith = make_randomized_response_bitvec.variant(
    "make_randomized_response_bitvec_arithmetic_xor", build)
MECHANISMS = [Entry("outsider_rr_bitvec_arithmetic_xor", make_rr_bitvec_arith,
                    randomized_response_bitvec_obligations(make_rr_bitvec_arith,
                                                           "outsider_rr_bitvec_arithmetic_xor"))]


def witness() -> str:
    meas = make_rr_bitvec_arith(1, 0.5, 3)
    x = (True, False, False)
    assert meas.input_domain.member(x)
    out = meas(x, random.Random(0))
    assert not meas.output_domain.member(out) and all(type(b) is int for b in out), out
    return f"release of {x}: {out}, ints, not in {meas.output_domain}"
