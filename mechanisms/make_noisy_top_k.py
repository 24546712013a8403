"""``make_noisy_top_k(k, scale, optimize="max", measure=MaxDivergence(), monotonic=False,
T=float)``: the indices of the ``k`` best scores, privately, by peeling the exponential mechanism
``k`` times.

Round ``r = 1..k`` draws one index ``i_r`` among the candidates not drawn yet, ``R_r = [0, n) \\
{i_1, ..., i_{r-1}}``, with ``Pr[i_r = i] = exp(o s_i / scale) / sum_{j in R_r} exp(o s_j / scale)``
(``o = +1`` for ``optimize="max"``, ``-1`` for ``"min"``); the output is the ordered list
``[i_1, ..., i_k]``. Each round is the exact rejection sampler of
:func:`mechanisms.make_report_noisy_max.make_report_noisy_max` (``NoisyMax``) run on the
remaining scores. Peeling the exponential mechanism has the same law as adding Gumbel noise of
scale ``scale`` to every score and releasing the ``k`` largest in order (OpenDP's "one-shot"
top-k, Durfee and Rogers 2019).

Input domain: vectors of at least ``k`` finite, non-NaN ``T`` (``float`` or ``int``),
``VectorDomain(score_domain(T), min_size=k)``: exactly the vectors the function handles, so no
admitted input raises, and ``Measurement.__call__`` refuses a shorter vector with a
``DomainError`` before the function runs. Input metric
``LInfDistance`` (each score moves by at most ``d_in`` in either direction: the range of the
changes is ``w d_in`` with ``w = 2``) or, with ``monotonic=True``, ``MonotonicLInfDistance`` (all
scores move the same way: ``w = 1``). Output: a list of ``k`` distinct ``int`` indices in
``[0, n)``. Preconditions: ``k`` an ``int >= 1``, ``scale`` a finite float or int ``> 0``.
Privacy maps, computed in OpenDP's order with every float operation rounded up (``+inf`` for an
infinite ``d_in``):

* ``MaxDivergence()``: ``d_in -> k w d_in / scale``: each round is ``(w d_in / scale)``-DP (the
  exponential mechanism on the remaining scores, which stay ``d_in``-close), ``k`` rounds compose;
* ``ZeroConcentratedDivergence()``: ``d_in -> k (w d_in / scale)^2 / 8`` (``k d_in^2 /
  (2 scale^2)`` for ``w = 2``): each round is ``eta``-bounded-range with ``eta = w d_in / scale``,
  hence ``eta^2 / 8``-zCDP (Cesar and Rogers 2021), and zCDP composes additively (Bun and
  Steinke 2016).

Differences from OpenDP 0.16 (``dp.m.make_noisy_top_k``): OpenDP's maps are the same formulas
(``k`` times the per-round ``range / scale``, and ``k (range / scale)^2 / 8`` under zCDP, with
``range = 2 d_in`` for a non-monotonic metric and ``d_in`` for a monotonic one), computed in the
same order with each float operation rounded up, as ours. OpenDP takes the metric as an argument
(``LInfDistance(monotonic=...)``), ours the flag ``monotonic``. OpenDP also admits ``scale = 0``
(deterministic top-k, map ``+inf``), refuses ``k`` above a sized domain's size at construction
and returns fewer than ``k`` indices on fewer than ``k`` scores; ours refuses ``scale = 0``, and
its input domain holds no vector of fewer than ``k`` scores (OpenDP's way of excluding what a
function does not handle: constraining the domain). OpenDP samples on arbitrary-precision floats,
with Gumbel noise under zCDP (the same law as ours) and with exponential noise under pure DP
(its documentation cites McKenna and Sheldon's permute-and-flip: another mechanism with the same
guarantee); ours draws the exponential mechanism exactly by rejection in every round, for both
measures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from mechanisms.errors import MonotonicFlagError, SelectionMeasureError, TopKError
from mechanisms.make_report_noisy_max import (NOISY_MAX_PRECONDITIONS, OPTIMIZE_SIGN, NoisyMax,
                                              score_domain, validate_noisy_max)
from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence
from mechanisms.metrics import LInfDistance, MonotonicLInfDistance
from mechanisms.samplers import system_rng


def top_k_pure_map(d_in: Any, k: Any, scale: Any, width: Any) -> Any:
    """``k w d_in / scale``: ``k`` rounds of ``(w d_in / scale)``-DP, ``w`` the range factor of the
    input metric. OpenDP's order, each step rounded up: ``w d_in`` is exact (doubling), the
    quotient and the product by ``k`` are rounded up (``+inf`` stays ``+inf``)."""
    return ops.mul_up(k, div_up(width * d_in, scale))


def top_k_zcdp_map(d_in: Any, k: Any, scale: Any, width: Any) -> Any:
    """``k eta^2 / 8`` with ``eta = w d_in / scale``: ``k`` rounds, each ``(eta^2 / 8)``-zCDP;
    each step rounded up (``+inf`` stays ``+inf``)."""
    eta = div_up(width * d_in, scale)
    return div_up(ops.mul_up(k, ops.mul_up(eta, eta)), 8)


MEASURE_MAPS = {MaxDivergence: top_k_pure_map, ZeroConcentratedDivergence: top_k_zcdp_map}
"""The privacy map rule of each supported output measure."""

INPUT_METRICS = {False: (LInfDistance(), 2), True: (MonotonicLInfDistance(), 1)}
"""``monotonic`` -> the input metric and the range factor ``w`` of its changes: scores that may
move both ways differ by up to ``2 d_in`` between two candidates, scores that all move the same
way by up to ``d_in``."""


@dataclass(frozen=True)
class NoisyTopK:
    """The mechanism's function: ``k`` rounds of the exact exponential mechanism (``selector``,
    report-noisy-max's rejection sampler), each on the candidates not drawn yet. On ``n >= k``
    scores (the input domain's vectors) round ``r`` has ``n - r + 1 >= 1`` candidates."""

    selector: NoisyMax
    k: Any

    def __call__(self, scores: Sequence[Any], rng: Any = None) -> list[int]:
        rng = system_rng(rng)
        remaining = list(range(len(scores)))
        chosen: list[int] = []
        for _ in range(self.k):
            position = self.selector([scores[i] for i in remaining], rng)
            chosen.append(remaining.pop(position))
        return chosen


def validate_noisy_top_k(k: Any, scale: Any, optimize: Any, measure: Any, monotonic: Any,
                         T: Any) -> None:
    """``k`` an int (not bool), ``measure`` MaxDivergence() or ZeroConcentratedDivergence(),
    ``monotonic`` a bool, and report-noisy-max's checks on ``scale``, ``optimize`` and ``T``."""
    if type(k) is not int:
        raise TopKError(k)
    if type(measure) not in MEASURE_MAPS:
        raise SelectionMeasureError(measure, tuple(f"{t.__name__}()" for t in MEASURE_MAPS))
    if type(monotonic) is not bool:
        raise MonotonicFlagError(monotonic)
    validate_noisy_max(scale, optimize, T)


NOISY_TOP_K_PRECONDITIONS = (
    Precondition("k >= 1", lambda k, **_: ops.le(1, k), lambda k, **_: TopKError(k)),
    *NOISY_MAX_PRECONDITIONS,
)


def build_noisy_top_k(k: Any, scale: Any, optimize: str = "max", measure: Any = MaxDivergence(),
                      monotonic: bool = False, T: type = float) -> Measurement:
    metric, width = INPUT_METRICS[monotonic]
    return Measurement(
        input_domain=VectorDomain(score_domain(T), min_size=k),
        output_domain=SizedDomain(VectorDomain(AtomDomain(int)), k),
        input_metric=metric,
        output_measure=measure,
        function=NoisyTopK(NoisyMax(scale, OPTIMIZE_SIGN[optimize]), k),
        privacy_map=Map(rule=MEASURE_MAPS[type(measure)],
                        params={"k": k, "scale": scale, "width": width}),
    )


make_noisy_top_k = Constructor("make_noisy_top_k", build_noisy_top_k, NOISY_TOP_K_PRECONDITIONS,
                               validate_noisy_top_k)
