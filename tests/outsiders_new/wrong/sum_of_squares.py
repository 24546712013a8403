"""make_bounded_sum_of_squares(lower, upper): the sum of squares of ints in [lower, upper] (a
second moment, for a DP variance), a new transformation: a ``Fold`` of ``total + x * x``, from
``VectorDomain(AtomDomain(int, bounds=(lower, upper)))`` under symmetric distance to
``AtomDomain(int)`` under absolute distance. Preconditions and validation are the int sum's.

MISTAKE: the stability map is the bounded int sum's, ``d_in * max(|L|, |U|)`` (copied from
``make_bounded_int_sum``), forgetting the square: one added row moves the sum of squares by up to
``max(|L|, |U|)^2``. README names no proof module for a new fold; the entry lists none.
"""

from __future__ import annotations

from mechanisms.core import Constructor, Fold, Map, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_bounded_int_sum import (INT_SUM_PRECONDITIONS, int_sum_constant,
                                              sum_finalize, validate_int_bounds)
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import Entry, example


def square_step(total, x):
    return total + x * x


def build_bounded_sum_of_squares(lower, upper):
    return Transformation(
        input_domain=VectorDomain(AtomDomain(int, bounds=(lower, upper))),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_metric=AbsoluteDistance(),
        function=Fold(square_step, sum_finalize, 0),
        stability_map=Map(constant=int_sum_constant, params={"lower": lower, "upper": upper}),
    )


make_bounded_sum_of_squares = Constructor("make_bounded_sum_of_squares",
                                          build_bounded_sum_of_squares,
                                          INT_SUM_PRECONDITIONS, validate_int_bounds)
MECHANISMS = [Entry("make_bounded_sum_of_squares", make_bounded_sum_of_squares,
                    examples=(example("make_bounded_sum_of_squares(0, 3)",
                                      "from sum_of_squares import make_bounded_sum_of_squares"),))]


def witness() -> str:
    t = make_bounded_sum_of_squares(0, 3)
    v, w = [], [3]
    d_in = t.input_metric.distance(v, w)
    d_out = t.output_metric.distance(t(v), t(w))
    assert d_in == 1 and d_out > t.map(d_in), (d_out, t.map(d_in))
    return f"[] vs [3] (d_in = 1): sums of squares 0 and 9, d_out = {d_out} > map(1) = {t.map(1)}"
