"""make_dp_column_int_sum(key, columns, lower, upper, scale): the DP sum of an integer column of
a CSV-like table (records of strings), built only from catalogue constructors with ``>>``.

    select the column -> parse as int (unparsable -> 0) -> clamp to [lower, upper]
    -> bounded int sum -> discrete Laplace noise of ``scale``

Its privacy map is the chain's (``scale`` is the noise scale, the map is
``d_in * max(|lower|, |upper|) / scale`` rounded up), so no claim of mine is involved: this is
README's "A constructor that composes catalogue constructors needs no obligations" case (a
straight-line build that passes its arguments into catalogue constructors and ``>>``).
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms.arith import div_up
from mechanisms.core import Constructor
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_cast_default import make_cast_default
from mechanisms.make_clamp import make_clamp
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_select_column import make_select_column
from mechanisms.samplers import sample_discrete_laplace
from obligations.base import Entry


def build_dp_column_int_sum(key, columns, lower, upper, scale):
    """DP sum of the integer column ``key``, values clamped to ``[lower, upper]``."""
    return (make_select_column(key, columns) >> make_cast_default(str, int)
            >> make_clamp(lower, upper) >> make_bounded_int_sum(lower, upper)
            >> make_discrete_laplace(scale))


make_dp_column_int_sum = Constructor("make_dp_column_int_sum", build_dp_column_int_sum)
MECHANISMS = [Entry("make_dp_column_int_sum", make_dp_column_int_sum)]

COLUMNS = ("id", "age", "city")


def check() -> str:
    m = make_dp_column_int_sum("age", COLUMNS, 0, 100, 10.0)
    rows = [("1", "34", "Lyon"), ("2", "x", "Paris"), ("3", "250", "Lyon"), ("4", "-3", "Brest")]
    true_sum = 34 + 0 + 100 + 0
    for seed in range(200):
        out = m(rows, random.Random(seed))
        expected = true_sum + sample_discrete_laplace(Fraction(10.0), random.Random(seed))
        assert out == expected, (seed, out, expected)
    # the map is the chain's, exactly as stated
    for d in (0, 1, 2, 7):
        expected_map = 0 if d == 0 else div_up(d * 100, 10.0)
        assert m.map(d) == expected_map, (d, m.map(d), expected_map)
    return ("200 seeded runs equal clamp-sum + the catalogue's discrete Laplace draw; "
            "map(d) = d*100/10 rounded up for d in {0,1,2,7}")
