"""Exact (or rigorously bounded) computations shared by the outsiders' witnesses and checks.

Only the public behaviour of ``mechanisms`` objects is used: domains' ``member``, metrics'
``distance``, maps, and the function objects' own attributes (the scale a sampler is handed is
recorded by running the real ``__call__`` with a recording sampler).
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from typing import Any, Callable, Sequence

import mpmath

from mechanisms.measures import MaxDivergence


def exact(x: Any) -> Fraction:
    """A map value (int, float, Fraction) as an exact rational."""
    return Fraction(x)


def stability_violation(t: Any, v: Any, w: Any, d_in: Any) -> tuple[Fraction, Fraction]:
    """Assert ``v, w`` are inputs of ``t`` at distance ``<= d_in`` whose outputs are further apart
    than ``t.map(d_in)``; return ``(observed, claimed)``."""
    assert t.input_domain.member(v), v
    assert t.input_domain.member(w), w
    assert t.input_metric.distance(v, w) <= d_in
    observed = t.output_metric.distance(t(v), t(w))
    claimed = t.map(d_in)
    assert observed > claimed, (observed, claimed)
    return observed, claimed


def out_of_domain(t: Any, v: Any) -> Any:
    """Assert ``t(v)`` is not in ``t.output_domain``; return the output."""
    assert t.input_domain.member(v), v
    out = t(v)
    assert not t.output_domain.member(out), out
    return out


class Recorder:
    """A sampler stand-in that records the scale it is handed and returns ``0``."""

    def __init__(self) -> None:
        self.scales: list[Any] = []

    def __call__(self, scale: Any, rng: Any) -> int:
        self.scales.append(scale)
        return 0


def sampler_scale(function: Any) -> Fraction:
    """The scale an ``IntegerNoise``-like function object hands its sampler, by running its own
    ``__call__`` with a recording sampler."""
    recorder = Recorder()
    dataclasses.replace(function, sampler=recorder)(0, random.Random(0))
    assert len(recorder.scales) == 1, recorder.scales
    return Fraction(recorder.scales[0])


def dl_shift_loss(shift: Any, scale: Any) -> Fraction:
    """``max_y ln(p(y - a) / p(y - b))`` for the discrete Laplace of rational ``scale`` and
    ``|a - b| = shift``: exactly ``|shift| / scale`` (attained at every ``y <= min(a, b)``)."""
    return Fraction(abs(shift)) / Fraction(scale)


def rr_pmf(function: Any, arg: Any) -> dict[Any, Fraction]:
    """The exact output law of a ``RandomizedResponse``-shaped function object: a uniform sample
    below ``draw_bound``, a coin ``honest`` with ``Pr = prob``, then its own ``respond``."""
    prob = Fraction(function.prob)
    index = function.index_of(arg)
    bound = function.draw_bound(index, len(function.categories))
    law: dict[Any, Fraction] = {}
    for sample in range(bound):
        for honest, weight in ((True, prob), (False, 1 - prob)):
            y = function.respond(arg, sample, honest)
            law[y] = law.get(y, Fraction(0)) + weight / bound
    return law


def max_ratio(p: dict[Any, Fraction], q: dict[Any, Fraction]) -> Fraction:
    return MaxDivergence().max_ratio(p, q)


# ---------------------------------------------------------------- discrete Laplace, mpmath

mpmath.mp.dps = 40


def _q(b: Any) -> Any:
    return mpmath.e ** (-1 / mpmath.mpf(Fraction(b).numerator) * Fraction(b).denominator)


def dl_pmf(z: int, b: Any) -> Any:
    q = _q(b)
    return (1 - q) / (1 + q) * q ** abs(z)


def dl_cdf(z: int, b: Any) -> Any:
    """``Pr[Y <= z]`` for the discrete Laplace of scale ``b``."""
    q = _q(b)
    return 1 - q ** (z + 1) / (1 + q) if z >= 0 else q ** (-z) / (1 + q)


def dl_tail_mass(radius: int, b: Any) -> Any:
    """``Pr[|Y| > radius]``."""
    return 2 * dl_cdf(-radius - 1, b)


def above_threshold_prob(out: int, answers: Sequence[int], threshold: int, rho_scale: Any,
                         nu_scale: Any, radius: int = 80) -> tuple[Any, Any]:
    """``Pr[AboveThreshold = out]`` (one threshold draw, first ``q_i + nu_i >= T + rho``) as a
    truncated sum over ``|rho| <= radius`` and the mass it leaves out (an upper bound of the
    error): ``(lower, slack)`` with ``lower <= Pr <= lower + slack``."""
    k = len(answers)
    total = mpmath.mpf(0)
    for r in range(-radius, radius + 1):
        term = dl_pmf(r, rho_scale)
        for i in range(min(out, k)):
            term *= dl_cdf(threshold + r - answers[i] - 1, nu_scale)
        if out < k:
            term *= dl_cdf(-(threshold + r - answers[out]), nu_scale)
        total += term
    return total, dl_tail_mass(radius, rho_scale)


def loss_lower_bound(p: tuple[Any, Any], q: tuple[Any, Any]) -> Any:
    """A lower bound of ``ln(P / Q)`` from ``P >= p_lower`` and ``Q <= q_lower + q_slack``."""
    return mpmath.log(p[0] / (q[0] + q[1]))


def exponential_mechanism_law(gammas: Sequence[Any]) -> list[Any]:
    """``Pr[i] = exp(-gamma_i) / sum_j exp(-gamma_j)`` (the rejection sampler's law), mpmath."""
    weights = [mpmath.e ** (-mpmath.mpf(Fraction(g).numerator) / Fraction(g).denominator)
               for g in gammas]
    total = sum(weights)
    return [w / total for w in weights]


def seeded(seed: int = 0) -> random.Random:
    return random.Random(seed)


def rows(values: Sequence[Any], f: Callable[[Any], Any]) -> list[Any]:
    return [f(v) for v in values]


# ---------------------------------------------------------------- discrete Gaussian, mpmath

def dg_renyi_lower(sigma: Any, shift: int, alpha: int, radius: int = 200) -> Any:
    """A lower bound of the Renyi divergence ``D_alpha(N_Z(0, s^2) || N_Z(shift, s^2))`` of two
    discrete Gaussians (same normaliser ``Z``): ``1/(alpha-1) ln sum_y p(y)^alpha q(y)^(1-alpha)``
    with the sum truncated to ``|y| <= radius`` (positive terms: a lower bound) and ``Z``
    normalised on the same range (the left-out mass, below ``1e-100`` here, only raises ``Z``;
    both densities share it, so it cancels in ``p^alpha q^(1-alpha) / Z``, which then lowers)."""
    s = mpmath.mpf(Fraction(sigma).numerator) / Fraction(sigma).denominator
    w = lambda y: mpmath.e ** (-mpmath.mpf(y) ** 2 / (2 * s * s))  # noqa: E731
    z = sum(w(y) for y in range(-radius, radius + 1))
    total = sum(w(y) ** alpha * w(y - shift) ** (1 - alpha) for y in range(-radius, radius + 1))
    return mpmath.log(total / z) / (alpha - 1)


def mp(x: Any) -> Any:
    """A rational (or float) as an mpmath number, exactly at the working precision."""
    q = Fraction(x)
    return mpmath.mpf(q.numerator) / q.denominator


# ---------------------------------------------------------------- exact laws of small samplers

class _NeedChoice(Exception):
    def __init__(self, options: list[tuple[int, Fraction]]) -> None:
        self.options = options


class _ScriptedRng:
    """``randrange`` replays a prefix of choices; past it, asks for the options of the next draw."""

    def __init__(self, prefix: tuple[int, ...], options_for: Callable[[int], Any]) -> None:
        self.prefix, self.index, self.options_for = prefix, 0, options_for

    def randrange(self, n: int) -> int:
        if self.index < len(self.prefix):
            self.index += 1
            return self.prefix[self.index - 1]
        raise _NeedChoice(self.options_for(n))


def enumerate_law(run: Callable[[Any], Any], options_for: Callable[[int], Any]) -> dict[Any, Fraction]:
    """The exact output law of ``run(rng)`` for a function making finitely many ``randrange``
    draws, by depth-first replay. ``options_for(n)`` lists ``(value, probability)`` for a draw
    below ``n``: every value with ``1/n`` for small ``n``, or representatives of the events the
    code distinguishes (a coin ``randrange(den) < num``: ``0`` with ``num/den``, ``num`` with the
    rest)."""
    law: dict[Any, Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, weight = stack.pop()
        try:
            y = run(_ScriptedRng(prefix, options_for))
        except _NeedChoice as need:
            for value, p in need.options:
                if p:
                    stack.append((prefix + (value,), weight * p))
            continue
        law[y] = law.get(y, Fraction(0)) + weight
    return law


def coin_options(prob: Any, small: int = 10_000) -> Callable[[int], Any]:
    """Options for draws of a function whose only large draw is the coin ``Bernoulli(prob)``."""
    p = Fraction(prob)

    def options_for(n: int) -> list[tuple[int, Fraction]]:
        if n == p.denominator and n > small:
            return [(0, Fraction(p.numerator, n)), (p.numerator, 1 - Fraction(p.numerator, n))]
        assert n <= small, n
        return [(v, Fraction(1, n)) for v in range(n)]
    return options_for
