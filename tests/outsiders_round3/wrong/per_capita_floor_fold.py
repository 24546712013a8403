"""``make_per_capita_total(lower, upper, population)``: the total of bounded integer rows divided
by a public ``population`` (an integer per-capita figure), as a ``Fold``.

A ``Transformation`` from ``VectorDomain(AtomDomain(int, bounds=(lower, upper)))`` under
``SymmetricDistance`` to ``AtomDomain(int)`` under ``AbsoluteDistance``. The function is a
``mechanisms.core.Fold`` with ``step(total, x) = total + x`` from ``0`` and
``finalize(total, population) = total // population`` (floor division, an int). One row moves
the total by at most ``C = max(|lower|, |upper|)``; the author divides that by the population
the same way the statistic does: linear map ``d_in -> d_in * (C // population)``.

Preconditions: ``lower <= upper``, ``population >= 1`` (ints).

MISTAKE: the per-row sensitivity is rounded *down* (``C // population``) where it must be rounded
up. Flooring the total can turn a move of ``C`` into a move of ``ceil(C / population)``: with
rows in ``[0, 10]`` and ``population = 4``, the totals 3 and 13 floor to 0 and 3, three apart
for one added row, while the map says ``10 // 4 = 2``. (``ceil`` is ``-(-C // population)``.)
"""

from __future__ import annotations

from mechanisms import ops
from mechanisms.core import Constructor, Fold, Map, Precondition, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, IntBoundTypeError, SizeError
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import Entry, example


def add_row(total, x):
    return total + x


def per_capita(total, population):
    return ops.floor_div(total, population)


def per_capita_sensitivity(lower, upper, population):
    return ops.floor_div(ops.maximum(ops.absolute(lower), ops.absolute(upper)), population)


def build_per_capita_total(lower: int, upper: int, population: int) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(AtomDomain(int, bounds=(lower, upper))),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_metric=AbsoluteDistance(),
        function=Fold(add_row, per_capita, 0, {"population": population}),
        stability_map=Map(constant=per_capita_sensitivity,
                          params={"lower": lower, "upper": upper, "population": population}),
    )


def validate(lower, upper, population):
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)
    if type(population) is not int:
        raise SizeError(population)


PRECONDITIONS = (
    Precondition("lower <= upper", lambda lower, upper, **_: ops.le(lower, upper),
                 lambda lower, upper, **_: BoundsOrderError(lower, upper)),
    Precondition("population >= 1", lambda population, **_: ops.le(1, population),
                 lambda population, **_: SizeError(population)),
)

make_per_capita_total = Constructor("make_per_capita_total", build_per_capita_total,
                                    PRECONDITIONS, validate)

MECHANISMS = [Entry("make_per_capita_total", make_per_capita_total,
                    examples=(example("make_per_capita_total(0, 1000, 100)",
                                      "from per_capita_floor_fold import make_per_capita_total"),))]


def witness() -> str:
    t = make_per_capita_total(0, 10, 4)
    v, w = [3], [3, 10]
    d_in = t.input_metric.distance(v, w)
    assert d_in == 1
    a, b = t(v), t(w)
    assert (a, b) == (0, 3)
    d_out = t.output_metric.distance(a, b)
    claimed = t.map(d_in)
    assert d_out == 3 and claimed == 2 and d_out > claimed, (d_out, claimed)
    return (f"make_per_capita_total(0, 10, 4): [3] vs [3, 10] (d_in = 1) give {a} and {b}, "
            f"d_out = {d_out} > map(1) = {claimed}")
