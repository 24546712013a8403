"""Bit-vector randomized response on ``SizedDomain(VectorDomain(AtomDomain(bool)), size)``: the
weight bound ``m`` dropped from the domain ("any bit vector of the right length; ``m`` is only
for the privacy map"), the map still ``min(size, 2m) ln((2 - f)/f)``.

Wrong: the map counts at most ``2m`` differing bits, which holds only when both vectors have at
most ``m`` ones. With ``m = 1``, ``size = 4``, ``f = 0.5``: ``[T, T, T, T]`` and ``[F, F, F, F]``
are admitted and differ in 4 bits; the output ``(T, T, T, T)`` has probabilities
``(3/4)^4`` and ``(1/4)^4``, ratio ``3^4 = 81``: loss ``4 ln 3 = 4.39 > map(1) = 2 ln 3 = 2.20``.
Hole classes: none listed (a domain that does not fit the map).
"""

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import coin_options, enumerate_law, max_ratio, mp  # noqa: E402
from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain  # noqa: E402
from mechanisms.make_randomized_response_bitvec import (  # noqa: E402
    build_randomized_response_bitvec, make_randomized_response_bitvec)
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bitvec import (  # noqa: E402
    randomized_response_bitvec_obligations)

CONSTRUCTOR = "make_randomized_response_bitvec"
CLASSES = ()


def build(m, f, size):
    return replace(build_randomized_response_bitvec(m, f, size),
                   input_domain=SizedDomain(VectorDomain(AtomDomain(bool)), size))


make_rr_bitvec_unbounded = make_randomized_response_bitvec.variant(
    "make_randomized_response_bitvec_unbounded_weight", build)
MECHANISMS = [Entry("outsider_rr_bitvec_unbounded_weight", make_rr_bitvec_unbounded,
                    randomized_response_bitvec_obligations(make_rr_bitvec_unbounded,
                                                           "outsider_rr_bitvec_unbounded_weight"))]


def witness() -> str:
    f = 0.5
    meas = make_rr_bitvec_unbounded(1, f, 4)
    x, y = [True] * 4, [False] * 4
    assert meas.input_domain.member(x) and meas.input_domain.member(y)
    options = coin_options(Fraction(f) / 2)
    a = enumerate_law(lambda rng: meas(x, rng), options)
    b = enumerate_law(lambda rng: meas(y, rng), options)
    ratio = max_ratio(a, b)
    assert ratio == 81, ratio
    loss = mpmath.log(mp(ratio))
    assert loss > mp(meas.map(1)), (loss, meas.map(1))
    return f"m = 1, size 4, f = 0.5: all-ones vs all-zeros, exact loss ln 81 = {float(loss):.4f} > map(1) = {meas.map(1)!r}"
