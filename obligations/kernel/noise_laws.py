"""The laws of the samplers the kernel knows, and what a shift of them costs in each measure.

Both laws live on the integers with ``Pr[N = k]`` proportional to ``exp(-f(k))``, so for integer
centres ``c, c'`` the normalisers of ``c + N`` and ``c' + N`` are equal and the log-ratio at an
output ``y`` is exactly ``f(y - c') - f(y - c)``, a rational:

- discrete Laplace of scale ``s``: ``f(k) = |k| / s``; a shift by ``t`` costs ``|t| / s`` in the
  max divergence (the log-ratio's bound by the triangle inequality, proved by the rule), and so
  ``t^2 / (2 s^2)`` in zCDP (cited);
- discrete Gaussian of ``sigma``: ``f(k) = k^2 / (2 sigma^2)``; a shift by ``t`` costs
  ``t^2 / (2 sigma^2)`` in zCDP (cited); its max divergence is infinite.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence
from mechanisms.samplers import sample_discrete_gaussian, sample_discrete_laplace

CKS_LAPLACE = "Canonne, Kamath and Steinke 2020, Algorithm 2 (exact discrete Laplace sampler)"
CKS_GAUSSIAN = "Canonne, Kamath and Steinke 2020, Algorithm 3 (exact discrete Gaussian sampler)"
CKS_ZCDP = "Canonne, Kamath and Steinke 2020, Theorem 4 (discrete Gaussian is D^2/(2 sigma^2)-zCDP)"
PURE_TO_ZCDP = "Bun and Steinke 2016, Proposition 1.4 (eps-DP implies eps^2/2-zCDP)"


@dataclass(frozen=True)
class Loss:
    """What a shift by ``t >= 0`` costs in one measure: ``bound(t, parameter)``, a Z3 term; the
    citation it rests on, or ``None`` when the rule proves it from :meth:`Law.log_ratio`."""

    bound: Callable[[Any, Fraction], Any]
    cites: str | None


@dataclass(frozen=True)
class Law:
    """``Pr[N = k]`` proportional to ``exp(-exponent(k, parameter))`` on the integers."""

    name: str
    sampler: Callable[[Any, Any], int]
    cites: str
    exponent: Callable[[Any, Fraction], Any]
    losses: dict[type, Loss]

    def log_ratio(self, y: Any, centre: Any, other: Any, parameter: Fraction) -> Any:
        """``ln Pr[centre + N = y] - ln Pr[other + N = y]`` (exact for integers; a term on terms)."""
        return self.exponent(y - other, parameter) - self.exponent(y - centre, parameter)


def _abs(k: Any) -> Any:
    return z3.If(k < 0, -k, k) if isinstance(k, z3.ExprRef) else abs(k)


def _real(q: Any) -> Any:
    """A parameter as a Z3 real: a rational as its value, a solver term (the parameter for
    every argument of a constructor) as the real it stands for."""
    if isinstance(q, z3.ExprRef):
        return z3.ArithRef(q.as_ast(), q.ctx)
    return z3.RealVal(f"{q.numerator}/{q.denominator}")


LAWS: dict[str, Law] = {
    "discrete Laplace": Law(
        "discrete Laplace", sample_discrete_laplace, CKS_LAPLACE,
        lambda k, s: _abs(k) / (_real(s) if isinstance(k, z3.ExprRef) else s),
        {MaxDivergence: Loss(lambda t, s: t / _real(s), None),
         ZeroConcentratedDivergence: Loss(lambda t, s: t * t / (2 * _real(s) ** 2),
                                          PURE_TO_ZCDP)}),
    "discrete Gaussian": Law(
        "discrete Gaussian", sample_discrete_gaussian, CKS_GAUSSIAN,
        lambda k, sigma: k * k / (2 * (_real(sigma) if isinstance(k, z3.ExprRef) else sigma) ** 2),
        {ZeroConcentratedDivergence: Loss(lambda t, sigma: t * t / (2 * _real(sigma) ** 2),
                                          CKS_ZCDP)}),
}
"""Each law by the name its sampler gives when replaced (:func:`mechanisms.samplers.draws_replaced`)."""
