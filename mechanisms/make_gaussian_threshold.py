"""``make_gaussian_threshold(carrier, scale, threshold)``: discrete Gaussian noise on every count
of a histogram, released only for keys whose noisy count reaches the threshold (OpenDP's
``make_gaussian_threshold``).

Input and output domain ``MapDomain(AtomDomain(carrier), AtomDomain(int))`` (a histogram, e.g.
from ``make_count_by(carrier)``), input metric :class:`L01InfDistance`, output measure
:class:`ApproximateZeroConcentratedDivergence` (``d_out = (rho, delta)``).

``function(x) = {k: x(k) + Z_k for every key k with x(k) + Z_k >= threshold}``, the ``Z_k``
independent discrete Gaussians, ``Pr[Z = z]`` proportional to ``exp(-z^2 / (2 scale^2))``, drawn
exactly (CKS 2020, Algorithm 3).

Privacy map, for ``d_in = (l0, l1, linf)`` (non-negative numbers, read exactly): with
``l1' = min(l1, l0 linf)``
and ``linf' = min(linf, l1')``,

- ``rho = l1' linf' / (2 scale^2)``: keys in both maps, each ``D^2 / (2 scale^2)``-zCDP (CKS 2020,
  Theorem 4), composed, and ``sum D_k^2 <= max D_k sum D_k <= linf' l1'``;
- ``delta = 0`` if ``l0 = 0``; else with ``s = threshold - linf'``, ``delta = 1`` if ``s <= 0``,
  else ``min(1, l0 exp(-(s - 1)^2 / (2 scale^2)) / 2)``: a key in one map only, ``|count| <=
  linf'``, is released with probability ``Pr[Z >= s] <= Pr[N(0, scale^2) >= s - 1]`` (CKS 2020,
  Proposition 25) ``<= exp(-(s - 1)^2 / (2 scale^2)) / 2`` (the Gaussian tail bound).

Computed exactly and rounded up, ``exp`` entering only through
:func:`mechanisms.make_laplace_threshold.exp_lower` (a rational lower bound of ``e^y``, so one over
it bounds ``e^-y`` from above).

Preconditions: as ``make_laplace_threshold``: ``carrier`` in int, str, bool; ``scale`` a finite
float ``> 0``; ``threshold`` an int ``>= 0``.

Differences from OpenDP 0.16 (``dp.m.make_gaussian_threshold(input_domain, input_metric, scale,
threshold)``): OpenDP's input metric is ``L02InfDistance`` (``l0``, the L2 norm, ``linf``), ours is
``L01InfDistance`` so that it chains after ``make_count_by``; ``l2^2 <= l1 linf`` turns one into
the other, and on a single changed key (``l1 = l2 = linf``) the rho agree. OpenDP's delta bounds
``Pr[Z > threshold - linf']`` although a key is released when its noisy count is ``>= threshold``
(opendp issue #2922); ours bounds ``Pr[Z >= threshold - linf']``. OpenDP bounds the Gaussian tail
by ``erfc`` (tighter by a factor up to about ``t / scale``); ours by
``exp(-t^2 / (2 scale^2)) / 2``.
OpenDP joins keys by ``1 - (1 - tail)^l0``, ours by ``l0 tail``; OpenDP returns ``(0, 0)`` when
``l2 = 0`` and raises when ``threshold < linf``, where ours returns ``delta = 1``.
"""

from __future__ import annotations

from typing import Any, Callable

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Measurement
from mechanisms.make_laplace_threshold import (THRESHOLD_PRECONDITIONS, build_threshold_release,
                                               threshold_sensitivities,
                                               validate_threshold_release)
from mechanisms.measures import ApproximateZeroConcentratedDivergence
from mechanisms.samplers import sample_discrete_gaussian


def gaussian_tail_denominator(gap: Any, scale: Any, exp_lower: Callable[[Any], Any]) -> Any:
    """``2 exp_lower(max(gap - 1, 0)^2 / (2 scale^2))``, at most
    ``2 e^((gap - 1)^2 / (2 scale^2))`` for ``gap >= 1``: one over it bounds ``Pr[Z >= gap]``."""
    exact_scale = ops.exact(scale)
    shifted = ops.maximum(gap - 1, 0)
    return 2 * exp_lower(shifted * shifted / (2 * exact_scale * exact_scale))


def gaussian_threshold_map(d_in: tuple[Any, Any, Any], scale: Any, threshold: Any,
                           exp_lower: Callable[[Any], Any]) -> tuple[Any, Any]:
    """``(rho, delta)`` as in the module docstring, each rounded up."""
    l0, l1, linf = threshold_sensitivities(d_in)
    exact_scale = ops.exact(scale)
    rho = div_up(l1 * linf, 2 * exact_scale * exact_scale)
    gap = threshold - linf
    tail_bound = div_up(l0, gaussian_tail_denominator(gap, scale, exp_lower))
    delta = ops.where(ops.eq(l0, 0), 0.0,
                      ops.where(ops.le(gap, 0), 1.0, ops.minimum(1.0, tail_bound)))
    return rho, delta


def build_gaussian_threshold(carrier: type, scale: Any, threshold: Any) -> Measurement:
    return build_threshold_release(carrier, scale, threshold,
                                   ApproximateZeroConcentratedDivergence(),
                                   sample_discrete_gaussian, gaussian_threshold_map)


make_gaussian_threshold = Constructor("make_gaussian_threshold", build_gaussian_threshold,
                                      THRESHOLD_PRECONDITIONS, validate_threshold_release)
