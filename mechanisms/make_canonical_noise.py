"""``make_canonical_noise(d_in, d_out)``: add noise from the canonical noise distribution of the
tradeoff function ``f_{eps, delta}`` (Awan and Vadhan 2023, "Canonical noise distributions and
private hypothesis tests", Definition 3.7 and Theorem 3.9; OpenDP's ``make_canonical_noise``).

Input: a non-NaN float (``AtomDomain(float)``, ``AbsoluteDistance``; ``+-inf`` is clamped to the
largest finite float first, as OpenDP does). ``d_in = Delta > 0`` is the sensitivity the noise is
calibrated for and ``d_out = (eps, delta)`` the guarantee. Output: the float nearest to
``x + Delta * N``, ``N ~ F_f``, for the tradeoff function

    ``f(alpha) = max(0, 1 - delta - r alpha, (1 - delta - alpha) / r)``,

``f_{eta, delta}`` with ``e^eta = r``, ``r`` a rational lower bound of ``e^eps`` (``arith
.exp_lower_bound``, then rounded down to 64 fractional bits), so ``eta <= eps``. ``F_f`` is
Awan and Vadhan's recursion: with ``c = (1 - delta) / (1 + r)`` the fixed point of ``f``,
``F(x) = c (1/2 - x) + (1 - c)(x + 1/2)`` on ``[-1/2, 1/2]``, ``F(x) = 1 - f(F(x - 1))`` above and
``F(x) = f(1 - F(x + 1))`` below. ``F`` is linear on each ``[j - 1/2, j + 1/2]`` except that it
reaches 1 (for ``delta > 0``) inside its last interval: at the half-integers the upper tails
``t_j = 1 - F(j + 1/2)`` are ``t_0 = c``, ``t_j = f(1 - t_{j-1})``.

The sampler is exact: the index ``|K|`` is drawn by exact rational coins, ``Pr[|K| = 0] = 1 - 2c``
then hazard ``(t_{j-1} - t_j) / t_{j-1}`` for ``|K| = j``, a fair sign; given ``K``, ``N`` is
uniform on ``K``'s interval (on the part below the point where ``F`` reaches 1), and the output
is the float nearest ``x + Delta N`` (round half to even), found by drawing fair bits of the
uniform until both ends of the remaining interval round to the same float (rounding is
monotone; the ends are not compared while the interval is wider than twice the largest float
cell in reach, where they cannot agree). No float inverse CDF.

Privacy map: ``(eps, delta)`` for ``0 <= d_in' <= Delta``; ``(eps, 1)`` (true of every mechanism)
above. Preconditions: ``Delta`` a finite float ``> 0`` (``SensitivityError``); ``eps`` a finite
float in ``[2^-7, 512]`` (the exact sampler's cost grows with ``1/eps``: 22 s a draw at
``2^-10``; ``e^eps`` is computed exactly), ``delta`` a float in ``[0, 1)`` (``CanonicalPrivacyError``), and the tradeoff
non-trivial, ``c < 1/2``, i.e. ``r > 1 - 2 delta``.

Differences from OpenDP 0.16: OpenDP uses ``e^eps`` rounded down and ``e^-eps`` rounded up in
its tradeoff (not exactly a symmetric ``f_{eta, delta}``); ours uses one rational ``r`` and its
inverse, exactly ``f_{ln r, delta}``. OpenDP admits ``d_in = 0`` (no noise, map ``(0, 0)``) and
``delta = 1`` and any ``eps > 0``; ours refuses these (and ``eps`` outside ``[2^-7, 512]``). OpenDP's map raises above ``d_in``; ours returns ``(eps, 1)``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mechanisms import ops
from mechanisms.arith import exp_lower_bound, nearest_float
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain
from mechanisms.errors import CanonicalPrivacyError, SensitivityError
from mechanisms.measures import FixedSmoothedMaxDivergence
from mechanisms.metrics import AbsoluteDistance
from mechanisms.samplers import sample_bernoulli_rational, system_rng

MIN_EPSILON = 2.0 ** -7
"""The sampler's rationals grow by 64 bits per unit of noise, and the noise is about 1/eps units:
below 2^-7 a draw takes seconds (22 s at 2^-10), so smaller epsilons are refused."""
MAX_EPSILON = 512.0
"""``r`` is a lower bound of ``e^eps`` computed exactly (``e^512`` has 739 bits; ``e^(1e300)``
cannot be written down), so larger epsilons are refused; at 512 the noise is below ``e^-500``."""
RATIO_BITS = 64
HALF = Fraction(1, 2)
"""``r`` is rounded down to a multiple of ``2^-64``: short rationals, still ``r <= e^eps``."""


@functools.lru_cache(maxsize=256)
def exp_ratio(epsilon: float) -> Fraction:
    """A rational ``r <= e^eps`` (so the noise is for ``f_{ln r, delta}``, ``ln r <= eps``)."""
    scale = 2 ** RATIO_BITS
    return Fraction(math.floor(exp_lower_bound(Fraction(epsilon)) * scale), scale)


def tradeoff(alpha: Any, ratio: Any, delta: Any) -> Any:
    """``f_{ln r, delta}(alpha) = max(0, 1 - delta - r alpha, (1 - delta - alpha) / r)``."""
    return ops.maximum(ops.maximum(0, 1 - delta - ratio * alpha), (1 - delta - alpha) / ratio)


def fixed_point(ratio: Any, delta: Any) -> Any:
    """``c = (1 - delta) / (1 + r)``, the point with ``f(c) = c``."""
    return (1 - delta) / (1 + ratio)


def last_length(before: Any, tail: Any, delta: Any) -> Any:
    """The part of interval ``j`` below the point where ``F`` reaches 1: 1 when
    ``t_{j-1} >= delta`` (``F`` linear on it), else ``(t_{j-2} - delta) / (t_{j-2} - t_{j-1})``
    (``before = t_{j-2}``, ``tail = t_{j-1}``)."""
    return ops.where(ops.le(delta, tail), 1, (before - delta) / (before - tail))


def nearest(value: Fraction) -> float:
    """The float nearest ``value`` (half to even), ``+-max`` beyond the range."""
    return nearest_float(value)


@dataclass(frozen=True)
class CanonicalNoise:
    """The mechanism's function: ``x -> nearest(clamp(x) + sensitivity * N)``, ``N ~ F_f``."""

    sensitivity: Any
    epsilon: Any
    delta: Any

    exp_ratio = staticmethod(exp_ratio)
    tradeoff = staticmethod(tradeoff)
    fixed_point = staticmethod(fixed_point)
    last_length = staticmethod(last_length)

    def sample_interval(self, rng: Any) -> tuple[int, Fraction, Fraction]:
        """``(K, lo, length)``: ``N`` is uniform on ``[lo, lo + length]``, ``K``'s interval."""
        delta, ratio = ops.exact(self.delta), self.exp_ratio(self.epsilon)
        c = self.fixed_point(ratio, delta)
        if sample_bernoulli_rational(1 - 2 * c, rng):
            return 0, Fraction(-1, 2), Fraction(1)
        before, tail, j = 1 - c, c, 1
        while True:
            after = self.tradeoff(1 - tail, ratio, delta)
            if sample_bernoulli_rational((tail - after) / tail, rng):
                break
            before, tail, j = tail, after, j + 1
        length = Fraction(self.last_length(before, tail, delta))
        if sample_bernoulli_rational(Fraction(1, 2), rng):
            return j, Fraction(2 * j - 1, 2), length
        return -j, -Fraction(2 * j - 1, 2) - length, length

    def __call__(self, arg: float, rng: Any = None) -> float:
        rng = system_rng(rng)
        shift = Fraction(min(max(arg, -1.7976931348623157e308), 1.7976931348623157e308))
        scale = ops.exact(self.sensitivity)
        _, lo, width = self.sample_interval(rng)
        start, span = shift + scale * lo, scale * width  # the output is in [start, start + span]
        low, high = nearest(start), nearest(start + span)
        cell = 2 * Fraction(math.ulp(max(abs(low), abs(high))))
        bits, offset = 0, 0  # the uniform is in start + span [offset, offset + 1] / 2^bits
        while True:
            if span <= cell * 2 ** bits:  # else wider than every cell in reach: not compared
                low = nearest(start + span * Fraction(offset, 2 ** bits))
                high = nearest(start + span * Fraction(offset + 1, 2 ** bits))
                if low == high:
                    return low
            bits, offset = bits + 1, 2 * offset
            if sample_bernoulli_rational(HALF, rng):
                offset += 1


