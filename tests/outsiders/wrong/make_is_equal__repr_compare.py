"""Is-equal comparing the rows' canonical text, ``repr(x) == repr(value)`` ("so that a float
column matches exactly what the CSV writer / ``make_cast_default(float, str)`` shows"), with
``repr`` modelled as the catalogue models formatting (``ops.opaque``, as in make_cast_default).

Wrong: ``repr(-0.0) == '-0.0'`` differs from ``repr(0.0) == '0.0'`` although ``-0.0 == 0.0``:
the two zeros are one multiset element under the symmetric distance (``[-0.0]`` and ``[0.0]`` are
at distance 0), but ``make_is_equal(0.0)`` answers ``[False]`` for one and ``[True]`` for the
other, distance 2 > ``map(0) = 0``. (On ints, strs and bools repr is injective and the variant
agrees with ``==``; every other float also agrees, since repr round-trips.)
Hole classes: 10 (shows only on the signed zero).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_is_equal import build_is_equal, make_is_equal  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_is_equal"
CLASSES = (10,)


def text(x):
    return ops.opaque("repr", repr, x, str)


def repr_kernel(x, value):
    return ops.eq(text(x), text(value))


def build(value):
    return replace(build_is_equal(value), function=RowTransform(repr_kernel, {"value": value}))


make_is_equal_repr = make_is_equal.variant("make_is_equal_repr_compare", build)
MECHANISMS = [Entry("outsider_is_equal_repr_compare", make_is_equal_repr)]


def witness() -> str:
    t = make_is_equal_repr(0.0)
    v, w = [-0.0], [0.0]
    observed, claimed = stability_violation(t, v, w, 0)
    assert t(v) == [False] and t(w) == [True]
    return (f"is_equal(0.0): [-0.0] vs [0.0] (distance 0) give {t(v)} vs {t(w)}, "
            f"d_out = {observed} > map(0) = {claimed}")
