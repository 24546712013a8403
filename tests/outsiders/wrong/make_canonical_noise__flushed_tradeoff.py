"""Canonical noise whose tradeoff flushes values below ``2^-64`` to zero ("keep the rationals
short: a tail under 2^-64 is zero for all practical purposes"), a ``CanonicalNoise`` subclass
replacing the static method ``tradeoff`` by ``where(f < 2^-64, 0, f)``.

Wrong for ``delta = 0``: the first tail ``t_J`` below ``2^-64`` becomes 0, the hazard coin at
interval ``J`` is then 1, and the mass ``t_{J-1}`` of ``|K| >= J`` is put on interval ``J``:
``|N| <= J + 1/2``. At ``eps = 1`` (``t_j = c e^-j``, ``c = 1/(1 + r)``) ``J = 44``. From ``x = 0.0``
the output never reaches ``J + 1.5``; from ``x' = 1.0 = Delta`` it does with probability at least
``t_{J-1} / 4 > 0`` (``K = J``, upper half). ``Pr[M(x') >= J + 1.5] > 0 = e^eps Pr[M(x) >= J +
1.5]``: the claimed ``(1.0, 0.0)`` fails (an infinite loss, on an event of probability about
``1e-20``). Shown with the real ``sample_interval`` and ``__call__`` on scripted coins, and the
tails from the function's own ``tradeoff``.
Hole classes: 10 (shows only in the far tail, past 40 intervals), 12 (a mutated constant: the
tradeoff's value near ``alpha = 1``).
"""

import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.make_canonical_noise import (CanonicalNoise, build_canonical_noise,  # noqa: E402
                                             make_canonical_noise, tradeoff)
from obligations.base import Entry  # noqa: E402
from obligations.make_canonical_noise import canonical_noise_obligations  # noqa: E402

CONSTRUCTOR = "make_canonical_noise"
CLASSES = (10, 12)
FLUSH = Fraction(1, 2 ** 64)


def flushed_tradeoff(alpha, ratio, delta):
    value = tradeoff(alpha, ratio, delta)
    return ops.where(ops.lt(value, FLUSH), 0, value)


@dataclass(frozen=True)
class FlushedNoise(CanonicalNoise):
    tradeoff = staticmethod(flushed_tradeoff)


def build(d_in, d_out):
    m = build_canonical_noise(d_in, d_out)
    f = m.function
    return replace(m, function=FlushedNoise(f.sensitivity, f.epsilon, f.delta))


make_cn_flush = make_canonical_noise.variant("make_canonical_noise_flushed_tradeoff", build)
MECHANISMS = [Entry("outsider_cn_flushed_tradeoff", make_cn_flush,
                    canonical_noise_obligations(make_cn_flush, "outsider_cn_flushed_tradeoff"))]


class Scripted:
    """``randrange(n)``: 0 (a coin is True) for ``"lo"``, ``n - 1`` (False) for ``"hi"``."""

    def __init__(self, script):
        self.script = list(script)

    def randrange(self, n):
        return 0 if self.script.pop(0) == "lo" else n - 1


def witness() -> str:
    m = make_cn_flush(1.0, (1.0, 0.0))
    f = m.function
    ratio, delta = f.exp_ratio(1.0), Fraction(0)
    t = [f.fixed_point(ratio, delta)]
    while t[-1] > 0:
        t.append(Fraction(f.tradeoff(1 - t[-1], ratio, delta)))
    big_j = len(t) - 1                             # t_J = 0: the hazard at interval J is 1
    assert big_j >= 2 and t[big_j - 1] > 0
    # every coin False: the walk still stops at J (its hazard is 1), positive or negative side
    k, lo, width = f.sample_interval(Scripted(["hi"] * (big_j + 1) + ["lo"]))
    assert (k, lo, width) == (big_j, Fraction(2 * big_j - 1, 2), 1), (k, lo, width)
    k2, lo2, _ = f.sample_interval(Scripted(["hi"] * (big_j + 2)))
    assert k2 == -big_j and lo2 == -Fraction(2 * big_j + 1, 2)
    top = big_j + 1.5
    high = f(1.0, Scripted(["hi"] * (big_j + 1) + ["lo"] + ["lo"] * 70))
    assert high >= top, (high, top)
    return (f"eps 1, delta 0: the walk stops at J = {big_j}, |N| <= {big_j + 0.5}; "
            f"Pr[M(1.0) >= {top}] >= t_(J-1)/4 = {float(t[big_j - 1] / 4):.3g} > 0 = "
            f"Pr[M(0.0) >= {top}] (sample {high})")