def canonical_map(d_in: Any, sensitivity: Any, epsilon: Any, delta: Any) -> tuple[Any, Any]:
    """``(eps, delta)`` for ``d_in <= Delta``; ``(eps, 1)`` above (true of any mechanism)."""
    return epsilon, ops.where(ops.le(d_in, sensitivity), delta, 1)


def validate_canonical_noise(d_in: Any, d_out: Any) -> None:
    """``d_in`` a float; ``d_out`` a pair of floats with the tradeoff non-trivial."""
    if type(d_in) is not float:
        raise SensitivityError(d_in)
    if not isinstance(d_out, tuple) or len(d_out) != 2 or \
            any(type(v) is not float for v in d_out):
        raise CanonicalPrivacyError(d_out, "pass a pair (epsilon, delta) of floats")
    epsilon, delta = d_out
    if not (MIN_EPSILON <= epsilon <= MAX_EPSILON and 0 <= delta < 1):
        raise CanonicalPrivacyError(d_out, "pass 2^-7 <= epsilon <= 512 and 0 <= delta < 1")
    if not 2 * fixed_point(exp_ratio(epsilon), Fraction(delta)) < 1:
        raise CanonicalPrivacyError(d_out, "the tradeoff is trivial (its fixed point is 1/2): "
                                    "epsilon and delta are too small")


