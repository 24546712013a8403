"""``make_laplace_threshold(carrier, scale, threshold)``: noisy counts of a histogram, released
only for keys whose noisy count reaches the threshold (OpenDP's ``make_laplace_threshold``).

Input and output domain ``MapDomain(AtomDomain(carrier), AtomDomain(int))`` (a histogram, e.g.
from ``make_count_by(carrier)``), input metric :class:`L01InfDistance`, output measure
``FixedSmoothedMaxDivergence`` (``d_out = (epsilon, delta)``).

``function(x) = {k: x(k) + Z_k for every key k with x(k) + Z_k >= threshold}``, the ``Z_k``
independent discrete Laplace draws, ``Pr[Z = z] = (1 - q) / (1 + q) q^|z|`` with
``q = exp(-1 / scale)``, drawn exactly (CKS 2020, Algorithm 2).

Privacy map, for ``d_in = (l0, l1, linf)`` (non-negative numbers, read exactly): with
``l1' = min(l1, l0 linf)``
and ``linf' = min(linf, l1')`` (the metric's facts ``linf <= l1 <= l0 linf``),

- ``epsilon = l1' / scale`` (keys in both maps: the discrete Laplace on each, composed);
- ``delta = 0`` if ``l0 = 0``; else with ``s = threshold - linf'``, ``delta = 1`` if ``s <= 0``,
  else ``min(1, l0 * tail(s))``, ``tail(s) = exp(-(s - 1) / scale) / (exp(1 / scale) + 1)``,
  which is ``Pr[Z >= s]``: a key in one map only, with count ``c``, ``|c| <= linf'``, is released
  with probability ``Pr[Z >= threshold - c] <= tail(s)``; at most ``l0`` keys are such.

Both are computed exactly and rounded up: ``exp`` enters only through :func:`exp_lower`, a
rational lower bound of ``e^y`` (``T(y / 16)^16`` with ``T`` the Taylor polynomial of
``mechanisms.arith.taylor_exp_lower``), so ``1 / (exp_lower(x) (exp_lower(1 / scale) + 1))`` is a
rational upper bound of the tail, and ``div_up`` rounds the quotient up to a float.

Preconditions: ``carrier`` in int, str, bool; ``scale`` a finite float ``> 0``
(``ThresholdScaleError``); ``threshold`` an int ``>= 0`` (``ReleaseThresholdError``).

Differences from OpenDP 0.16 (``dp.m.make_laplace_threshold(input_domain, input_metric, scale,
threshold)``):

- OpenDP's delta is ``Pr[Z > threshold - linf']``, while a key is released when its noisy count
  is ``>= threshold``: the mass at ``Z = threshold - linf'`` is missed and its delta is too small
  by the factor ``exp(-1 / scale)`` (opendp issue #2922). Ours is ``Pr[Z >= threshold - linf']``,
  so ours is larger by ``exp(1 / scale)``.
- OpenDP joins keys by ``1 - (1 - tail)^l0``; ours by the union bound ``l0 * tail``, larger by
  at most ``l0 (l0 - 1) tail^2 / 2`` (but OpenDP computes its join in floats that stay above
  ``2^-53``, so where the tail is tinier ours is the smaller).
- OpenDP returns ``(0, 0)`` when ``l1 = 0``; ours still charges ``l0 * tail`` for keys that may be
  in one map only with count 0.
- OpenDP raises when ``threshold < linf``; ours returns ``delta = 1``. OpenDP admits
  ``scale = 0`` (map ``(inf, 1)``), a negative threshold (keeps counts ``<= threshold``) and
  float counts (through a ``2^k`` grid); ours refuses them. The key type is an argument here
  (``carrier``), where OpenDP reads it from the input domain.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from mechanisms import ops
from mechanisms.arith import div_up, taylor_exp_lower
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, MapDomain
from mechanisms.errors import CarrierError, ReleaseThresholdError, ThresholdScaleError
from mechanisms.make_count_by import COUNT_BY_CARRIERS
from mechanisms.measures import FixedSmoothedMaxDivergence
from mechanisms.metrics import AbsoluteDistance, L01InfDistance
from mechanisms.samplers import sample_discrete_laplace, system_rng


EXP_SQUARINGS = 4
"""``exp_lower`` evaluates the Taylor polynomial at ``y / 2^4`` and squares it 4 times."""


def exp_lower(y: Any) -> Any:
    """``T(y / 16)^16 <= e^y`` for ``y >= 0`` (``T`` the Taylor polynomial of degree 24 of
    :func:`mechanisms.arith.taylor_exp_lower`, whose terms are all non-negative there), and
    ``>= 1``; exact rationals on numbers (close to ``e^y`` up to ``y`` of about 200)."""
    bound = taylor_exp_lower(y / 2 ** EXP_SQUARINGS)
    for _ in range(EXP_SQUARINGS):
        bound = bound * bound
    return bound


@dataclass(frozen=True)
class ThresholdedNoise:
    """``x -> {k: shift(x(k), Z_k) for the keys k where keep(shift(x(k), Z_k), threshold)}``,
    ``Z_k = sampler(scale, rng)`` independent integers (an exact sampler of
    :mod:`mechanisms.samplers`)."""

    scale: Any
    threshold: Any
    sampler: Callable[[Any, Any], int]

    @staticmethod
    def shift(count: Any, noise: Any) -> Any:
        """``count + noise``: the noisy count."""
        return count + noise

    @staticmethod
    def keep(noisy: Any, threshold: Any) -> Any:
        """``noisy >= threshold``: the key is released."""
        return ops.le(threshold, noisy)

    def __call__(self, counts: dict[Any, int], rng: Any = None) -> dict[Any, int]:
        rng, scale = system_rng(rng), Fraction(self.scale)
        released: dict[Any, int] = {}
        for key, count in counts.items():
            noisy = self.shift(count, self.sampler(scale, rng))
            if self.keep(noisy, self.threshold):
                released[key] = noisy
        return released


def threshold_sensitivities(d_in: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
    """``(l0, min(l1, l0 linf), min(linf, min(l1, l0 linf)))``: the metric's facts tighten
    ``l1`` and ``linf``."""
    l0, l1, linf = (ops.exact(d) for d in d_in)  # a float read as the rational it is
    l1 = ops.minimum(l1, l0 * linf)
    return l0, l1, ops.minimum(linf, l1)


def laplace_tail_denominator(gap: Any, scale: Any, exp_lower: Callable[[Any], Any]) -> Any:
    """``exp_lower(max(gap - 1, 0) / scale) (exp_lower(1 / scale) + 1)``, at most
    ``e^((gap - 1) / scale) (e^(1 / scale) + 1)`` for ``gap >= 1``: one over it bounds
    ``Pr[Z >= gap]`` from above."""
    exact_scale = ops.exact(scale)
    return exp_lower(ops.maximum(gap - 1, 0) / exact_scale) * (exp_lower(1 / exact_scale) + 1)


def laplace_threshold_map(d_in: tuple[Any, Any, Any], scale: Any, threshold: Any,
                          exp_lower: Callable[[Any], Any]) -> tuple[Any, Any]:
    """``(epsilon, delta)`` as in the module docstring, each rounded up."""
    l0, l1, linf = threshold_sensitivities(d_in)
    epsilon = div_up(l1, scale)
    gap = threshold - linf
    tail_bound = div_up(l0, laplace_tail_denominator(gap, scale, exp_lower))
    delta = ops.where(ops.eq(l0, 0), 0.0,
                      ops.where(ops.le(gap, 0), 1.0, ops.minimum(1.0, tail_bound)))
    return epsilon, delta


def validate_threshold_release(carrier: Any, scale: Any, threshold: Any) -> None:
    """``carrier`` a supported key type, ``scale`` a float, ``threshold`` an int (not a bool)."""
    if carrier not in COUNT_BY_CARRIERS:
        raise CarrierError(carrier, COUNT_BY_CARRIERS)
    if type(scale) is not float:
        raise ThresholdScaleError(scale)
    if type(threshold) is not int:
        raise ReleaseThresholdError(threshold)


THRESHOLD_PRECONDITIONS = (
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: ThresholdScaleError(scale)),
    Precondition("scale > 0", lambda scale, **_: ops.lt(0, scale),
                 lambda scale, **_: ThresholdScaleError(scale)),
    Precondition("threshold >= 0", lambda threshold, **_: ops.le(0, threshold),
                 lambda threshold, **_: ReleaseThresholdError(threshold)),
)
"""Shared with ``make_gaussian_threshold``."""


def build_threshold_release(carrier: type, scale: Any, threshold: Any, output_measure: Any,
                            sampler: Callable[..., int], rule: Callable[..., Any]) -> Measurement:
    """Histograms in and out, the L01Inf input metric, ``output_measure``, the noise drawn by
    ``sampler`` at ``scale`` with the release at ``threshold``, and the privacy map ``rule`` at
    the same scale and threshold with :func:`exp_lower`. Shared with
    ``make_gaussian_threshold``."""
    histograms = MapDomain(AtomDomain(carrier), AtomDomain(int))
    return Measurement(
        input_domain=histograms,
        output_domain=histograms,
        input_metric=L01InfDistance(AbsoluteDistance()),
        output_measure=output_measure,
        function=ThresholdedNoise(scale, threshold, sampler),
        privacy_map=Map(rule=rule,
                        params={"scale": scale, "threshold": threshold, "exp_lower": exp_lower}),
    )


def build_laplace_threshold(carrier: type, scale: Any, threshold: Any) -> Measurement:
    return build_threshold_release(carrier, scale, threshold, FixedSmoothedMaxDivergence(),
                                   sample_discrete_laplace, laplace_threshold_map)


make_laplace_threshold = Constructor("make_laplace_threshold", build_laplace_threshold,
                                     THRESHOLD_PRECONDITIONS, validate_threshold_release)
