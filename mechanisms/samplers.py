"""Exact samplers: every probability is a rational computed exactly, so the drawn distribution is
the stated one, with no floating-point inverse CDF (whose output leaks the input; Mironov 2012).

The algorithms are those of Canonne, Kamath and Steinke, "The Discrete Gaussian for Differential
Privacy" (NeurIPS 2020), Section 5: Bernoulli(exp(-gamma)) (their Algorithm 1), the discrete
Laplace (Algorithm 2) and the discrete Gaussian (Algorithm 3). Randomness comes from
``rng.randrange`` (uniform integers), by default the operating system's entropy.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import secrets
from fractions import Fraction
from typing import Any, Callable, Iterator

Rational = Fraction | int | float
"""A number the samplers take at its exact value (``Fraction(x)``; a float is the rational it
denotes)."""

StandIn = Callable[[str, Any, Any], Any]
"""``(law, parameter, rng) -> value``: what a sampler of a known law returns while replaced; the
parameter as the sampler was given it (a rational, or a solver term while the kernel reads code
on terms)."""

_STAND_IN: contextvars.ContextVar[StandIn | None] = contextvars.ContextVar("stand_in", default=None)
_DRAWN = object()


@contextlib.contextmanager
def draws_replaced(stand_in: StandIn) -> Iterator[None]:
    """Within this block, a call of :func:`sample_discrete_laplace` (law ``"discrete Laplace"``)
    or :func:`sample_discrete_gaussian` (``"discrete Gaussian"``) returns
    ``stand_in(law, parameter, rng)``, which runs with the samplers restored: the kernel reads a
    function's output as a term of its draws, or records them."""
    token = _STAND_IN.set(stand_in)
    try:
        yield
    finally:
        _STAND_IN.reset(token)


def _stand_in(law: str, parameter: Any, rng: Any) -> Any:
    """The replaced draw, or :data:`_DRAWN` when no :func:`draws_replaced` block is active."""
    stand_in = _STAND_IN.get()
    if stand_in is None:
        return _DRAWN
    token = _STAND_IN.set(None)
    try:
        return stand_in(law, parameter, rng)
    finally:
        _STAND_IN.reset(token)


def system_rng(rng: Any = None) -> Any:
    """``rng``, or the operating system's entropy source when ``None``."""
    return rng if rng is not None else secrets.SystemRandom()


def sample_bernoulli_rational(prob: Rational, rng: Any) -> bool:
    """``Pr[True] = prob`` exactly, for a rational ``0 <= prob <= 1``: a uniform integer below
    ``prob``'s denominator is compared with its numerator."""
    prob = Fraction(prob)
    if not 0 <= prob <= 1:
        raise ValueError(f"a probability must lie in [0, 1], got {prob}")
    return rng.randrange(prob.denominator) < prob.numerator


def sample_bernoulli_exp(gamma: Rational, rng: Any) -> bool:
    """``Pr[True] = exp(-gamma)`` exactly, for a rational ``gamma >= 0`` (CKS 2020, Algorithm 1).

    For ``gamma <= 1``: draw ``A_k ~ Bernoulli(gamma / k)`` for ``k = 1, 2, ...`` until one is
    ``False``; ``True`` iff that ``k`` is odd. Larger ``gamma`` is split into ``floor(gamma)``
    factors ``exp(-1)`` and one ``exp(-(gamma - floor(gamma)))``.
    """
    gamma = Fraction(gamma)
    if gamma < 0:
        raise ValueError(f"exp(-gamma) is a probability only for gamma >= 0, got {gamma}")
    return _bernoulli_exp(gamma.numerator, gamma.denominator, rng)


def _bernoulli_exp(numerator: int, denominator: int, rng: Any) -> bool:
    """:func:`sample_bernoulli_exp` of ``numerator / denominator >= 0``, in ints: the same draws
    from ``rng`` (each ``Bernoulli(gamma / k)`` in lowest terms), without building fractions."""
    while numerator > denominator:
        if not _bernoulli_exp(1, 1, rng):
            return False
        numerator -= denominator
    k = 1
    while True:
        common = math.gcd(numerator, denominator * k)
        if rng.randrange(denominator * k // common) >= numerator // common:
            return k % 2 == 1
        k += 1


def sample_geometric_exp_minus_one(rng: Any) -> int:
    """``V >= 0`` with ``Pr[V = v] = (1 - e^-1) e^-v``: count ``Bernoulli(exp(-1))`` successes
    before the first failure."""
    count = 0
    while _bernoulli_exp(1, 1, rng):
        count += 1
    return count


def sample_discrete_laplace(scale: Rational, rng: Any) -> int:
    """``Y`` in Z with ``Pr[Y = y]`` proportional to ``exp(-|y| / scale)``, for a rational
    ``scale > 0`` (CKS 2020, Algorithm 2, with ``scale = t / s``)."""
    if (replaced := _stand_in("discrete Laplace", scale, rng)) is not _DRAWN:
        return replaced
    scale = Fraction(scale)
    if scale <= 0:
        raise ValueError(f"the discrete Laplace needs scale > 0, got {scale}")
    t, s = scale.numerator, scale.denominator
    while True:
        u = rng.randrange(t)
        if not _bernoulli_exp(u, t, rng):
            continue
        y = (u + t * sample_geometric_exp_minus_one(rng)) // s
        negative = rng.randrange(2) == 1
        if negative and y == 0:
            continue
        return -y if negative else y


def sample_discrete_gaussian(sigma: Rational, rng: Any) -> int:
    """``Y`` in Z with ``Pr[Y = y]`` proportional to ``exp(-y^2 / (2 sigma^2))``, for a rational
    ``sigma > 0`` (CKS 2020, Algorithm 3): a discrete Laplace proposal of scale
    ``t = floor(sigma) + 1``, accepted with probability ``exp(-(|y| - sigma^2/t)^2 / (2 sigma^2))``."""
    if (replaced := _stand_in("discrete Gaussian", sigma, rng)) is not _DRAWN:
        return replaced
    sigma = Fraction(sigma)
    if sigma <= 0:
        raise ValueError(f"the discrete Gaussian needs sigma > 0, got {sigma}")
    t = math.floor(sigma) + 1
    a, b = sigma.numerator, sigma.denominator  # (|y| - sigma^2/t)^2 / (2 sigma^2), in ints:
    while True:
        y = sample_discrete_laplace(Fraction(t), rng)
        if _bernoulli_exp((abs(y) * b * b * t - a * a) ** 2, 2 * (a * b * t) ** 2, rng):
            return y
