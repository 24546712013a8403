"""``make_private_quantile(candidates, alpha, scale, atom_domain=None)``: the ``alpha``-quantile of
a vector of any length, released as the index of one of the ``candidates`` by the exponential
mechanism (OpenDP 0.16's ``make_private_quantile``).

The measurement is the chain

    make_chain_mt(make_report_noisy_max(scale * den, optimize="min", T=int),
                  make_quantile_score_candidates(candidates, alpha, atom_domain))

with ``num / den`` the score's fraction of ``alpha``: candidate ``j`` is released with probability
proportional to ``exp(-score_j / (scale * den))``, where ``score_j / den = |#{x < c_j} - alpha'
(n - #{x = c_j})|`` and ``alpha' = num / den``; the noise scale is ``scale`` in units of rows, as
OpenDP's (``scale * denominator``), whatever fraction ``alpha`` becomes. Input domain and metric
are the score's (symmetric distance), output an ``int`` index in ``[0, len(candidates))``, measure
``MaxDivergence``. Privacy map, the chain's:

    d_in -> noisy_max_map(d_in * max(num, den - num), scale * den)
          = 2 d_in max(num, den - num) / (scale * den),  rounded up,

``2 d_in max(alpha', 1 - alpha') / scale`` when ``scale * den`` is exact (always for a median,
``den = 2``). The noise scale ``scale * den`` is the float product; the map divides by that same
float, the one the sampler runs with.

Preconditions: those of ``make_quantile_score_candidates`` (candidates strictly increasing ints or
non-NaN floats, ``alpha`` in ``[0, 1]``, the row domain) and of ``make_report_noisy_max`` on the
noise scale (``scale`` a float or int, finite and ``> 0``, with ``scale * den`` finite:
:class:`SelectionScaleError`).

Differences from OpenDP 0.16: the release is the index of the candidate, not the candidate (the
caller post-processes ``candidates[index]``, which costs no privacy); candidates must already be
strictly increasing (OpenDP sorts them); pure DP (``MaxDivergence``) only, no zCDP; unsized
inputs only; the exponential mechanism is sampled exactly by rejection
(``make_report_noisy_max``) rather than by Gumbel noise, the same law.
"""

from __future__ import annotations

from typing import Any, Sequence

from mechanisms import ops
from mechanisms.core import Constructor, Measurement, Precondition
from mechanisms.domains import AtomDomain
from mechanisms.errors import SelectionScaleError
from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_quantile_score_candidates import (QUANTILE_SCORE_PRECONDITIONS,
                                                       make_quantile_score_candidates,
                                                       validate_quantile_scores)
from mechanisms.make_report_noisy_max import make_report_noisy_max


def noise_scale(scale: Any, den: Any) -> Any:
    """``scale * den``: the noise scale of the integer scores, ``den`` times the scale in rows."""
    return scale * den


def validate_private_quantile(candidates: Any, alpha: Any, scale: Any,
                              atom_domain: Any = None) -> None:
    """The score's validation, then ``scale`` a float or int (not ``bool``)."""
    validate_quantile_scores(candidates, alpha, atom_domain)
    if type(scale) not in (int, float):
        raise SelectionScaleError(scale)


PRIVATE_QUANTILE_PRECONDITIONS = (
    *QUANTILE_SCORE_PRECONDITIONS,
    Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                 lambda scale, **_: SelectionScaleError(scale)),
    Precondition("scale > 0", lambda scale, **_: ops.lt(0, scale),
                 lambda scale, **_: SelectionScaleError(scale)),
)
"""``scale * den`` finite and ``> 0`` is then checked by ``make_report_noisy_max`` itself."""


def build_private_quantile(candidates: Sequence[Any], alpha: float, scale: float,
                           atom_domain: AtomDomain | None = None) -> Measurement:
    scores = make_quantile_score_candidates(candidates, alpha, atom_domain)
    selection = make_report_noisy_max(noise_scale(scale, scores.function.den), optimize="min",
                                      T=int)
    return make_chain_mt(selection, scores)


make_private_quantile = Constructor("make_private_quantile", build_private_quantile,
                                    PRIVATE_QUANTILE_PRECONDITIONS, validate_private_quantile)
