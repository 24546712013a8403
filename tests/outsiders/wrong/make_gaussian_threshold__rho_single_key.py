"""Gaussian threshold whose rho is one key's ``linf'^2 / (2 scale^2)`` ("every key gets its own
noise, so each key's change is one Gaussian mechanism": the composition over the changed keys
forgotten); delta unchanged.

Wrong when several keys change: the noisy counts of the ``l0`` changed keys compose, ``rho =
sum_k D_k^2 / (2 scale^2)`` (``l1' linf' / (2 scale^2)`` in the catalogue). With scale 1,
threshold 100 and 10 keys, ``x = {k: 1001}`` vs ``x' = {k: 1000}`` are at ``(10, 10, 1)``; the
map claims ``rho = 0.5`` and ``delta = 5e-324`` (its rounded-up ``10 e^-4802 / 2``). Take the event ``S`` = "every key
released with value ``>= 1002``": ``Pr[M(x) in S] = Pr[Z >= 1]^10 > 6.0e-6`` and ``Pr[M(x') in S]
= Pr[Z >= 2]^10 < 4.9e-13`` (rigorous mpmath bounds). delta-approximate rho-zCDP would give,
with Bun and Steinke's conversion at ``delta' = 10^-10`` (``eps = rho + 2 sqrt(rho ln(1/delta'))``
on the conditioned pair), ``Pr[M(x) in S] <= delta + e^eps Pr[M(x') in S] / (1 - delta) +
delta' < 8e-10``: a contradiction. (For a single changed key the map is right.)
Hole classes: 10 (shows only with ``l0 >= 2``).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _dg_tail import tail_lower, tail_upper  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_gaussian_threshold import (build_gaussian_threshold,  # noqa: E402
                                                gaussian_threshold_map, make_gaussian_threshold)
from mechanisms.make_laplace_threshold import threshold_sensitivities  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_gaussian_threshold import gaussian_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_gaussian_threshold"
CLASSES = (10,)


def single_key_map(d_in, scale, threshold, exp_lower):
    _, delta = gaussian_threshold_map(d_in, scale, threshold, exp_lower)
    l0, l1, linf = threshold_sensitivities(d_in)
    exact_scale = ops.exact(scale)
    return div_up(linf * linf, 2 * exact_scale * exact_scale), delta


def build(carrier, scale, threshold):
    m = build_gaussian_threshold(carrier, scale, threshold)
    return replace(m, privacy_map=Map(rule=single_key_map, params=m.privacy_map.params))


make_gt_single = make_gaussian_threshold.variant("make_gaussian_threshold_rho_single_key", build)
MECHANISMS = [Entry("outsider_gt_rho_single_key", make_gt_single,
                    gaussian_threshold_obligations(make_gt_single, "outsider_gt_rho_single_key"))]


def witness() -> str:
    m = make_gt_single(str, 1.0, 100)
    keys = [f"k{i}" for i in range(10)]
    x, x2 = {k: 1001 for k in keys}, {k: 1000 for k in keys}
    d = m.input_metric.distance(x, x2)
    assert tuple(d) == (10, 10, 1), d
    rho, delta = m.map(d)
    p_lower = tail_lower(1, 1) ** 10     # 1001 + Z >= 1002 for every key (>= threshold 100)
    q_upper = tail_upper(1, 2) ** 10     # 1000 + Z >= 1002 for every key
    delta_prime = mpmath.mpf(10) ** -10
    r = mpmath.mpf(rho)
    eps = r + 2 * mpmath.sqrt(r * mpmath.log(1 / delta_prime))
    d_mp = mpmath.mpf(delta)
    allowed = d_mp + mpmath.e ** eps * q_upper / (1 - d_mp) + delta_prime
    assert p_lower > allowed, (p_lower, allowed)
    return (f"scale 1, threshold 100, 10 keys +1: claimed (rho, delta) = {(rho, delta)}; "
            f"Pr[M(x) in S] >= {float(p_lower):.3e} > {float(allowed):.3e}, the most "
            "delta-approximate rho-zCDP allows")
