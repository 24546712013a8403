"""Exact (mpmath, 40 digits) laws of peeled top-k, for the ``make_noisy_top_k`` outsider variants.

Only the running function's own pieces are used: the law of each round is the exponential
mechanism on the ``gammas`` that the function's own ``selector`` computes for the remaining
scores (the rejection sampler of ``NoisyMax`` returns ``i`` with probability
``exp(-gamma_i) / sum_j exp(-gamma_j)``).
"""

from __future__ import annotations

from typing import Any, Sequence

import mpmath

from _exact import exponential_mechanism_law

mpmath.mp.dps = 40


def peel_law(function: Any, scores: Sequence[Any]) -> dict[tuple[int, ...], Any]:
    """``Pr[(i_1, ..., i_k)]`` for a ``NoisyTopK``-shaped function (``selector``, ``k``)."""
    law: dict[tuple[int, ...], Any] = {}

    def descend(remaining: list[int], prefix: tuple[int, ...], weight: Any) -> None:
        if len(prefix) == function.k:
            law[prefix] = weight
            return
        round_law = exponential_mechanism_law(function.selector.gammas([scores[i] for i in remaining]))
        for position, index in enumerate(remaining):
            descend(remaining[:position] + remaining[position + 1:], prefix + (index,),
                    weight * round_law[position])

    descend(list(range(len(scores))), (), mpmath.mpf(1))
    return law


def max_loss(p: dict[Any, Any], q: dict[Any, Any]) -> tuple[Any, Any]:
    """``max_y ln(p(y) / q(y))`` over the common support, and the output attaining it."""
    best = max(p, key=lambda y: mpmath.log(p[y] / q[y]))
    return mpmath.log(p[best] / q[best]), best


def kl(p: dict[Any, Any], q: dict[Any, Any]) -> Any:
    """``KL(p || q) = lim_{alpha -> 1} D_alpha(p || q)``: a rho-zCDP pair has ``KL <= rho``."""
    return sum(p[y] * mpmath.log(p[y] / q[y]) for y in p)
