"""make_square_clamp(lower, upper): the square of every row, clamped into [lower, upper] (a new
row transformation: ``x -> max(min(x * x, upper), lower)``, NaN -> lower), for a squared-error
or second-moment statistic downstream.

Ints or floats (the bounds' type); a float square that overflows is ``inf`` and is clamped to
``upper``; NaN rows go to ``lower``. Symmetric distance both sides, map ``d_in -> d_in``.
Written as README's ``my_clamp.py``: ``ops`` kernel, the clamp's preconditions and validation,
the catalogue row-transform proof module ``clamp_obligations`` applied to this constructor.
(``x * x`` is plain Python multiplication; README lists no ``ops.mul``: on a Z3 float it is
Z3's rounded-to-nearest product, as Python's.)
"""

from __future__ import annotations

import math
import random

from mechanisms import ops
from mechanisms.core import Constructor, Map, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_clamp import BOUND_PRECONDITIONS, unit_constant, validate_bounds
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry, example
from obligations.make_clamp import clamp_obligations


def square_clamp_kernel(x, lower, upper):
    """NaN -> lower; else ``x * x`` clamped into ``[lower, upper]``."""
    return ops.where(ops.is_nan(x), lower, ops.maximum(ops.minimum(x * x, upper), lower))


def build_square_clamp(lower, upper):
    carrier = ops.carrier_of(lower)
    return Transformation(
        input_domain=VectorDomain(AtomDomain(carrier, nan=carrier is float)),
        output_domain=VectorDomain(AtomDomain(carrier, bounds=(lower, upper))),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(square_clamp_kernel, {"lower": lower, "upper": upper}),
        stability_map=Map(constant=unit_constant),
    )


make_square_clamp = Constructor("make_square_clamp", build_square_clamp, BOUND_PRECONDITIONS,
                                validate_bounds)
MECHANISMS = [Entry("make_square_clamp", make_square_clamp,
                    clamp_obligations(make_square_clamp, "square_clamp"),
                    examples=(example("make_square_clamp(0.0, 100.0)",
                                      "from square_clamp import make_square_clamp"),))]


def check() -> str:
    hard = [math.nan, math.inf, -math.inf, -0.0, 0.0, 1e200, -1e200, 1e-200, 3.0, -3.0, 11.0]
    for lower, upper in ((0.0, 100.0), (5.0, 5.0), (-1.0, math.inf)):
        t = make_square_clamp(lower, upper)
        for x in hard:
            y = t([x])[0]
            assert t.output_domain.member([y]), (lower, upper, x, y)
    t = make_square_clamp(0, 50)
    assert t([-8, 3, 0, 7]) == [50, 9, 0, 49]
    rng = random.Random(5)
    for _ in range(2000):
        v = [rng.randint(-9, 9) for _ in range(rng.randint(0, 5))]
        w = v[:rng.randint(0, len(v))] + [rng.randint(-9, 9) for _ in range(rng.randint(0, 2))]
        assert t.output_metric.distance(t(v), t(w)) <= t.map(t.input_metric.distance(v, w))
    return "hard float rows (NaN, ±inf, overflow, -0.0) land in [lower, upper]; ints exact; 2000 neighbour pairs within map"
