"""Float noise helpers (a neutral module name: not part of the project packages)."""

import math


def two_sided_geometric(scale, rng):
    """A "discrete Laplace": a geometric magnitude by inversion of a float uniform, and a fair
    sign. (The zero is drawn with both signs: no rejection of ``-0``.)"""
    q = math.exp(-1 / float(scale))
    magnitude = int(math.log(1.0 - rng.random()) / math.log(q))
    sign = -1 if rng.random() < 0.5 else 1
    return sign * magnitude
