"""Laplace threshold whose delta forgets the number of unmatched keys: ``delta = min(1, tail(s))``
instead of ``min(1, l0 tail(s))`` ("delta is the chance that the one key only one dataset has
shows up": true for ``l0 = 1``), epsilon unchanged.

Wrong: ``d_in = (l0, l1, linf)`` may have ``l0 > 1``. ``x = {"a": 0, "b": 0}`` and ``x' = {}``
are at ``(2, 0, 0)`` (two keys present in one map only); with ``scale = 1``, ``threshold = 1``
each key of ``x`` is released independently with probability ``t = Pr[Z >= 1] = q/(1 + q)``,
``q = e^-1`` (0.2689), and ``x'`` always releases ``{}``. The event "something is released" has
``Pr[M(x) in S] = 1 - (1 - t)^2 = 0.4655`` and ``Pr[M(x') in S] = 0``: at the claimed
``epsilon = 0`` the least delta is ``0.4655 > 0.2689``, the claimed delta (the catalogue's
``2 t = 0.538`` covers it).
Hole classes: none listed (a map that holds only for d_in with l0 = 1).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import dl_cdf, mp  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.arith import div_up  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_laplace_threshold import (build_laplace_threshold, exp_lower,  # noqa: E402
                                               laplace_tail_denominator, make_laplace_threshold,
                                               threshold_sensitivities)
from mechanisms.samplers import sample_discrete_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_laplace_threshold import laplace_threshold_obligations  # noqa: E402

CONSTRUCTOR = "make_laplace_threshold"
CLASSES = ()


def single_key_map(d_in, scale, threshold, exp_lower):
    l0, l1, linf = threshold_sensitivities(d_in)
    epsilon = div_up(l1, scale)
    gap = threshold - linf
    tail_bound = div_up(1, laplace_tail_denominator(gap, scale, exp_lower))
    delta = ops.where(ops.eq(l0, 0), 0.0,
                      ops.where(ops.le(gap, 0), 1.0, ops.minimum(1.0, tail_bound)))
    return epsilon, delta


def build(carrier, scale, threshold):
    return replace(build_laplace_threshold(carrier, scale, threshold),
                   privacy_map=Map(rule=single_key_map, params={
                       "scale": scale, "threshold": threshold, "exp_lower": exp_lower}))


make_lt_single = make_laplace_threshold.variant("make_laplace_threshold_delta_single_key", build)
MECHANISMS = [Entry("outsider_laplace_threshold_delta_single_key", make_lt_single,
                    laplace_threshold_obligations(make_lt_single,
                                                  "outsider_laplace_threshold_delta_single_key"))]


def witness() -> str:
    m = make_lt_single(str, 1.0, 1)
    x, y = {"a": 0, "b": 0}, {}
    assert m.input_domain.member(x) and m.input_domain.member(y)
    d = m.input_metric.distance(x, y)
    assert d == (2, 0, 0)
    eps, delta = m.map(d)
    assert eps == 0
    assert m.function.sampler is sample_discrete_laplace and m.function.threshold == 1
    # x' = {} releases {} surely; each key of x is released iff 0 + Z >= 1, independently
    t = 1 - dl_cdf(0, 1)
    p_some = 1 - (1 - t) ** 2
    assert p_some - mpmath.e ** mp(eps) * 0 > mp(delta), (p_some, delta)
    return (f"{x} vs {{}} at d_in {d}: map = {(eps, delta)}, but Pr[M(x) releases a key] = "
            f"{mpmath.nstr(p_some, 6)} against 0 under M(x')")
