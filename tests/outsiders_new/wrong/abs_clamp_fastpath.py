"""make_abs_clamp_fast(lower, upper): the magnitude of every row clamped into [lower, upper],
NaN -> lower, written with ``ops`` as README asks, plus a "fast path" for plain Python floats
(``isinstance(x, float)``) with the builtins ``abs``/``min``/``max`` (an author optimising the hot
loop on real data, keeping the ``ops`` path for "everything else").

MISTAKE: the fast path forgets the NaN case the ``ops`` path has. On solver terms (never Python
floats) the kernel takes the ``ops`` path and is correct; on real float rows it takes the fast
path, where ``max(min(abs(nan), U), L)`` is NaN: a NaN row is released as NaN, outside the
declared output domain. (A float row and a solver term behave differently.)
"""

from __future__ import annotations

import math

from mechanisms import ops
from mechanisms.core import Constructor, Map, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_clamp import BOUND_PRECONDITIONS, unit_constant, validate_bounds
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry, example
from obligations.make_clamp import clamp_obligations


def abs_clamp_fast_kernel(x, lower, upper):
    if isinstance(x, float):  # fast path for real data
        return max(min(abs(x), upper), lower)
    return ops.where(ops.is_nan(x), lower,
                     ops.maximum(ops.minimum(ops.absolute(x), upper), lower))


def build_abs_clamp_fast(lower, upper):
    carrier = ops.carrier_of(lower)
    return Transformation(
        input_domain=VectorDomain(AtomDomain(carrier, nan=carrier is float)),
        output_domain=VectorDomain(AtomDomain(carrier, bounds=(lower, upper))),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(abs_clamp_fast_kernel, {"lower": lower, "upper": upper}),
        stability_map=Map(constant=unit_constant),
    )


make_abs_clamp_fast = Constructor("make_abs_clamp_fast", build_abs_clamp_fast,
                                  BOUND_PRECONDITIONS, validate_bounds)
MECHANISMS = [Entry("make_abs_clamp_fast", make_abs_clamp_fast,
                    clamp_obligations(make_abs_clamp_fast, "abs_clamp_fast"),
                    examples=(example("make_abs_clamp_fast(1.0, 10.0)",
                                      "from abs_clamp_fastpath import make_abs_clamp_fast"),))]


def witness() -> str:
    t = make_abs_clamp_fast(1.0, 10.0)
    out = t([math.nan, -3.0])
    assert math.isnan(out[0]) and not t.output_domain.member(out), out
    assert out[1] == 3.0
    # the ops path alone (what a solver term takes) sends NaN to lower: the two paths differ
    ops_path = ops.where(ops.is_nan(math.nan), 1.0,
                         ops.maximum(ops.minimum(ops.absolute(math.nan), 10.0), 1.0))
    assert ops_path == 1.0
    return "make_abs_clamp_fast(1.0, 10.0)([nan, -3.0]) = [nan, 3.0]: NaN outside AtomDomain(float, bounds=[1.0, 10.0])"
