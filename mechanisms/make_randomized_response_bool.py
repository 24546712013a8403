"""``make_randomized_response_bool(prob)``: release a boolean truthfully with probability ``prob``
and flipped otherwise (Warner 1965; OpenDP's ``make_randomized_response_bool``).

Input and output domain ``AtomDomain(bool)``; discrete metric; max-divergence. For ``x`` in
``{True, False}``: ``Pr[M(x) = x] = p`` and ``Pr[M(x) = not x] = 1 - p``, the coin drawn exactly
(:func:`~mechanisms.samplers.sample_bernoulli_rational` on the rational the float ``p`` denotes).
For ``x != x'`` and either output ``y`` the ratio ``Pr[M(x) = y] / Pr[M(x') = y]`` is
``p / (1 - p)`` or its inverse, at most ``p / (1 - p)`` since ``p >= 1/2``. Privacy map ``0`` for
``d_in = 0`` and ``ln(p / (1 - p))``, rounded up (``arith.ln_up``), for ``d_in >= 1``: the map of
two-category randomized response (:func:`~mechanisms.make_randomized_response.odds` at ``t = 2``).
Preconditions: ``prob`` a float with ``1/2 <= prob < 1`` (OpenDP 0.16 also admits ``prob = 1``,
with ``epsilon = inf``: a release of the bit itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement, Precondition, declares
from mechanisms.domains import AtomDomain
from mechanisms.errors import BoolProbabilityError
from mechanisms.make_randomized_response import odds, rr_privacy_map
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteMetric
from mechanisms.samplers import sample_bernoulli_rational, system_rng

OUTCOMES = 2
"""A boolean is randomized response over two categories: ``odds(p, 2) = p / (1 - p)``."""


@dataclass(frozen=True)
class RandomizedResponseBool:
    """The mechanism's function: one exact coin, honest with probability ``prob``; the input if
    honest, its negation otherwise (OpenDP: ``arg ^ !sample_bernoulli(prob)``)."""

    prob: float

    def __call__(self, arg: bool, rng: Any = None) -> bool:
        rng = system_rng(rng)
        flip = not sample_bernoulli_rational(Fraction(self.prob), rng)
        return arg ^ flip


@declares({"prob": float})
def validate_rr_bool(prob: Any) -> None:
    """``prob`` is a ``float`` (not an int, a bool or a ``Fraction``): the map's proof and its
    rounding are about the rational a float denotes."""
    if type(prob) is not float:
        raise BoolProbabilityError(prob)


RR_BOOL_PRECONDITIONS = (
    Precondition("prob is finite", lambda prob: ops.is_finite(prob),
                 lambda prob: BoolProbabilityError(prob)),
    Precondition("1/2 <= prob < 1",
                 lambda prob: ops.all_of(ops.le(1, ops.exact(prob) * OUTCOMES), ops.lt(prob, 1)),
                 lambda prob: BoolProbabilityError(prob)),
)


def build_randomized_response_bool(prob: Any) -> Measurement:
    return Measurement(
        input_domain=AtomDomain(bool),
        output_domain=AtomDomain(bool),
        input_metric=DiscreteMetric(),
        output_measure=MaxDivergence(),
        function=RandomizedResponseBool(prob),
        privacy_map=Map(rule=rr_privacy_map, params={"epsilon": ops.ln_up(odds(prob, OUTCOMES))}),
    )


make_randomized_response_bool = Constructor("make_randomized_response_bool",
                                            build_randomized_response_bool,
                                            RR_BOOL_PRECONDITIONS, validate_rr_bool)
