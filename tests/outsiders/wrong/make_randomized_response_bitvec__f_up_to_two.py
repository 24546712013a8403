"""Bit-vector randomized response whose precondition on ``f`` reads ``0 < f < 2`` ("the flip
probability ``f/2`` must be below 1"). With ``f > 1`` the odds ``(2 - f)/f`` are below 1 and
``ln_up`` raises (it is defined for ``r >= 1``), so the contributor also clamps the odds:
``ln_up(max((2 - f)/f, 1))``, a no-op on the catalogue's range ``f <= 1``.

Wrong: for ``1 < f < 2`` a bit is flipped with probability ``f/2 > 1/2`` and the map is
``min(size, 2m) ln 1 = 0``, but the true loss is ``h ln(f/(2 - f)) > 0``. With ``f = 1.5``,
``m = 1``, ``size = 2``: ``[T, F]`` and ``[F, T]`` (one ``True`` each, different) have exact laws
whose largest ratio is ``3^2 = 9`` (output ``(F, T)``: ``(3/4)^2`` against ``(1/4)^2``), a loss
``ln 9 = 2.197`` against ``map(1) = 0``. (RAPPOR's ``f`` is in ``[0, 1]``; the map must bound the
loss for every admitted ``f`` anyway.)
Hole classes: none listed (a precondition widened).
"""

import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import coin_options, enumerate_law, max_ratio, mp  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map, Measurement, Precondition  # noqa: E402
from mechanisms.domains import AtomDomain, BitVectorDomain, SizedDomain, VectorDomain  # noqa: E402
from mechanisms.measures import MaxDivergence  # noqa: E402
from mechanisms.metrics import DiscreteVectorMetric  # noqa: E402
from mechanisms.make_randomized_response import rr_privacy_map  # noqa: E402
from mechanisms.errors import BitFlipProbabilityError  # noqa: E402
from mechanisms.make_randomized_response_bitvec import (  # noqa: E402
    RR_BITVEC_PRECONDITIONS, RandomizedResponseBitvec, bit_odds, differing_bits,
    make_randomized_response_bitvec)
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bitvec import (  # noqa: E402
    randomized_response_bitvec_obligations)

CONSTRUCTOR = "make_randomized_response_bitvec"
CLASSES = ()

WIDE = RR_BITVEC_PRECONDITIONS[:3] + (
    Precondition("0 < f < 2", lambda m, f, size: ops.all_of(ops.lt(0, f), ops.lt(f, 2)),
                 lambda m, f, size: BitFlipProbabilityError(f)),)



def build(m, f, size):
    epsilon = ops.mul_up(differing_bits(size, m), ops.ln_up(ops.maximum(bit_odds(f), 1)))
    return Measurement(
        input_domain=BitVectorDomain(size, m),
        output_domain=SizedDomain(VectorDomain(AtomDomain(bool)), size),
        input_metric=DiscreteVectorMetric(),
        output_measure=MaxDivergence(),
        function=RandomizedResponseBitvec(f),
        privacy_map=Map(rule=rr_privacy_map, params={"epsilon": epsilon}),
    )


make_rr_bitvec_f2 = make_randomized_response_bitvec.variant(
    "make_randomized_response_bitvec_f_up_to_two", build)
make_rr_bitvec_f2.preconditions = WIDE
MECHANISMS = [Entry("outsider_rr_bitvec_f_up_to_two", make_rr_bitvec_f2,
                    randomized_response_bitvec_obligations(make_rr_bitvec_f2,
                                                           "outsider_rr_bitvec_f_up_to_two"))]


def witness() -> str:
    f = 1.5
    meas = make_rr_bitvec_f2(1, f, 2)
    x, y = (True, False), (False, True)
    assert meas.input_domain.member(x) and meas.input_domain.member(y)
    assert meas.input_metric.distance(x, y) == 1
    options = coin_options(Fraction(f) / 2)
    a = enumerate_law(lambda rng: meas.function(x, rng), options)
    b = enumerate_law(lambda rng: meas.function(y, rng), options)
    ratio = max_ratio(a, b)
    assert ratio == 9
    loss = mpmath.log(mp(ratio))
    assert loss > mp(meas.map(1)), (loss, meas.map(1))
    return f"f = 1.5, m = 1, size = 2: exact loss ln 9 = {float(loss):.4f} > map(1) = {meas.map(1)!r}"
