"""Bounded geometric whose function object (a subclass of ``BoundedIntegerNoise``) releases
``clamp(x + Y)``: the noise is added to the raw input, only the output is clamped.

Correct, with another law than the catalogue's for inputs outside the bounds (an input far above
``U`` is released as ``U`` almost surely, where the catalogue's is ``clamp(U + Y)``): ``x + Y`` is
the discrete Laplace mechanism, ``|x - x'| / scale``-DP for integers (point ratios
``exp((|y - x'| - |y - x|) / scale) <= exp(|x - x'| / scale)``), and the output clamp is a fixed
function of it (post-processing), so the map ``d_in / scale`` still holds; the output is in
``[L, U]``. Checked exactly: for pairs ``x, x'`` (inside, outside and across the bounds) and every
output ``o`` in ``[L, U]``, ``Pr[clamp(x + Y) = o]`` summed in closed form (a point inside, a
geometric tail at each bound) meets the ratio ``exp(|x - x'| / scale)``: compared as
``P(x) <= P(x') * e^(d / scale)`` with mpmath at 50 digits (relative slack 1e-30).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.make_geometric import BoundedIntegerNoise, build_geometric, make_geometric  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_geometric"


@dataclass(frozen=True)
class OutputClampNoise(BoundedIntegerNoise):
    def release(self, arg, noise):
        return self.clamp(arg + noise)


def build(scale, bounds):
    m = build_geometric(scale, bounds)
    f = m.function
    return replace(m, function=OutputClampNoise(f.scale, f.lower, f.upper, f.sampler))


make_geo_out = make_geometric.variant("make_geometric_output_clamp", build)
MECHANISMS = [Entry("outsider_right_geo_no_input_clamp", make_geo_out)]


def law(x, lower, upper, scale):
    """``Pr[clamp(x + Y) = o]`` for ``o`` in ``[lower, upper]``, closed form."""
    q = mpmath.e ** (-1 / mpmath.mpf(scale))
    c = (1 - q) / (1 + q)
    point = lambda z: c * q ** abs(z)  # noqa: E731
    below = lambda z: q ** (-z) / (1 + q) if z <= 0 else 1 - q ** (z + 1) / (1 + q)  # P[Y<=z]  # noqa: E731
    out = {}
    for o in range(lower, upper + 1):
        if lower == upper:
            out[o] = mpmath.mpf(1)
        elif o == lower:
            out[o] = below(lower - x)
        elif o == upper:  # P[Y >= upper - x], the tail without cancellation
            z = upper - x
            out[o] = q ** z / (1 + q) if z > 0 else 1 - below(z - 1)
        else:
            out[o] = point(o - x)
    return out


def check() -> str:
    n = 0
    with mpmath.workdps(50):
        for scale in (0.5, 1.0, 3.0):
            for lower, upper in ((0, 0), (0, 1), (-2, 5), (10, 14)):
                m = make_geo_out(scale, (lower, upper))
                f = m.function
                assert f.release(upper + 40, -1) == upper and f.release(lower - 9, 3) == lower
                for x in range(lower - 6, upper + 7):
                    for x2 in range(lower - 6, upper + 7):
                        p, p2 = law(x, lower, upper, scale), law(x2, lower, upper, scale)
                        assert abs(sum(p.values()) - 1) < mpmath.mpf(10) ** -40
                        assert all(f.release(x, o - x) == o for o in p)
                        bound = mpmath.e ** (mpmath.mpf(m.map(abs(x - x2))))
                        assert all(p[o] <= p2[o] * bound * (1 + mpmath.mpf(10) ** -30) for o in p)
                        n += 1
    return f"exact output laws of clamp(x + Y) meet exp(map(|x - x'|)) on {n} pairs"
