"""Canonical noise that draws the position inside ``K``'s interval with one float,
``N = lo + width * Fraction(rng.random())``, then rounds ``x + Delta N`` to the nearest float
once (the exact bit-by-bit refinement replaced by "53 random bits are plenty"); a
``CanonicalNoise`` subclass whose ``__call__`` is replaced, ``sample_interval`` kept.

Wrong: ``random()`` is a multiple of ``2^-53``, so (``delta = 0``: every interval has length 1
and ``lo`` is a half-integer) ``N`` lies on the lattice ``2^-53 Z``. With ``Delta = 1``,
``eps = 1``, ``delta = 0``: from ``x = 0.0`` every output is ``nearest(k 2^-53) = k 2^-53``
(exact for ``|k| <= 2^53``; beyond, a float ``>= 1``), never ``2^-60``; from ``x' = 2^-60``
(``|x - x'| <= Delta``) the output is ``nearest(2^-60 + 0) = 2^-60`` when ``K = 0`` and
``random() = 1/2``, an event of probability ``(1 - 2c) 2^-53 > 0``. ``Pr[M(x') = 2^-60] > 0 =
e^eps Pr[M(x) = 2^-60] + 0``: the claimed ``(1.0, 0.0)`` fails (an infinite privacy loss).
Shown on the real ``__call__`` with a scripted generator (the first coin ``K = 0`` is
``randrange(den) < num`` with the draw 0, then ``random() = 0.5``), and from ``x`` on intervals
``K = 0, 1, -1, 2, -3`` at extreme and middle draws.
Hole classes: 5 (a float sampler), 2 (a subclass overrides ``__call__``).
"""

import math
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.make_canonical_noise import (CanonicalNoise, build_canonical_noise,  # noqa: E402
                                             make_canonical_noise, nearest)
from mechanisms.samplers import system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_canonical_noise import canonical_noise_obligations  # noqa: E402

CONSTRUCTOR = "make_canonical_noise"
CLASSES = (5, 2)


@dataclass(frozen=True)
class FloatUniformNoise(CanonicalNoise):
    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        shift = Fraction(min(max(arg, -1.7976931348623157e308), 1.7976931348623157e308))
        _, lo, width = self.sample_interval(rng)
        return nearest(shift + ops.exact(self.sensitivity) * (lo + width * Fraction(rng.random())))


def build(d_in, d_out):
    m = build_canonical_noise(d_in, d_out)
    f = m.function
    return replace(m, function=FloatUniformNoise(f.sensitivity, f.epsilon, f.delta))


make_cn_float = make_canonical_noise.variant("make_canonical_noise_float_uniform", build)
MECHANISMS = [Entry("outsider_cn_float_uniform", make_cn_float,
                    canonical_noise_obligations(make_cn_float, "outsider_cn_float_uniform"))]


class Scripted:
    """``randrange(n)`` returns 0 for a scripted ``"lo"`` (a coin ``randrange(den) < num`` is
    True) and ``n - 1`` for ``"hi"`` (False unless its probability is 1); ``random`` returns the
    scripted floats."""

    def __init__(self, ints, floats):
        self.ints, self.floats = list(ints), list(floats)

    def randrange(self, n):
        return 0 if self.ints.pop(0) == "lo" else n - 1

    def random(self):
        return self.floats.pop(0)


def witness() -> str:
    m = make_cn_float(1.0, (1.0, 0.0))
    x, x2, y = 0.0, 2.0 ** -60, 2.0 ** -60
    assert m.input_metric.distance(x, x2) <= 1.0
    assert m(x2, Scripted(["lo"], [0.5])) == y            # K = 0 (probability 1 - 2c > 0), U = 1/2
    c = m.function.fixed_point(m.function.exp_ratio(1.0), Fraction(0))
    assert 1 - 2 * c > 0
    # from x = 0: N = lo + U with lo a half-integer and U in 2^-53 Z: N in 2^-53 Z, never 2^-60
    # (the interval law, as the function's sample_interval returns it, checked on its draws)
    seen = set()
    for ints in (["lo"], ["hi", "lo", "lo"], ["hi", "lo", "hi"], ["hi", "hi", "lo", "lo"],
                 ["hi", "hi", "hi", "lo", "hi"]):
        k, lo, width = m.function.sample_interval(Scripted(ints, []))
        assert width == 1 and (lo * 2).denominator == 1
        seen.add(k)
        for u in (0.0, 0.5, 2.0 ** -53, 1 - 2.0 ** -53):
            out = m(x, Scripted(ints, [u]))
            assert out != y and (Fraction(out) * 2 ** 53).denominator == 1
    assert seen == {0, 1, -1, 2, -3}, seen
    return (f"eps 1, delta 0: Pr[M({x2!r}) = {y!r}] >= (1 - 2c) 2^-53 > 0, and every output "
            f"from {x} lies on 2^-53 Z (never {y!r}): infinite loss")
