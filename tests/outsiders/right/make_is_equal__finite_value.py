"""Is-equal that also refuses an infinite ``value`` ("a comparison with +-inf is almost always a
bug upstream; make the caller say so with a finite sentinel").

Correct (a stricter precondition): the body is the catalogue's ``build_is_equal``, and the
preconditions are the catalogue's plus ``value is finite`` (``is_finite`` is ``True`` for ints,
strs and bools), so every transformation it builds is one the catalogue builds; it refuses
``+-inf`` (and NaN, as before) and accepts nothing new. Checked: on admitted values it builds
the same domains, metrics, map values and outputs as ``make_is_equal``; it refuses NaN and
``+-inf``.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.core import Constructor, Precondition  # noqa: E402
from mechanisms.errors import ConstructorError  # noqa: E402
from mechanisms.make_is_equal import (IS_EQUAL_PRECONDITIONS, build_is_equal,  # noqa: E402
                                      make_is_equal, validate_value)
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_is_equal"


class InfiniteValueError(ConstructorError):
    """An infinite comparison ``value``."""

    def __init__(self, value):
        super().__init__(f"value is {value!r}; pass a finite value", value=value)


PRECONDITIONS = IS_EQUAL_PRECONDITIONS + (
    Precondition("value is finite", lambda value: ops.is_finite(value),
                 lambda value: InfiniteValueError(value)),)
make_is_equal_finite = Constructor("make_is_equal_finite_value", build_is_equal, PRECONDITIONS,
                                   validate_value)
MECHANISMS = [Entry("outsider_right_is_equal_finite_value", make_is_equal_finite)]


def check() -> str:
    rows = {float: [math.nan, math.inf, -math.inf, -0.0, 0.0, 1.5, 5e-324],
            int: [0, 1, -1, 10 ** 400], str: ["", "a", "b"], bool: [True, False]}
    admitted = [0.0, -0.0, 1.5, -1e308, 5e-324, 0, 7, -10 ** 400, "a", "", True, False]
    for value in admitted:
        ours, theirs = make_is_equal_finite(value), make_is_equal(value)
        data = rows[type(value)]
        assert (ours.input_domain, ours.output_domain) == (theirs.input_domain, theirs.output_domain)
        assert (ours.input_metric, ours.output_metric) == (theirs.input_metric, theirs.output_metric)
        assert ours(data) == theirs(data)
        assert all(ours.map(d) == theirs.map(d) for d in range(20))
    for value in (math.inf, -math.inf, math.nan):
        try:
            make_is_equal_finite(value)
        except ConstructorError:
            continue
        raise AssertionError(f"{value} accepted")
    return f"same transformation as make_is_equal on {len(admitted)} admitted values; refuses +-inf and NaN"
