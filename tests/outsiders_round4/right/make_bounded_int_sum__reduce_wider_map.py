"""make_bounded_int_sum refactored with ``functools.reduce(operator.add, data, 0)`` and a map
written as ``d_in * (|lower| + |upper|)``.

The maintainer replaced the ``Fold`` by the standard-library reduce and, not wanting to think
about the sign of the bounds, bounded one row's effect by ``|lower| + |upper|``.

Why it is correct: ``reduce(operator.add, v, 0)`` is ``((0 + v0) + v1) + ...``, the catalogue's
left fold of ``total + x`` from ``0``, exact on Python ints, and ``0`` on the empty vector; the
result is an ``int``. The map ``d_in (|L| + |U|)`` is at least the catalogue's
``d_in max(|L|, |U|)`` for every ``d_in >= 0`` (``|L| + |U| >= max(|L|, |U|)``), so the
stability statement, which holds for the smaller map, holds for it (a looser, still valid bound).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import functools
import itertools
import operator
import random
from dataclasses import replace

from mechanisms import ops
from mechanisms.core import Map
from mechanisms.make_bounded_int_sum import build_bounded_int_sum, make_bounded_int_sum
from obligations.base import Entry

CONSTRUCTOR = "make_bounded_int_sum"


def reduce_sum(data):
    return functools.reduce(operator.add, data, 0)


def wide_map(d_in, lower, upper):
    """``d_in * (|lower| + |upper|)``: exact on ints."""
    return d_in * (ops.absolute(lower) + ops.absolute(upper))


def build_bounded_int_sum_reduce(lower, upper):
    return replace(build_bounded_int_sum(lower, upper), function=reduce_sum,
                   stability_map=Map(rule=wide_map, params={"lower": lower, "upper": upper}))


make_bounded_int_sum_reduce = make_bounded_int_sum.variant("make_bounded_int_sum_reduce",
                                                           build_bounded_int_sum_reduce)
MECHANISMS = [Entry("make_bounded_int_sum_reduce", make_bounded_int_sum_reduce)]

BOUNDS = [(0, 0), (0, 1), (-1, 1), (-5, 3), (-(2 ** 63), 2 ** 63 - 1), (2 ** 53, 2 ** 53 + 2),
          (-(10 ** 400), 10 ** 400), (-7, -2)]


def check() -> str:
    rng = random.Random(3)
    compared = 0
    for lower, upper in BOUNDS:
        new, ref = make_bounded_int_sum_reduce(lower, upper), make_bounded_int_sum(lower, upper)
        assert (new.input_domain, new.output_domain, new.input_metric, new.output_metric) == \
            (ref.input_domain, ref.output_domain, ref.input_metric, ref.output_metric)
        rows = sorted({lower, upper, max(lower, min(upper, 0)), max(lower, min(upper, 1)),
                       (lower + upper) // 2})
        vectors = [list(p) for n in range(4) for p in itertools.product(rows, repeat=n)]
        vectors += [[rng.randint(lower, upper) for _ in range(rng.randrange(60))]
                    for _ in range(200)]
        for v in vectors:
            a, b = new(v), ref(v)
            assert type(a) is int and a == b, v
            compared += 1
        for d in range(0, 100):
            assert type(new.map(d)) is int and new.map(d) >= ref.map(d)
    return f"equal sums to make_bounded_int_sum on {compared} vectors; map >= reference's"
