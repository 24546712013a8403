"""``make_offset_rows(lower, upper)``: clamp every integer row into ``[lower, upper]`` and
express it as an offset from ``lower``, a ``RowTransform``.

A ``Transformation`` from ``VectorDomain(AtomDomain(int))`` to
``VectorDomain(AtomDomain(int, bounds=(0, upper - lower)))``, ``SymmetricDistance`` on both
sides; the function is ``mechanisms.core.RowTransform`` with kernel
``x -> max(min(x, upper), lower) - lower``, a deterministic function of the row alone, so one
row in or out of the input is one row in or out of the output: map ``d_in -> d_in``. Its output
chains into ``make_bounded_int_sum(0, upper - lower)``.

Precondition: ``lower <= upper`` (ints).
"""

from __future__ import annotations

from itertools import combinations_with_replacement, permutations

from mechanisms import ops
from mechanisms.core import Constructor, Map, Precondition, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, IntBoundTypeError
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry, example


def offset_kernel(x, lower, upper):
    return ops.maximum(ops.minimum(x, upper), lower) - lower


def identity_constant():
    return 1


def build_offset_rows(lower: int, upper: int) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(AtomDomain(int)),
        output_domain=VectorDomain(AtomDomain(int, bounds=(0, upper - lower))),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(offset_kernel, {"lower": lower, "upper": upper}),
        stability_map=Map(constant=identity_constant),
    )


def validate(lower, upper):
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)


PRECONDITIONS = (
    Precondition("lower <= upper", lambda lower, upper: ops.le(lower, upper),
                 lambda lower, upper: BoundsOrderError(lower, upper)),
)

make_offset_rows = Constructor("make_offset_rows", build_offset_rows, PRECONDITIONS, validate)

MECHANISMS = [Entry("make_offset_rows", make_offset_rows,
                    examples=(example("make_offset_rows(18, 90)",
                                      "from offset_rows import make_offset_rows"),))]


def check() -> str:
    from mechanisms.make_bounded_int_sum import make_bounded_int_sum
    from mechanisms.make_clamp import make_clamp

    pairs = 0
    for lower, upper in ((18, 90), (-4, 3), (5, 5)):
        t = make_offset_rows(lower, upper)
        clamp = make_clamp(lower, upper)
        assert t.output_domain == make_bounded_int_sum(0, upper - lower).input_domain
        values = [lower - 7, lower, (lower + upper) // 2, upper, upper + 100]
        data = [list(d) for n in range(4) for d in combinations_with_replacement(values, n)]
        for v in data:
            out = t(v)
            assert out == [x - lower for x in clamp(v)]
            assert t.output_domain.member(out)
            assert all(t.output_metric.distance(t(list(p)), out) == 0 for p in permutations(v))
        for v in data:
            for w in data:
                d_in = t.input_metric.distance(v, w)
                assert t.output_metric.distance(t(v), t(w)) <= t.map(d_in)
                pairs += 1
        for d_in in range(12):
            assert t.map(d_in) == clamp.map(d_in) == d_in
    return (f"make_offset_rows: equal to make_clamp then - lower, outputs in the declared "
            f"domain, d_out <= map(d_in) on all {pairs} pairs of datasets of <= 3 rows")
