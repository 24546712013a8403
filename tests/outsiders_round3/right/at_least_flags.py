"""``make_at_least_flags(threshold)``: flag every integer row that is at least ``threshold``
(``True``) or below it (``False``), a ``RowTransform`` from ints to bools.

A ``Transformation`` from ``VectorDomain(AtomDomain(int))`` to
``VectorDomain(AtomDomain(bool))``, ``SymmetricDistance`` on both sides; the function is
``mechanisms.core.RowTransform`` with kernel ``x -> threshold <= x`` (``ops.le``), a
deterministic function of one row: map ``d_in -> d_in``. The same flags as
``make_clamp(threshold - 1, threshold)`` followed by ``make_is_equal(threshold)``, in one step.

No precondition beyond ``threshold`` being an ``int``.
"""

from __future__ import annotations

from itertools import combinations_with_replacement, permutations

from mechanisms import ops
from mechanisms.core import Constructor, Map, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import ConstructorError
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry, example


def at_least(x, threshold):
    return ops.le(threshold, x)


def unit():
    return 1


def build_at_least_flags(threshold: int) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(AtomDomain(int)),
        output_domain=VectorDomain(AtomDomain(bool)),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(at_least, {"threshold": threshold}),
        stability_map=Map(constant=unit),
    )


def validate(threshold):
    if type(threshold) is not int:
        raise ConstructorError(f"threshold must be an int, got {threshold!r}",
                               threshold=threshold)


make_at_least_flags = Constructor("make_at_least_flags", build_at_least_flags, (), validate)

MECHANISMS = [Entry("make_at_least_flags", make_at_least_flags,
                    examples=(example("make_at_least_flags(65)",
                                      "from at_least_flags import make_at_least_flags"),))]


def check() -> str:
    from mechanisms.make_clamp import make_clamp
    from mechanisms.make_is_equal import make_is_equal

    pairs = 0
    for threshold in (65, 0, -3):
        t = make_at_least_flags(threshold)
        clamp, equal = make_clamp(threshold - 1, threshold), make_is_equal(threshold)
        values = [threshold - 50, threshold - 1, threshold, threshold + 1, threshold + 50]
        data = [list(d) for n in range(4) for d in combinations_with_replacement(values, n)]
        for v in data:
            out = t(v)
            assert out == equal(clamp(v))  # the catalogue pair, row by row
            assert t.output_domain.member(out)
            assert all(t.output_metric.distance(t(list(p)), out) == 0 for p in permutations(v))
        for v in data:
            for w in data:
                d_in = t.input_metric.distance(v, w)
                assert t.output_metric.distance(t(v), t(w)) <= t.map(d_in)
                pairs += 1
        for d_in in range(12):
            assert t.map(d_in) == equal.map(clamp.map(d_in)) == d_in
    return (f"make_at_least_flags: equal to make_is_equal(t) after make_clamp(t - 1, t), bools "
            f"in the declared domain, d_out <= map(d_in) on all {pairs} pairs (3 thresholds)")
