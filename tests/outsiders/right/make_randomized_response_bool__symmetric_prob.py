"""Boolean randomized response admitting every ``prob`` in ``(0, 1)``, with the map of the
larger odds, ``ln_up(max(p, 1-p) / min(p, 1-p))`` ("a coin that lies more often than not is as
private as its mirror image": Warner's form, corrected).

Correct: for ``x != x'`` the two laws are ``(p, 1-p)`` and ``(1-p, p)``, so the largest ratio
is ``max(p/(1-p), (1-p)/p)``, which the map bounds (computed exactly on the rational ``p`` and
rounded up by ``ln_up``; its argument is ``>= 1``); ``map(0) = 0``. ``p = 0`` and ``p = 1``
(infinite ratio) are refused, as are NaN and infinities (the comparisons fail). For ``p >= 1/2``
it builds what the catalogue's constructor builds (the same function object and
domains, written out here because the catalogue's build computes its map eagerly). Checked: for ``prob`` in ``(0, 1/2)`` and ``[1/2, 1)``, the
exact ratio of the real function's laws is ``<= e^map(1)`` (mpmath, 40 digits), equal maps for
``prob >= 1/2``, and refusals.
"""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

import mpmath  # noqa: E402

from _exact import coin_options, enumerate_law, max_ratio, mp  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Constructor, Map, Measurement, Precondition  # noqa: E402
from mechanisms.domains import AtomDomain  # noqa: E402
from mechanisms.measures import MaxDivergence  # noqa: E402
from mechanisms.metrics import DiscreteMetric  # noqa: E402
from mechanisms.errors import ConstructorError  # noqa: E402
from mechanisms.make_randomized_response import rr_privacy_map  # noqa: E402
from mechanisms.make_randomized_response_bool import (RandomizedResponseBool,  # noqa: E402
                                                      make_randomized_response_bool,
                                                      validate_rr_bool)
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bool import randomized_response_bool_obligations  # noqa: E402

CONSTRUCTOR = "make_randomized_response_bool"


class OpenProbabilityError(ConstructorError):
    def __init__(self, prob):
        super().__init__(f"prob = {prob!r}; pass a float with 0 < prob < 1", prob=prob)


PRECONDITIONS = (
    Precondition("prob is finite", lambda prob: ops.is_finite(prob),
                 lambda prob: OpenProbabilityError(prob)),
    Precondition("0 < prob < 1", lambda prob: ops.all_of(ops.lt(0, prob), ops.lt(prob, 1)),
                 lambda prob: OpenProbabilityError(prob)),
)


def larger_odds(prob):
    p = ops.exact(prob)
    return ops.where(ops.le(1, 2 * p), p / (1 - p), (1 - p) / p)


def build(prob):
    return Measurement(
        input_domain=AtomDomain(bool),
        output_domain=AtomDomain(bool),
        input_metric=DiscreteMetric(),
        output_measure=MaxDivergence(),
        function=RandomizedResponseBool(prob),
        privacy_map=Map(rule=rr_privacy_map, params={"epsilon": ops.ln_up(larger_odds(prob))}),
    )


make_rr_bool_sym = Constructor("make_randomized_response_bool_symmetric", build, PRECONDITIONS,
                               validate_rr_bool)
MECHANISMS = [Entry("outsider_right_rr_bool_symmetric_prob", make_rr_bool_sym,
                    randomized_response_bool_obligations(make_rr_bool_sym,
                                                         "outsider_right_rr_bool_symmetric_prob"))]


def check() -> str:
    rng = random.Random(9)
    probs = [5e-324, 1e-9, 0.1, 0.25, 1 / 3, 0.5 - 2.0 ** -54, 0.5, 0.6, 0.75, 1 - 2.0 ** -53]
    probs += [rng.uniform(0, 1) for _ in range(40)]
    for prob in probs:
        m = make_rr_bool_sym(prob)
        a = enumerate_law(lambda r: m.function(True, r), coin_options(prob, small=10))
        b = enumerate_law(lambda r: m.function(False, r), coin_options(prob, small=10))
        ratio = max_ratio(a, b)
        assert mp(ratio) <= mpmath.exp(mp(m.map(1))), (prob, ratio, m.map(1))
        assert m.map(0) == 0
        if prob >= 0.5:
            assert m.map(1) == make_randomized_response_bool(prob).map(1)
    for prob in (0.0, 1.0, -0.5, 1.5, math.nan, math.inf, -math.inf):
        try:
            make_rr_bool_sym(prob)
        except ConstructorError:
            continue
        raise AssertionError(f"{prob} accepted")
    return f"exact loss <= map(1) for {len(probs)} probs in (0, 1); refuses 0, 1, NaN, inf"
