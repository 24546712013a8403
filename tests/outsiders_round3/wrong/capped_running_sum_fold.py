"""``make_capped_sum(upper, cap)``: the total of non-negative rows, capped at ``cap`` so that no
dataset reports more than ``cap``, with a smaller sensitivity when ``cap < upper``.

A ``Transformation`` from ``VectorDomain(AtomDomain(int, bounds=(0, upper)))`` under
``SymmetricDistance`` to ``AtomDomain(int)`` under ``AbsoluteDistance``. The function is a
``mechanisms.core.Fold`` that stops adding once the running total has reached the cap:
``step(total, x) = total if total >= cap else total + x``. Stated stability map
``d_in -> d_in * min(upper, cap)``, the sensitivity of ``min(sum, cap)``.

Preconditions: ``upper >= 0``, ``cap >= 0`` (ints).

MISTAKE: the early stop is not ``min(sum, cap)``: the row that crosses the cap is added whole, so
the result overshoots ``cap`` by up to ``upper - 1`` and depends on the order in which the rows
come. ``[10, 1]`` and ``[1, 10]`` (one multiset, ``d_in = 0``) give ``10`` and ``11`` with
``upper = cap = 10``. (Finalize with ``min(total, cap)`` over a plain sum instead.)
"""

from __future__ import annotations

from mechanisms import ops
from mechanisms.core import Constructor, Fold, Map, Precondition, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import ConstructorError
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import Entry, example


def same(total):
    return total


def capped_sensitivity(upper, cap):
    return ops.minimum(upper, cap)


def build_capped_sum(upper: int, cap: int) -> Transformation:
    def add_until_cap(total, x):
        return ops.where(ops.le(cap, total), total, total + x)

    return Transformation(
        input_domain=VectorDomain(AtomDomain(int, bounds=(0, upper))),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_metric=AbsoluteDistance(),
        function=Fold(add_until_cap, same, 0),
        stability_map=Map(constant=capped_sensitivity, params={"upper": upper, "cap": cap}),
    )


def validate(upper, cap):
    for name, value in (("upper", upper), ("cap", cap)):
        if type(value) is not int:
            raise ConstructorError(f"{name} must be an int, got {value!r}", **{name: value})


PRECONDITIONS = (
    Precondition("upper >= 0", lambda upper, cap: ops.le(0, upper),
                 lambda upper, cap: ConstructorError(f"upper must be >= 0, got {upper!r}",
                                                     upper=upper)),
    Precondition("cap >= 0", lambda upper, cap: ops.le(0, cap),
                 lambda upper, cap: ConstructorError(f"cap must be >= 0, got {cap!r}", cap=cap)),
)

make_capped_sum = Constructor("make_capped_sum", build_capped_sum, PRECONDITIONS, validate)

MECHANISMS = [Entry("make_capped_sum", make_capped_sum,
                    examples=(example("make_capped_sum(10, 25)",
                                      "from capped_running_sum_fold import make_capped_sum"),))]


def witness() -> str:
    t = make_capped_sum(10, 10)
    v, w = [10, 1], [1, 10]
    d_in = t.input_metric.distance(v, w)
    assert d_in == 0
    a, b = t(v), t(w)
    assert (a, b) == (10, 11)
    d_out = t.output_metric.distance(a, b)
    claimed = t.map(d_in)
    assert d_out == 1 and d_out > claimed, (d_out, claimed)
    return (f"make_capped_sum(10, 10): [10, 1] vs [1, 10] (d_in = 0) give {a} and {b}, "
            f"d_out = {d_out} > map(0) = {claimed}")
