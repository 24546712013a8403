"""Canonical noise without the clamp of ``+-inf`` inputs (``shift = Fraction(arg)``: "the input
domain is non-NaN floats, so the value is a number"); a ``CanonicalNoise`` subclass whose
``__call__`` is the catalogue's minus the ``min(max(arg, -max), max)``.

Wrong: the input domain ``AtomDomain(float)`` admits ``+inf`` and ``-inf`` (only NaN is
excluded), and ``Fraction(inf)`` raises ``OverflowError``: the measurement raises on admitted
inputs (an infinite value in a data set crashes the release, or, caught upstream, reveals that
one was present).
Hole classes: 2 (a subclass overrides ``__call__``).
"""

import random
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.make_canonical_noise import (CanonicalNoise, build_canonical_noise,  # noqa: E402
                                             make_canonical_noise, nearest)
from mechanisms.samplers import sample_bernoulli_rational, system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_canonical_noise import canonical_noise_obligations  # noqa: E402

CONSTRUCTOR = "make_canonical_noise"
CLASSES = (2,)


@dataclass(frozen=True)
class UnclampedNoise(CanonicalNoise):
    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        shift = Fraction(arg)
        scale = ops.exact(self.sensitivity)
        _, lo, width = self.sample_interval(rng)
        while True:
            low, high = nearest(shift + scale * lo), nearest(shift + scale * (lo + width))
            if low == high:
                return low
            width /= 2
            if sample_bernoulli_rational(Fraction(1, 2), rng):
                lo += width


def build(d_in, d_out):
    m = build_canonical_noise(d_in, d_out)
    f = m.function
    return replace(m, function=UnclampedNoise(f.sensitivity, f.epsilon, f.delta))


make_cn_inf = make_canonical_noise.variant("make_canonical_noise_unclamped_inf", build)
MECHANISMS = [Entry("outsider_cn_unclamped_inf", make_cn_inf,
                    canonical_noise_obligations(make_cn_inf, "outsider_cn_unclamped_inf"))]


def witness() -> str:
    m = make_cn_inf(1.0, (1.0, 0.0))
    assert isinstance(m(3.0, random.Random(0)), float)
    out = []
    for x in (float("inf"), float("-inf")):
        assert m.input_domain.member(x)
        try:
            m(x, random.Random(0))
            out.append(f"{x}: no raise")
        except OverflowError as e:
            out.append(f"{x}: OverflowError ({e})")
    assert all("OverflowError" in o for o in out), out
    return "admitted inputs raise: " + "; ".join(out)
