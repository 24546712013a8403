"""Refutation *exact loss of a finite law*: on two concrete inputs, an output whose probabilities'
log-ratio exceeds ``map(d_in)`` (infinite when one side cannot reach it; else ``ln R`` in an
interval of mpmath's interval arithmetic, entirely above the map), both laws computed whole from
the coin paths (:func:`obligations.kernel.finite_law.exact_law`)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath

from obligations.kernel.finite_law import exact_law, shape
from obligations.kernel.goals import require
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, Statement
from obligations.kernel.theorems import _REFUTER, Refutation
from obligations.refuters.base import refuters

REFUTE_RULE = "exact loss of a finite law"


def _refuted(statement: Statement, built: Any, x: Any, other: Any, d_in: Any,
             call: str) -> Refutation:
    subject = call or statement.subject
    require(REFUTE_RULE, statement.claim is Claim.PRIVACY,
            f"the statement refuted is not the privacy of {subject}")
    shape(REFUTE_RULE, subject, built)
    require(REFUTE_RULE, built.input_domain.member(x) and built.input_domain.member(other),
            f"{x!r} or {other!r} is not in the input domain of {subject}")
    distance = built.input_metric.distance(x, other)
    require(REFUTE_RULE, distance <= d_in, f"{x!r} and {other!r} are at distance {distance} > "
            f"{d_in}")
    claimed = built.map(d_in)
    require(REFUTE_RULE, isinstance(claimed, (int, float, Fraction)) and math.isfinite(claimed),
            f"map({d_in}) = {claimed!r} is not a finite number")
    p, q = exact_law(REFUTE_RULE, built.function, x), exact_law(REFUTE_RULE, built.function, other)
    for key in p:
        a, b = p[key], q.get(key, Fraction(0))
        if b == 0:
            loss: Any = math.inf
        else:
            if not _log_above(a / b, Fraction(claimed)):
                continue
            loss = f"ln({a / b})"
        witness = (f"{subject}: {x!r} and {other!r} at distance {distance} <= d_in = {d_in}; "
                   f"the laws computed from every coin path give Pr[M({x!r}) = {key[1]!r}] = {a} "
                   f"and Pr[M({other!r}) = {key[1]!r}] = {b}; their log-ratio {loss} > "
                   f"map({d_in}) = {claimed!r}")
        return Refutation(_REFUTER, statement, REFUTE_RULE, witness, loss, claimed)
    raise RuleRefused(REFUTE_RULE, f"no output of {subject} on {x!r} and {other!r} whose "
                      f"log-ratio exceeds map({d_in}) = {claimed!r}")


refute_object, refute_constructor = refuters(REFUTE_RULE, _refuted)
"""The refutation at two inputs of the privacy of one object, or of a constructor."""


def _log_above(ratio: Fraction, bound: Fraction) -> bool:
    """``ln(ratio) > bound``, decided with mpmath's interval arithmetic (rigorous: every interval
    contains the exact value); False when the intervals overlap."""
    context = mpmath.iv
    saved, context.prec = context.prec, 256
    try:
        log = context.log(context.mpf(ratio.numerator) / context.mpf(ratio.denominator))
        limit = context.mpf(bound.numerator) / context.mpf(bound.denominator)
        return bool(log.a > limit.b)
    finally:
        context.prec = saved
