"""Is-equal whose kernel tests identity, ``x is value``, instead of equality ("``is`` is faster
than ``==`` and the rows are interned anyway").

Wrong: ``is`` compares objects, not values. CPython caches small ints (-5..256) and interns
string literals, so the unit tests with ``make_is_equal(3)([3])`` or ``make_is_equal("a")(["a"])``
pass; but ``1000`` read from a file (``int("1000")``) is another object than the literal ``1000``
and compares ``False``. Two inputs that are the same multiset (symmetric distance 0) then get
different outputs (``[True]`` vs ``[False]``, distance 2), while the map promises
``map(0) = 0``: the kernel is not a function of the row's value, so the row-transform lemma's
premise fails.
Hole classes: 10 (shows only on values that are not interned/cached objects).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_is_equal import build_is_equal, make_is_equal  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_is_equal"
CLASSES = (10,)


def identity_kernel(x, value):
    return x is value


def build(value):
    return replace(build_is_equal(value), function=RowTransform(identity_kernel, {"value": value}))


make_is_equal_is = make_is_equal.variant("make_is_equal_identity_is", build)
MECHANISMS = [Entry("outsider_is_equal_identity_is", make_is_equal_is)]


def witness() -> str:
    value = 1000
    t = make_is_equal_is(value)
    v, w = [value], [int("1000")]          # the same value, another object
    observed, claimed = stability_violation(t, v, w, 0)
    f = make_is_equal_is(1.5)
    observed_f, claimed_f = stability_violation(f, [1.5], [float("1.5")], 0)
    s = make_is_equal_is("ab")
    observed_s, claimed_s = stability_violation(s, ["ab"], ["".join(["a", "b"])], 0)
    return (f"is_equal(1000): [1000] vs [int('1000')] at distance 0 give {t(v)} vs {t(w)}, "
            f"d_out = {observed} > map(0) = {claimed}; likewise float 1.5 ({observed_f} > "
            f"{claimed_f}) and str 'ab' ({observed_s} > {claimed_s})")
