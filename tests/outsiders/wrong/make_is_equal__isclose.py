"""Is-equal with a "float-safe" kernel, ``math.isclose(x, value)`` (the usual advice: never
compare floats with ``==``).

Wrong: ``math.isclose`` converts both sides to float. An ``int`` row beyond the float range
(``10**400``, a member of ``AtomDomain(int)``, which has no bounds) raises ``OverflowError``, and
every ``str`` row raises ``TypeError``: the transformation raises on admitted inputs, so it has
no output there (and a raise that depends on one row's value is itself a side channel once
chained into a measurement). It also answers ``True`` for distinct floats within ``1e-9``
relative (``1.0`` and ``1.0 + 1e-12``), which is not the documented equality, though still a
row function.
Hole classes: none listed (plain type/overflow bug of a numeric-only helper).
"""

import math
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_is_equal import build_is_equal, make_is_equal  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_is_equal"
CLASSES = ()


def isclose_kernel(x, value):
    return math.isclose(x, value)


def build(value):
    return replace(build_is_equal(value), function=RowTransform(isclose_kernel, {"value": value}))


make_is_equal_close = make_is_equal.variant("make_is_equal_isclose", build)
MECHANISMS = [Entry("outsider_is_equal_isclose", make_is_equal_close)]


def _raises(t, data, kind):
    assert t.input_domain.member(data), data
    try:
        out = t(data)
    except kind as error:
        return f"{type(error).__name__}: {error}"
    raise AssertionError(f"no {kind.__name__}: {out}")


def witness() -> str:
    big = _raises(make_is_equal_close(1), [10 ** 400], OverflowError)
    text = _raises(make_is_equal_close("a"), ["a"], TypeError)
    near = make_is_equal_close(1.0)([1.0 + 1e-12])
    assert near == [True] and 1.0 + 1e-12 != 1.0
    return (f"is_equal(1)([10**400]) raises {big}; is_equal('a')(['a']) raises {text}; "
            f"is_equal(1.0)([1.0 + 1e-12]) = {near}")
