"""make_random_binarize(lower, upper): unbiased stochastic rounding of every row to one of the two
bounds: ``x`` in ``[lower, upper]`` becomes ``upper`` with probability ``(x - L)/(U - L)`` and
``lower`` otherwise (NaN -> lower), declared as a row transformation (``RowTransform``,
symmetric distance, map ``d_in -> d_in``) with ``clamp_obligations``, since "each row still gives
one row".

MISTAKE: the kernel draws ``random.random()``: it is not a deterministic function of the row, so
the object is not a transformation at all. The same dataset run twice (``d_in = 0``) gives outputs
at symmetric distance 2 > map(0) = 0, and equal rows in one dataset are rounded differently.
(Randomness belongs in a Measurement with a privacy map.)
"""

from __future__ import annotations

import random

from mechanisms import ops
from mechanisms.core import Constructor, Map, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_clamp import BOUND_PRECONDITIONS, unit_constant, validate_bounds
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry, example
from obligations.make_clamp import clamp_obligations


def binarize_kernel(x, lower, upper):
    threshold = lower + random.random() * (upper - lower)
    return ops.where(ops.lt(threshold, x), upper, lower)


def build_random_binarize(lower, upper):
    carrier = ops.carrier_of(lower)
    return Transformation(
        input_domain=VectorDomain(AtomDomain(carrier, nan=carrier is float)),
        output_domain=VectorDomain(AtomDomain(carrier, bounds=(lower, upper))),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(binarize_kernel, {"lower": lower, "upper": upper}),
        stability_map=Map(constant=unit_constant),
    )


make_random_binarize = Constructor("make_random_binarize", build_random_binarize,
                                   BOUND_PRECONDITIONS, validate_bounds)
MECHANISMS = [Entry("make_random_binarize", make_random_binarize,
                    clamp_obligations(make_random_binarize, "random_binarize"),
                    examples=(example("make_random_binarize(0.0, 1.0)",
                                      "from binarize_random import make_random_binarize"),))]


def witness() -> str:
    t = make_random_binarize(0.0, 1.0)
    v = [0.5]
    for seed in range(100):
        random.seed(seed)
        a = t(v)
        b = t(v)
        if a != b:
            d_in = t.input_metric.distance(v, v)
            d_out = t.output_metric.distance(a, b)
            assert d_in == 0 and d_out > t.map(d_in)
            return (f"the same dataset [0.5] run twice (random.seed({seed})): {a} then {b}, "
                    f"d_in = 0, d_out = {d_out} > map(0) = {t.map(0)}")
    raise AssertionError("no two runs differed")
