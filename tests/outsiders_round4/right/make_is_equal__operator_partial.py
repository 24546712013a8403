"""make_is_equal refactored as ``list(map(functools.partial(operator.eq, value), data))``.

Why it is correct: ``operator.eq(value, x)`` is ``value == x``. Every row has the exact type of
``value`` (the input domain is ``AtomDomain(type(value))``), and for ``float``, ``int``, ``str``
and ``bool`` equality between two objects of the same type is symmetric and returns a ``bool``:
on floats it is IEEE-754 equality both ways (``-0.0 == 0.0``, ``nan == nan`` false, ``inf ==
inf``), the catalogue's ``x == value``. So every output row is the same ``bool`` as the catalogue's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import functools
import itertools
import math
import operator
from dataclasses import replace

from mechanisms.make_is_equal import build_is_equal, make_is_equal
from obligations.base import Entry

CONSTRUCTOR = "make_is_equal"


def build_is_equal_partial(value):
    return replace(build_is_equal(value),
                   function=lambda data: list(map(functools.partial(operator.eq, value), data)))


make_is_equal_partial = make_is_equal.variant("make_is_equal_partial", build_is_equal_partial)
MECHANISMS = [Entry("make_is_equal_partial", make_is_equal_partial)]

ROWS = {
    float: [0.0, -0.0, 1.0, 5e-324, 1.7976931348623157e308, math.inf, -math.inf, math.nan,
            -math.nan],
    int: [0, 1, -1, 2 ** 53, 2 ** 53 + 1, 10 ** 400, -(10 ** 400)],
    str: ["", "a", "A", "a ", "\u00e9", "e\u0301", "0"],
    bool: [True, False],
}


def check() -> str:
    compared = 0
    for carrier, rows in ROWS.items():
        values = [x for x in rows if not (carrier is float and math.isnan(x))]
        vectors = [list(p) for n in range(4) for p in itertools.product(rows, repeat=n)]
        for value in values:
            new, ref = make_is_equal_partial(value), make_is_equal(value)
            assert (new.input_domain, new.output_domain, new.input_metric, new.output_metric) == \
                (ref.input_domain, ref.output_domain, ref.input_metric, ref.output_metric)
            for v in vectors:
                # rows as new objects of the same value (int("..."), "".join)
                v = [int(str(x)) if type(x) is int else "".join(list(x)) if type(x) is str else x
                     for x in v]
                a, b = new(v), ref(v)
                assert type(a) is list and all(type(x) is bool for x in a) and a == b, (value, v)
                compared += 1
            for d in range(0, 20):
                assert new.map(d) == ref.map(d)
    return f"equal to make_is_equal on {compared} (value, vector) pairs over float/int/str/bool"
