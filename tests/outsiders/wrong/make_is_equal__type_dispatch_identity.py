"""Is-equal dispatching on the value's type: ints and strs compared by identity, ``x is value``
("ints and strs are interned, so identity is equality and skips the rich comparison"), floats and
bools by ``ops.eq``.

Wrong: only small ints (-5..256) and some string literals are cached/interned. ``1000`` parsed
from a file (``int("1000")``) or a string built at run time (``"".join(["a", "b"])``) is another
object than the ``value`` literal, so ``[1000]`` and ``[int("1000")]``, the same multiset
(symmetric distance 0), give ``[True]`` and ``[False]``: ``d_out = 2 > map(0) = 0``. There is no
``is_symbolic`` test, but the dispatch is one all the same: a solver term is neither an ``int``
nor a ``str``, so on solver terms the kernel is ``ops.eq`` and on numbers it is ``is``.
Hole classes: 11 (the solver sees another body: an implicit branch through ``type``), 10 (shows
only on non-interned objects).
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
CLASSES = (11, 10)

INTERNED = (int, str)


def dispatch_kernel(x, value):
    if type(value) in INTERNED:
        return x is value
    return ops.eq(x, value)


def build(value):
    return replace(build_is_equal(value), function=RowTransform(dispatch_kernel, {"value": value}))


make_is_equal_dispatch = make_is_equal.variant("make_is_equal_type_dispatch_identity", build)
MECHANISMS = [Entry("outsider_is_equal_type_dispatch_identity", make_is_equal_dispatch)]


def witness() -> str:
    t = make_is_equal_dispatch(1000)
    v, w = [1000], [int("1000")]
    observed, claimed = stability_violation(t, v, w, 0)
    s = make_is_equal_dispatch("ab")
    observed_s, claimed_s = stability_violation(s, ["ab"], ["".join(["a", "b"])], 0)
    return (f"is_equal(1000): [1000] vs [int('1000')] (distance 0) give {t(v)} vs {t(w)}, "
            f"d_out = {observed} > map(0) = {claimed}; str 'ab': {observed_s} > {claimed_s}")
