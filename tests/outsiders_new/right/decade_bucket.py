"""make_decade_bucket(lower, upper): an int row (an age, say) to its decade ``x // 10``, clamped
into ``[lower, upper]`` (a new row transformation: bucketing).

``VectorDomain(AtomDomain(int))`` -> ``VectorDomain(AtomDomain(int, bounds=(lower, upper)))``,
symmetric distance on both sides, map ``d_in -> d_in``. Ints only: ``floor_div`` of a float row
would give a float, and no ``ops`` helper floors a float to a float. Validation and preconditions
are the int sum's (both bounds ``int``, ``lower <= upper``).

Proof: as README's ``my_clamp.py``, the catalogue row-transform proof module ``clamp_obligations``
on this constructor (the only row-transform proof module README names; it takes the constructor
and a prefix). README does not say the proof module also tries float bounds whatever my
``validate`` admits.
"""

from __future__ import annotations

import random

from mechanisms import ops
from mechanisms.core import Constructor, Map, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_bounded_int_sum import INT_SUM_PRECONDITIONS, validate_int_bounds
from mechanisms.make_clamp import unit_constant
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry, example
from obligations.make_clamp import clamp_obligations


def decade_kernel(x, lower, upper):
    """``x // 10`` clamped into ``[lower, upper]``."""
    return ops.maximum(ops.minimum(ops.floor_div(x, 10), upper), lower)


def build_decade_bucket(lower, upper):
    return Transformation(
        input_domain=VectorDomain(AtomDomain(int)),
        output_domain=VectorDomain(AtomDomain(int, bounds=(lower, upper))),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(decade_kernel, {"lower": lower, "upper": upper}),
        stability_map=Map(constant=unit_constant),
    )


make_decade_bucket = Constructor("make_decade_bucket", build_decade_bucket,
                                 INT_SUM_PRECONDITIONS, validate_int_bounds)
MECHANISMS = [Entry("make_decade_bucket", make_decade_bucket,
                    clamp_obligations(make_decade_bucket, "decade_bucket"),
                    examples=(example("make_decade_bucket(0, 9)",
                                      "from decade_bucket import make_decade_bucket"),))]


def check() -> str:
    t = make_decade_bucket(0, 9)
    assert t([0, 9, 10, 19, 20, 99, 100, 250, -1, -15]) == [0, 0, 1, 1, 2, 9, 9, 9, 0, 0]
    rng = random.Random(11)
    for _ in range(3000):
        v = [rng.randint(-30, 130) for _ in range(rng.randint(0, 6))]
        w = v[:rng.randint(0, len(v))] + [rng.randint(-30, 130) for _ in range(rng.randint(0, 3))]
        d_in = t.input_metric.distance(v, w)
        out = t(v)
        assert t.output_domain.member(out)
        assert t.output_metric.distance(out, t(w)) <= t.map(d_in)
    return "decades as expected on 10 rows; 3000 neighbour pairs: outputs in [0, 9], d_out <= d_in"
