"""make_abs_clamp_nan(lower, upper): the magnitude of every row clamped into [lower, upper], a new
row transformation written as README's ``my_clamp.py`` (``ops`` kernel, the clamp's
preconditions, ``clamp_obligations`` on this constructor).

MISTAKE: the kernel ``max(min(|x|, upper), lower)`` forgets NaN rows. The input domain admits NaN
(float data is untrusted), and ``|NaN|`` is NaN, ``min(NaN, U)`` is NaN and ``max(NaN, L)`` is
NaN, so a NaN row is released as NaN, outside the declared output domain
``AtomDomain(float, bounds=(lower, upper))`` (which admits no NaN).
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


def abs_clamp_kernel(x, lower, upper):
    return ops.maximum(ops.minimum(ops.absolute(x), upper), lower)


def build_abs_clamp_nan(lower, upper):
    carrier = ops.carrier_of(lower)
    return Transformation(
        input_domain=VectorDomain(AtomDomain(carrier, nan=carrier is float)),
        output_domain=VectorDomain(AtomDomain(carrier, bounds=(lower, upper))),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(abs_clamp_kernel, {"lower": lower, "upper": upper}),
        stability_map=Map(constant=unit_constant),
    )


make_abs_clamp_nan = Constructor("make_abs_clamp_nan", build_abs_clamp_nan, BOUND_PRECONDITIONS,
                                 validate_bounds)
MECHANISMS = [Entry("make_abs_clamp_nan", make_abs_clamp_nan,
                    clamp_obligations(make_abs_clamp_nan, "abs_clamp_nan"),
                    examples=(example("make_abs_clamp_nan(0.0, 10.0)",
                                      "from abs_clamp_nan import make_abs_clamp_nan"),))]


def witness() -> str:
    t = make_abs_clamp_nan(0.0, 10.0)
    v = [math.nan]
    assert t.input_domain.member(v)
    out = t(v)
    assert math.isnan(out[0]) and not t.output_domain.member(out), out
    return "make_abs_clamp_nan(0.0, 10.0)([nan]) = [nan], not in VectorDomain(AtomDomain(float, bounds=[0.0, 10.0]))"
