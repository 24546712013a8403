"""make_abs_clamp(lower, upper): the magnitude of every row, clamped into [lower, upper] (a new
row transformation: ``x -> max(min(|x|, upper), lower)``, NaN -> lower).

Rows are ints or floats (the type of the bounds; float rows may be NaN, ±inf, -0.0); output rows
are in ``[lower, upper]``; symmetric distance on both sides; map ``d_in -> d_in`` (a row
transform). Written like README's ``my_clamp.py``: the kernel uses ``mechanisms.ops`` only, the
preconditions and validation are the clamp's (``BOUND_PRECONDITIONS``, ``validate_bounds``), and
the obligations are the catalogue's row-transform proof module ``clamp_obligations`` applied to
*this* constructor (README: "a theorem comes from a catalogue proof module applied to your
constructor"). README names no other proof module for row transformations.
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


def abs_clamp_kernel(x, lower, upper):
    """NaN -> lower; else ``|x|`` clamped into ``[lower, upper]``."""
    magnitude = ops.absolute(x)
    return ops.where(ops.is_nan(x), lower, ops.maximum(ops.minimum(magnitude, upper), lower))


def build_abs_clamp(lower, upper):
    carrier = ops.carrier_of(lower)
    return Transformation(
        input_domain=VectorDomain(AtomDomain(carrier, nan=carrier is float)),
        output_domain=VectorDomain(AtomDomain(carrier, bounds=(lower, upper))),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(abs_clamp_kernel, {"lower": lower, "upper": upper}),
        stability_map=Map(constant=unit_constant),
    )


make_abs_clamp = Constructor("make_abs_clamp", build_abs_clamp, BOUND_PRECONDITIONS,
                             validate_bounds)
MECHANISMS = [Entry("make_abs_clamp", make_abs_clamp,
                    clamp_obligations(make_abs_clamp, "abs_clamp"),
                    examples=(example("make_abs_clamp(0.0, 10.0)",
                                      "from abs_clamp import make_abs_clamp"),))]

HARD = [math.nan, math.inf, -math.inf, -0.0, 0.0, -1e308, 5e-324, -2.5, 2.5, 11.0, -11.0]


def check() -> str:
    checked = 0
    for lower, upper in ((0.0, 10.0), (-3.0, 3.0), (2.0, 2.0), (-math.inf, math.inf)):
        t = make_abs_clamp(lower, upper)
        for x in HARD:
            y = t([x])[0]
            assert t.output_domain.member([y]), (lower, upper, x, y)
            if not math.isnan(x):
                assert y == min(max(abs(x), lower), upper) or y == max(min(abs(x), upper), lower)
            checked += 1
    t = make_abs_clamp(-2, 5)
    rng = random.Random(3)
    for _ in range(2000):
        v = [rng.randint(-9, 9) for _ in range(rng.randint(0, 5))]
        w = v[:rng.randint(0, len(v))] + [rng.randint(-9, 9) for _ in range(rng.randint(0, 2))]
        d_in = t.input_metric.distance(v, w)
        assert t.output_metric.distance(t(v), t(w)) <= t.map(d_in)
        assert t.output_domain.member(t(v))
    return f"{checked} hard float rows land in [lower, upper] (NaN -> lower); 2000 int neighbour pairs within map(d_in)"
