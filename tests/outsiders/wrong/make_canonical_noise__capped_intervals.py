"""Canonical noise whose interval walk is capped at ``MAX_INTERVALS = 64`` ("bounded running
time: beyond 64 intervals, stop and use the last one"): a ``CanonicalNoise`` subclass whose
``sample_interval`` is the catalogue's with ``if j == MAX_INTERVALS: break`` before the hazard
coin.

Wrong for ``delta = 0``: canonical noise then has unbounded support, and the cap moves all the
mass ``t_63`` of ``|K| >= 64`` onto interval 64: ``|N| <= 64.5`` always. From ``x = 0.0`` the
output never reaches ``65.0``; from ``x' = 1.0 = Delta`` it does whenever ``K = 64`` and the
uniform lands in the top half, an event of probability ``t_63 / 2 * 1/2 > 0`` (at ``eps = 2^-7``,
``t_63 ~ 0.30``: the cap changes the law massively; at ``eps = 1`` still ``> 0``). ``Pr[M(x') >=
65] > 0 = e^eps Pr[M(x) >= 65] + 0``: the claimed ``(eps, 0)`` fails, an infinite loss. Shown on
the real code with scripted coins, and the mass computed exactly from the function's own
``fixed_point`` / ``tradeoff``.
Hole classes: 2 (a subclass overrides the method that runs), 10 (shows only past 64 draws).
"""

import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _canonical_cdf import tails  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.make_canonical_noise import (CanonicalNoise, build_canonical_noise,  # noqa: E402
                                             make_canonical_noise)
from mechanisms.samplers import sample_bernoulli_rational  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_canonical_noise import canonical_noise_obligations  # noqa: E402

CONSTRUCTOR = "make_canonical_noise"
CLASSES = (2, 10)
MAX_INTERVALS = 64


@dataclass(frozen=True)
class CappedNoise(CanonicalNoise):
    def sample_interval(self, rng):
        delta, ratio = ops.exact(self.delta), self.exp_ratio(self.epsilon)
        c = self.fixed_point(ratio, delta)
        if sample_bernoulli_rational(1 - 2 * c, rng):
            return 0, Fraction(-1, 2), Fraction(1)
        before, tail, j = 1 - c, c, 1
        while True:
            after = self.tradeoff(1 - tail, ratio, delta)
            if j == MAX_INTERVALS or sample_bernoulli_rational((tail - after) / tail, rng):
                break
            before, tail, j = tail, after, j + 1
        length = Fraction(self.last_length(before, tail, delta))
        if sample_bernoulli_rational(Fraction(1, 2), rng):
            return j, Fraction(2 * j - 1, 2), length
        return -j, -Fraction(2 * j - 1, 2) - length, length


def build(d_in, d_out):
    m = build_canonical_noise(d_in, d_out)
    f = m.function
    return replace(m, function=CappedNoise(f.sensitivity, f.epsilon, f.delta))


make_cn_capped = make_canonical_noise.variant("make_canonical_noise_capped_intervals", build)
MECHANISMS = [Entry("outsider_cn_capped_intervals", make_cn_capped,
                    canonical_noise_obligations(make_cn_capped, "outsider_cn_capped_intervals"))]


class Scripted:
    """``randrange(n)``: 0 (a coin is True) for ``"lo"``, ``n - 1`` (False) for ``"hi"``."""

    def __init__(self, script):
        self.script = list(script)

    def randrange(self, n):
        return 0 if self.script.pop(0) == "lo" else n - 1


def witness() -> str:
    out = []
    for eps in (2.0 ** -7, 1.0):
        m = make_cn_capped(1.0, (eps, 0.0))
        f = m.function
        # every coin False: K = 0 refused, 63 hazards refused, the cap: |K| = 64, lo + width = 64.5
        k, lo, width = f.sample_interval(Scripted(["hi"] * 64 + ["lo"]))
        assert (k, lo, width) == (64, Fraction(127, 2), 1)
        k2, lo2, width2 = f.sample_interval(Scripted(["hi"] * 65))
        assert (k2, lo2 + width2) == (-64, Fraction(-127, 2))
        # |N| <= 64.5 on every path, so from x = 0.0 every output is <= 64.5 < 65.0; from
        # x' = 1.0, K = 64 and the uniform's refining bits all "upper half" give 65.5 > 65
        high = f(1.0, Scripted(["hi"] * 64 + ["lo"] + ["lo"] * 60))
        assert high >= 65.0, high
        mass = tails(f, 64)[63]                      # Pr[|K| >= 64] = t_63, all on |K| = 64
        assert mass > 0
        out.append(f"eps {eps}: Pr[M(1.0) >= 65] >= t_63/4 = {float(mass / 4):.3g} > 0 = "
                   f"Pr[M(0.0) >= 65] (sample {high})")
    return "delta 0: " + "; ".join(out)