CANONICAL_NOISE_PRECONDITIONS = (
    Precondition("d_in is finite", lambda d_in, **_: ops.is_finite(d_in),
                 lambda d_in, **_: SensitivityError(d_in)),
    Precondition("d_in > 0", lambda d_in, **_: ops.lt(0, d_in),
                 lambda d_in, **_: SensitivityError(d_in)),
    Precondition("2^-7 <= epsilon <= 512",
                 lambda d_out, **_: ops.all_of(ops.le(MIN_EPSILON, d_out[0]),
                                               ops.le(d_out[0], MAX_EPSILON)),
                 lambda d_out, **_: CanonicalPrivacyError(d_out, "pass 2^-7 <= epsilon <= "
                                                          "512")),
    Precondition("0 <= delta < 1",
                 lambda d_out, **_: ops.all_of(ops.le(0, d_out[1]), ops.lt(d_out[1], 1)),
                 lambda d_out, **_: CanonicalPrivacyError(d_out, "pass 0 <= delta < 1")),
)


def build_canonical_noise(d_in: Any, d_out: Any) -> Measurement:
    epsilon, delta = d_out
    return Measurement(
        input_domain=AtomDomain(float),
        output_domain=AtomDomain(float),
        input_metric=AbsoluteDistance(),
        output_measure=FixedSmoothedMaxDivergence(),
        function=CanonicalNoise(d_in, epsilon, delta),
        privacy_map=Map(rule=canonical_map, params={"sensitivity": d_in, "epsilon": epsilon,
                                                     "delta": delta}),
    )


make_canonical_noise = Constructor("make_canonical_noise", build_canonical_noise,
                                   CANONICAL_NOISE_PRECONDITIONS, validate_canonical_noise)
