"""Wrong twins of ``make_canonical_noise``: each obligation has one the checker must refute with a
counterexample confirmed on the real code, and one twin lies outside the proof method."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Map
from mechanisms.domains import AtomDomain
from mechanisms.make_canonical_noise import (CANONICAL_NOISE_PRECONDITIONS, CanonicalNoise,
                                             build_canonical_noise, make_canonical_noise,
                                             validate_canonical_noise)
from mechanisms.samplers import sample_bernoulli_rational
from obligations.base import Entry
from obligations.make_canonical_noise import canonical_noise_obligations


def build_int_output(d_in: Any, d_out: Any):
    """Wrong: the output domain of the integer noise mechanisms, AtomDomain(int)."""
    return replace(build_canonical_noise(d_in, d_out), output_domain=AtomDomain(int))


def build_nan_input(d_in: Any, d_out: Any):
    """Wrong: NaN admitted in the input domain (OpenDP's non-NaN check left out)."""
    return replace(build_canonical_noise(d_in, d_out), input_domain=AtomDomain(float, nan=True))


@dataclass(frozen=True)
class HazardOverAfter(CanonicalNoise):
    """Wrong: the stopping hazard divided by the next tail, not the current one (a probability
    above 1 at the first step: the coin raises)."""

    def sample_interval(self, rng: Any) -> tuple[int, Fraction, Fraction]:
        delta, ratio = ops.exact(self.delta), self.exp_ratio(self.epsilon)
        c = self.fixed_point(ratio, delta)
        if sample_bernoulli_rational(1 - 2 * c, rng):
            return 0, Fraction(-1, 2), Fraction(1)
        before, tail, j = 1 - c, c, 1
        while True:
            after = self.tradeoff(1 - tail, ratio, delta)
            if after == 0 or sample_bernoulli_rational((tail - after) / after, rng):
                break
            before, tail, j = tail, after, j + 1
        length = Fraction(self.last_length(before, tail, delta))
        if sample_bernoulli_rational(Fraction(1, 2), rng):
            return j, Fraction(2 * j - 1, 2), length
        return -j, -Fraction(2 * j - 1, 2) - length, length


@dataclass(frozen=True)
class PureTradeoff(CanonicalNoise):
    """Wrong: the second piece of the tradeoff without delta, (1 - alpha) / r (the pure-DP
    curve's form kept when delta was added)."""

    tradeoff = staticmethod(lambda alpha, ratio, delta: ops.maximum(
        ops.maximum(0, 1 - delta - ratio * alpha), (1 - alpha) / ratio))


def with_function(cls: type):
    def build(d_in: Any, d_out: Any):
        real = build_canonical_noise(d_in, d_out)
        return replace(real, function=cls(d_in, d_out[0], d_out[1]))
    return build


def unconditional_map(d_in: Any, sensitivity: Any, epsilon: Any, delta: Any):
    return epsilon, delta


@dataclass(frozen=True)
class HalfRangeClamp(CanonicalNoise):
    """Wrong: the input clamped to +-max/2 before the noise (mutants
    ``make_canonical_noise:129:39`` and ``129:65``, a clamp constant halved): for |x| above
    max/2 the output is nearest(+-max/2 + Delta N), not nearest(x + Delta N). The law was
    checked at two inputs, 2^60 and -2^52, where nothing is clamped."""

    def __call__(self, arg: float, rng: Any = None) -> float:
        half = 8.988465674311579e+307
        return CanonicalNoise.__call__(self, min(max(arg, -half), half), rng)


def build_unconditional_map(d_in: Any, d_out: Any):
    """Wrong: (eps, delta) for every d_in (OpenDP's bound check on d_in dropped)."""
    real = build_canonical_noise(d_in, d_out)
    return replace(real, privacy_map=Map(rule=unconditional_map, params=real.privacy_map.params))


make_cn_int_output = make_canonical_noise.variant("make_cn_int_output", build_int_output)
make_cn_nan_input = make_canonical_noise.variant("make_cn_nan_input", build_nan_input)
make_cn_hazard_over_after = make_canonical_noise.variant("make_cn_hazard_over_after",
                                                         with_function(HazardOverAfter))
make_cn_pure_tradeoff = make_canonical_noise.variant("make_cn_pure_tradeoff",
                                                     with_function(PureTradeoff))
make_cn_unconditional_map = make_canonical_noise.variant("make_cn_unconditional_map",
                                                         build_unconditional_map)
make_cn_half_range_clamp = make_canonical_noise.variant("make_cn_half_range_clamp",
                                                        with_function(HalfRangeClamp))
make_cn_infinite_sensitivity = Constructor(
    "make_cn_infinite_sensitivity", build_canonical_noise, CANONICAL_NOISE_PRECONDITIONS[1:],
    validate_canonical_noise)
"""Wrong: 'd_in is finite' dropped (mutant ``make_canonical_noise:168:5:drop_precondition``):
d_in = +inf builds, and every call raises (Fraction(inf))."""

MECHANISMS = [
    Entry(c.name, c, canonical_noise_obligations(c, c.name.removeprefix("make_")))
    for c in (make_cn_int_output, make_cn_nan_input, make_cn_hazard_over_after,
              make_cn_pure_tradeoff, make_cn_unconditional_map, make_cn_half_range_clamp,
              make_cn_infinite_sensitivity)
]

EXPECTED_REFUTATIONS = {
    "cn_int_output.output_domain",
    "cn_nan_input.compatibility",
    "cn_hazard_over_after.runtime_errors",
    "cn_pure_tradeoff.distribution",
    "cn_unconditional_map.privacy",
    "cn_half_range_clamp.distribution",
    "cn_infinite_sensitivity.output_domain",
    "cn_infinite_sensitivity.runtime_errors",
}

TWIN_OF = {
    "canonical_noise.output_domain": "cn_int_output.output_domain",
    "canonical_noise.compatibility": "cn_nan_input.compatibility",
    "canonical_noise.runtime_errors": "cn_hazard_over_after.runtime_errors",
    "canonical_noise.distribution": "cn_pure_tradeoff.distribution",
    "canonical_noise.privacy": "cn_unconditional_map.privacy",
}


@dataclass(frozen=True)
class FloatLaplace:
    """Not a ``CanonicalNoise``: Laplace noise by a float inverse CDF (the classic porting
    shortcut); unknown (unsupported: float sampler), never proved."""

    sensitivity: Any
    epsilon: Any

    def __call__(self, arg: float, rng: Any = None) -> float:
        import math
        import random as _random
        u = (rng or _random).random() - 0.5
        return arg - self.sensitivity / self.epsilon * math.copysign(1, u) * \
            math.log(1 - 2 * abs(u))


def build_float_laplace(d_in: Any, d_out: Any):
    return replace(build_canonical_noise(d_in, d_out), function=FloatLaplace(d_in, d_out[0]))


make_cn_float_laplace = make_canonical_noise.variant("make_cn_float_laplace", build_float_laplace)
UNSUPPORTED = [Entry("make_cn_float_laplace", make_cn_float_laplace,
                     canonical_noise_obligations(make_cn_float_laplace, "cn_float_laplace"))]
